/**
 * Pool memberships day after day: what `memberships` (pools.ts) gives for the window ending at
 * each day, computed in one pass over an equity's day states, in constant time a day (a
 * monotonic queue keeps the highest close of the new-high window). Day states go in in trading
 * day order, every trading day from the listing (or the first known day) on, suspended days
 * included; `state()` and `PoolTracker.from` carry it across calls, so a long history can be
 * fed in parts. One difference from a window: a limit-up streak is counted whole, however long,
 * where a window of STRONG_HIGH_DAYS + 1 days caps it.
 * @example const t = new PoolTracker(); const m = states.map((d) => t.push(d));
 */
import type { DayLimit } from './day-limits.js';
import {
  brokeUp,
  closedDown,
  closedUp,
  newHigh,
  STRONG_HIGH_DAYS,
  STRONG_LIMIT_WINDOW,
  subNew,
  type Membership,
  type PoolTypeId,
} from './pools.js';

/** What a tracker carries from one day to the next (plain data: it can be stored and restored). */
export interface TrackerState {
  /** Trading days pushed so far. */
  day: number;
  /** The limit-up streak at the last day with a bar (0: it did not close limit-up). */
  streak: number;
  /** Limit-up closes of the last STRONG_LIMIT_WINDOW days, newest last (1 or 0). */
  ups: number[];
  /** The close of each of the last STRONG_HIGH_DAYS − 1 days, newest last (null: no bar). */
  closes: (number | null)[];
}

const WINDOW = STRONG_HIGH_DAYS - 1;

export class PoolTracker {
  private day = 0;
  private streak = 0;
  private ups: number[] = [];
  /** The last WINDOW days' closes as a ring indexed by day number. */
  private closes: (number | null)[] = new Array<number | null>(WINDOW).fill(null);
  private traded = 0;
  /** Day numbers whose closes decrease, front first: the front is the window's highest close. */
  private queue: number[] = [];

  /** A tracker that goes on from `s`. */
  static from(s: TrackerState): PoolTracker {
    const t = new PoolTracker();
    t.day = s.day - s.closes.length;
    for (const c of s.closes) t.remember(c);
    t.day = s.day;
    t.streak = s.streak;
    t.ups = [...s.ups];
    return t;
  }

  state(): TrackerState {
    const closes: (number | null)[] = [];
    for (let k = Math.max(0, this.day - WINDOW); k < this.day; k++) closes.push(this.closes[k % WINDOW]);
    return { day: this.day, streak: this.streak, ups: [...this.ups], closes };
  }

  /** The memberships of day `d`, the next trading day of the equity. */
  push(d: DayLimit): Membership {
    const pools: PoolTypeId[] = [];
    const up = closedUp(d);
    this.ups.push(up ? 1 : 0);
    if (this.ups.length > STRONG_LIMIT_WINDOW) this.ups.shift();
    let out: Membership;
    if (!d.bar) {
      out = { pools, streak: 0, previousStreak: 0, strongReason: null };
    } else {
      if (up) pools.push('limit_up');
      if (closedDown(d)) pools.push('limit_down');
      if (brokeUp(d)) pools.push('broken_limit_up');
      const previousStreak = this.streak;
      if (previousStreak > 0) pools.push('previous_limit_up');
      let strongReason: string | null = null;
      if (!up) {
        const recent = this.ups.reduce((a, b) => a + b, 0);
        if (recent >= 2) strongReason = 'repeated_limit_up';
        else if (this.traded >= WINDOW && newHigh(d, this.traded, this.closes[this.queue[0] % WINDOW]!)) strongReason = 'new_high';
        if (strongReason) pools.push('strong');
      }
      if (subNew(d)) pools.push('sub_new');
      this.streak = up ? this.streak + 1 : 0;
      out = { pools, streak: up ? this.streak : 0, previousStreak, strongReason };
    }
    this.remember(d.bar ? d.bar.close : null);
    return out;
  }

  /** Adds the close (or null) of day `this.day` to the window and moves to the next day. */
  private remember(close: number | null): void {
    const k = this.day;
    if (k >= WINDOW) {
      if (this.closes[k % WINDOW] !== null) this.traded--;
      if (this.queue.length && this.queue[0] <= k - WINDOW) this.queue.shift();
    }
    this.closes[k % WINDOW] = close;
    if (close !== null) {
      this.traded++;
      while (this.queue.length && this.closes[this.queue[this.queue.length - 1] % WINDOW]! <= close) this.queue.pop();
      this.queue.push(k);
    }
    this.day = k + 1;
  }
}
