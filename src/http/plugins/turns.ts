import type { FastifyInstance } from 'fastify';

/**
 * Bounds the work started per event-loop turn while requests wait: requests start, in arrival
 * order, until the turn has run for `budgetMs`; the rest wait for the next turns.
 *
 * Why: libuv accepts one connection per loop turn (libuv#3696), and a turn runs every request
 * that arrived during its poll phase. On a saturated server with 64 busy keep-alive connections
 * a turn takes 64 requests' time, so a burst of new connections (a client starting up, a
 * health probe) is accepted one per 64 requests: the last one's first request waited close to
 * a second in the benchmark while the p50 was 20 ms. With a budget per turn, new connections
 * are accepted within about `budgetMs` plus one request's time, and requests are served first
 * come, first served.
 *
 * Why a budget and not one request per turn: a turn costs an epoll_wait, and responses written
 * one per turn wake the client's reader once each (on loopback the wake-up runs inside our
 * writev). With one start per turn the daily bars page took 218-256 us of CPU per request; with
 * a budget of 1 ms, 183-218 us (paired runs), and the same p99. 3 ms was no faster and doubled
 * the p99.
 *
 * A request "starts" when its onRequest hooks continue; what it awaits after that (PostgreSQL)
 * runs whenever it is ready, so the gate bounds the work started per turn, not concurrency. A
 * request that finishes within the turn's budget (`finished`) starts the next waiter at once.
 */
export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  /** When the current turn started its first request (performance.now()), or -1. */
  private since = -1;
  private scheduled = false;
  private readonly turn = () => {
    this.scheduled = false;
    this.since = -1;
    this.startNext();
  };

  constructor(private readonly budgetMs = 1) {}

  /** Runs `start` now if nothing waits and the turn's budget lasts, else in a later turn. */
  enter(start: () => void): void {
    if (this.head === this.waiting.length && this.open()) {
      this.schedule();
      start();
      return;
    }
    this.waiting.push(start);
    this.schedule();
  }

  /** A started request has finished: the next waiter starts now if the turn's budget lasts. */
  finished(): void {
    if (this.head < this.waiting.length && this.open()) this.startNext();
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Whether this turn may start another request (the first one marks the turn's start). */
  private open(): boolean {
    const now = performance.now();
    if (this.since < 0) { this.since = now; return true; }
    return now - this.since < this.budgetMs;
  }

  private startNext(): void {
    if (this.head === this.waiting.length) return;
    const next = this.waiting[this.head];
    this.waiting[this.head++] = undefined as never;
    if (this.head === this.waiting.length) { this.waiting.length = 0; this.head = 0; }
    if (this.since < 0) this.since = performance.now();
    this.schedule();
    next();
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      // The check phase of this turn: after the poll phase has read every ready socket and
      // accepted a connection.
      setImmediate(this.turn);
    }
  }
}

/** Puts every request of `app` through a TurnGate, before any other hook. */
export function registerTurnGate(app: FastifyInstance, budgetMs?: number): TurnGate {
  const gate = new TurnGate(budgetMs);
  app.addHook('onRequest', (_req, _reply, done) => gate.enter(done));
  app.addHook('onResponse', (_req, _reply, done) => { gate.finished(); done(); });
  return gate;
}
