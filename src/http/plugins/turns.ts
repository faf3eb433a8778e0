import type { FastifyInstance } from 'fastify';

/**
 * Starts at most one request per event-loop turn while requests wait, in arrival order.
 *
 * Why: libuv accepts one connection per loop turn (libuv#3696), and a turn runs every request
 * that arrived during its poll phase. On a saturated server with 64 busy keep-alive connections
 * a turn takes 64 requests' time, so a burst of new connections (a client starting up, a
 * health probe) is accepted one per 64 requests: the last one's first request waited close to
 * a second in the benchmark while the p50 was 20 ms. With one start per turn the loop turns
 * once per request, new connections are accepted within a request's time, and requests are
 * served first come, first served. The price is one loop turn (an epoll_wait with no timeout)
 * per request under load; a lone request starts at once.
 *
 * A request "starts" when its onRequest hooks continue; what it awaits after that (PostgreSQL)
 * runs whenever it is ready, so the gate bounds the work started per turn, not concurrency.
 */
export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  /** A request started in this turn. */
  private started = false;
  private scheduled = false;
  private readonly turn = () => {
    this.scheduled = false;
    this.started = false;
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head];
      this.waiting[this.head++] = undefined as never;
      if (this.head === this.waiting.length) { this.waiting.length = 0; this.head = 0; }
      this.started = true;
      this.schedule();
      next();
    }
  };

  /** Runs `start` now if nothing waits and nothing started in this turn, else in a later turn. */
  enter(start: () => void): void {
    if (!this.started && this.head === this.waiting.length) {
      this.started = true;
      this.schedule();
      start();
      return;
    }
    this.waiting.push(start);
    this.schedule();
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.waiting.length - this.head;
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
export function registerTurnGate(app: FastifyInstance): TurnGate {
  const gate = new TurnGate();
  app.addHook('onRequest', (_req, _reply, done) => gate.enter(done));
  return gate;
}
