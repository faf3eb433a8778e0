import { ApiError } from '../lib/errors.js';

/** Seconds a client is asked to wait (`Retry-After`) when the store cannot answer. */
export const STORE_RETRY_AFTER_S = 2;

/**
 * A query failed because the store cannot answer (down, unreachable, frozen, unreadable), not
 * because of the query: rendered as 503 `not_ready` with `Retry-After`. `reason` (for the log)
 * says why; the response never does.
 */
export class StoreUnavailable extends ApiError {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      { code: 'not_ready', detail: 'The store cannot answer at the moment; retry later.' },
      { 'retry-after': String(STORE_RETRY_AFTER_S) },
    );
    // The message (CLI, logs) says why; the response's detail does not.
    this.message = `the store is unavailable: ${reason}`;
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

export type HealthLog = (level: 'warn' | 'info', msg: string) => void;

/** The least time between two lines saying an outage started (ms). */
const ANNOUNCE_EVERY_MS = 1000;

/**
 * What a store's own queries tell of its health: every query that fails for want of the store
 * reports `failed`, every query that succeeds `ok` (one comparison while all is well), so
 * nothing is queried to learn it. An outage is logged once, when it starts (one line with its
 * reason, at most one such line a second however often the store fails or flaps: an outage
 * that starts within a second of the last such line is said by its next failure after that
 * second), and once when the store answers again (how long, how many queries failed meanwhile).
 *
 * The store answers again only when a query that began after the last failure succeeds: a
 * query sent before PostgreSQL began to stop may still succeed after its first refusals, and
 * must not end the outage (`mark`, taken as a query begins, is the failures counted so far).
 */
export class StoreHealth {
  /** Where the two lines go; set by the server (its logger). */
  log: HealthLog = () => {};
  /** What the service does meanwhile, as the line saying an outage started tells it (a primary with replicas: store/dialects/replicated.ts). */
  meanwhile = 'answering 503 not_ready until it answers again';
  private down = false;
  private since = 0;
  /** Failures for want of the store since the last line saying the store answers again. */
  private failures = 0;
  /** Failures ever: a query's `mark`. */
  private count = 0;
  /** When the store last answered a query begun after the last failure (`now()`), or -Infinity. */
  private answeredAt = -Infinity;
  private announcedAt = -Infinity;
  private announced = false;

  /** `now`: the clock, in milliseconds (tests pass one they advance). */
  constructor(private readonly now: () => number = Date.now) {}

  /** What a query takes as it begins, and gives `ok` when it succeeds. */
  get mark(): number {
    return this.count;
  }

  /** Records a failure for want of the store; returns the error to throw. */
  failed(reason: string, cause: unknown): StoreUnavailable {
    this.failures++;
    this.count++;
    const now = this.now();
    if (!this.down) {
      this.down = true;
      if (!this.announced) this.since = now;
    }
    if (!this.announced && now - this.announcedAt >= ANNOUNCE_EVERY_MS) {
      this.announcedAt = now;
      this.announced = true;
      this.log('warn', `store unavailable: ${reason}; ${this.meanwhile}`);
    }
    return new StoreUnavailable(reason, { cause });
  }

  /** Records a query the store answered; `mark`: the query's, taken as it began. */
  ok(mark: number): void {
    if (mark !== this.count) return;
    if (this.down) this.recovered();
    this.answeredAt = this.now();
  }

  /** Whether the last query failed for want of the store (and none begun since has succeeded). */
  get unavailable(): boolean {
    return this.down;
  }

  /** Whether a query begun after the last failure was answered within the last `ms` (so the store answers now, as far as its queries tell). */
  answeredWithin(ms: number): boolean {
    return !this.down && this.now() - this.answeredAt < ms;
  }

  private recovered(): void {
    this.down = false;
    if (!this.announced) return;
    // An outage too short to be announced (within a second of the last line) is counted in the next line.
    this.announced = false;
    const s = ((this.now() - this.since) / 1000).toFixed(1);
    this.log('info', `store available again after ${s} s; ${this.failures} queries failed meanwhile`);
    this.failures = 0;
  }
}
