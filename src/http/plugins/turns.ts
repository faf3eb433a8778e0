import fp from 'fastify-plugin';
import { behaviourOf } from '../route-config.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's TurnGate (turns.ts). */
    turns: TurnGate;
  }
}

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
 *
 * Responses are written together when the turn ends (`hold`): a response is held once it is
 * ready, the next waiter starts, and when none waits or the budget is spent every held response
 * is written, one after the other. On loopback a write that finds the client asleep wakes it,
 * and on this VM that wake-up (an interrupt to the other core) was the largest single cost of
 * a response; written back to back, a turn's responses wake the client about once. A raw
 * node:http handler of the 1m page took 121-135 us of CPU per request with its responses
 * written at the end of the poll phase against 171-195 us written one by one (paired runs).
 * A lone request is written at once: nothing waits behind it.
 */
export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  /** When the current turn started its first request (`now()`), or -1. */
  private since = -1;
  private scheduled = false;
  private readonly turn = () => {
    this.scheduled = false;
    this.since = -1;
    this.startNext();
  };
  /** Responses held: a resolve function, then its payload. */
  private held: unknown[] = [];
  /** Responses written in a batch of two or more (held, then released together). */
  batched = 0;
  private releaseScheduled = false;
  private readonly continueTurn = () => {
    if (!this.startIfOpen()) this.release();
  };
  private readonly releaseHeld = () => {
    this.releaseScheduled = false;
    this.release();
  };

  /** `now`: the clock the budget is measured on, in milliseconds (tests pass one they advance). */
  constructor(
    private readonly budgetMs = 1,
    private readonly now: () => number = () => performance.now(),
  ) {}

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
    this.startIfOpen();
  }

  /**
   * A started request's response is ready: resolves with `payload` when it may be written. If a
   * request waits and the turn's budget lasts, the next one starts and the response is held;
   * otherwise this response and every one held are released (written in that order). A held
   * response never outlives the loop turn: should the next request await I/O (PostgreSQL), the
   * check phase releases what is held.
   */
  hold<T>(payload: T): Promise<T> {
    return new Promise<T>((resolve) => {
      this.held.push(resolve, payload);
      if (this.canStart()) {
        queueMicrotask(this.continueTurn);
        if (!this.releaseScheduled) {
          this.releaseScheduled = true;
          setImmediate(this.releaseHeld);
        }
      } else this.release();
    });
  }

  private release(): void {
    const held = this.held;
    if (!held.length) return;
    this.held = [];
    if (held.length > 2) this.batched += held.length / 2;
    for (let i = 0; i < held.length; i += 2) (held[i] as (p: unknown) => void)(held[i + 1]);
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Whether a request waits and this turn may start it. */
  private canStart(): boolean {
    return this.head < this.waiting.length && this.open();
  }

  /** Starts the next waiter if this turn may; returns whether it did. */
  private startIfOpen(): boolean {
    if (!this.canStart()) return false;
    this.startNext();
    return true;
  }

  /** Whether this turn may start another request (the first one marks the turn's start). */
  private open(): boolean {
    const now = this.now();
    if (this.since < 0) {
      this.since = now;
      return true;
    }
    return now - this.since < this.budgetMs;
  }

  private startNext(): void {
    if (this.head === this.waiting.length) return;
    const next = this.waiting[this.head];
    this.waiting[this.head++] = undefined as never;
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    }
    if (this.since < 0) this.since = this.now();
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

/**
 * Puts every request of the app through a TurnGate (`app.turns`): register it before any other
 * plugin that adds hooks, so that its onRequest runs first. A probe (route-config.ts `probe`:
 * health, readiness) passes by: it is answered in the turn it arrives in, ahead of the requests
 * waiting, from what the process knows. A load balancer's check used to wait behind every
 * request queued before it (64 connections of heavy pages: over a second), and fail.
 */
export const turnGate = fp<{ budgetMs?: number }>(
  async (app, { budgetMs }) => {
    const gate = new TurnGate(budgetMs);
    app.decorate('turns', gate);
    app.addHook('onRequest', (req, _reply, done) => (behaviourOf(req).probe ? done() : gate.enter(done)));
    // A response not held (a hijacked reply, or before turnHold) still lets the next start.
    app.addHook('onResponse', (req, _reply, done) => {
      if (!behaviourOf(req).probe) gate.finished();
      done();
    });
  },
  { name: 'mds-turn-gate', fastify: '5.x' },
);

/**
 * Holds every response until its turn ends (TurnGate.hold): the last onSend hook, so it is
 * registered after the plugins whose onSend hooks must see the response first (the HTTP cache
 * compresses it).
 */
export const turnHold = fp(
  async (app) => {
    app.addHook('onSend', (req, _reply, payload) => (behaviourOf(req).probe ? Promise.resolve(payload) : app.turns.hold(payload)));
  },
  { name: 'mds-turn-hold', fastify: '5.x', dependencies: ['mds-turn-gate', 'mds-http-cache'] },
);
