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

/**
 * What a store's own queries tell of its health: every query that fails for want of the store
 * reports `failed`, every query that succeeds `ok` (one comparison while all is well), so
 * nothing is queried to learn it. An outage is logged once, when it starts (one line with its
 * reason, at most one such line a second however often the store fails or flaps), and once when
 * the store answers again (how long, how many queries failed meanwhile).
 */
export class StoreHealth {
  /** Where the two lines go; set by the server (its logger). */
  log: HealthLog = () => {};
  private down = false;
  private since = 0;
  private failures = 0;
  private announcedAt = -Infinity;
  private announced = false;

  /** Records a failure for want of the store; returns the error to throw. */
  failed(reason: string, cause: unknown): StoreUnavailable {
    this.failures++;
    if (!this.down) {
      this.down = true;
      const now = Date.now();
      if (!this.announced) this.since = now;
      if (now - this.announcedAt >= 1000) {
        this.announcedAt = now;
        this.announced = true;
        this.log('warn', `store unavailable: ${reason}; answering 503 not_ready until it answers again`);
      }
    }
    return new StoreUnavailable(reason, { cause });
  }

  /** Records a query the store answered. */
  ok(): void {
    if (this.down) this.recovered();
  }

  /** Whether the last query failed for want of the store. */
  get unavailable(): boolean {
    return this.down;
  }

  private recovered(): void {
    this.down = false;
    if (!this.announced) return;
    // An outage too short to be announced (within a second of the last line) is counted in the next line.
    this.announced = false;
    const s = ((Date.now() - this.since) / 1000).toFixed(1);
    this.log('info', `store available again after ${s} s; ${this.failures} queries failed meanwhile`);
    this.failures = 0;
  }
}
