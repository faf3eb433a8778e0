import type { DayLimit } from './day-limits.js';
import type { Bar } from './types.js';

/**
 * Pool membership rules (CONTRACT.md §6 and docs/analytics.md), pure. `days` are one equity's
 * day states ending at the pool date (ascending; the last element is the pool date).
 */
export type PoolTypeId = 'limit_up' | 'limit_down' | 'broken_limit_up' | 'previous_limit_up' | 'strong' | 'sub_new';

export const STRONG_HIGH_DAYS = 60;
export const STRONG_LIMIT_WINDOW = 5;
export const SUB_NEW_DAYS = 250;

const atOrAbove = (price: number, up: number | null) => up !== null && price >= up;
/**
 * A close at a limit, or beyond it at the day's extreme on that side (the high for the up limit,
 * the low for the down limit): no trade is beyond the limit the exchange applied, so a close a few
 * ticks past the computed one that is also the day's extreme (real bars of the 1990s are) closed
 * at the limit applied. A close beyond it anywhere else means the day's reference was not the one
 * computed (referenceInDoubt): not a limit move.
 */
const closedAt = (close: number, limit: number | null, extreme: number, beyond: (a: number, b: number) => boolean) =>
  limit !== null && (close === limit || (beyond(close, limit) && close === extreme));
/** Closed at the up limit (or beyond it at the day's high). */
export const closedUp = (d: DayLimit | undefined) => !!d?.bar && closedAt(d.bar.close, d.up, d.bar.high, (a, b) => a > b);
/** Closed at the down limit (or beyond it at the day's low). */
export const closedDown = (d: DayLimit) => !!d.bar && closedAt(d.bar.close, d.down, d.bar.low, (a, b) => a < b);
/** Reached the up limit (a high at or above it) and closed below it. */
export const brokeUp = (d: DayLimit) => !!d.bar && atOrAbove(d.bar.high, d.up) && d.bar.close < d.up!;
/**
 * The day's reference price is in doubt: it closed beyond a computed limit without that close
 * being the day's extreme on that side (closedUp, closedDown), so trades went past the computed
 * limit where none can go past the one applied: the exchange's reference was another (an ex-date
 * whose corporate action is not loaded) or the day had no limit (a share-reform resumption, a
 * return from a long suspension). 002415.SZ on 2016-05-18, a 10-for-10 transfer not loaded:
 * close 20.78 against a down limit of 29.48, its low below 20.78.
 */
export const referenceInDoubt = (d: DayLimit) =>
  !!d.bar &&
  ((d.up !== null && d.bar.close > d.up && d.bar.close !== d.bar.high) ||
    (d.down !== null && d.bar.close < d.down && d.bar.close !== d.bar.low));
/** A sub-new stock: within its first SUB_NEW_DAYS trading days, under a price limit. */
export const subNew = (d: DayLimit) => d.listingDay !== null && d.listingDay <= SUB_NEW_DAYS && d.ratioPct !== null;
/**
 * A new high: a close above `maxClose`, the highest of the `traded` closes of the previous
 * STRONG_HIGH_DAYS − 1 trading days (all of which must have traded), and above the reference.
 */
export const newHigh = (d: DayLimit, traded: number, maxClose: number) =>
  traded >= STRONG_HIGH_DAYS - 1 && d.bar!.close > maxClose && d.preClose !== null && d.bar!.close > d.preClose;

/** Consecutive limit-up closes ending at index i (0 when day i is not one). */
export function limitUpStreak(days: DayLimit[], i: number): number {
  let n = 0;
  for (let k = i; k >= 0 && closedUp(days[k]); k--) {
    n++;
    // a suspended day between two limit-ups breaks nothing: skip days without a bar
    while (k - 1 >= 0 && !days[k - 1].bar) k--;
  }
  return n;
}

export interface Membership {
  pools: PoolTypeId[];
  streak: number;
  previousStreak: number;
  strongReason: string | null;
}

export function memberships(days: DayLimit[]): Membership {
  const i = days.length - 1;
  const d = days[i];
  const pools: PoolTypeId[] = [];
  let strongReason: string | null = null;
  if (!d?.bar) return { pools, streak: 0, previousStreak: 0, strongReason };
  const up = closedUp(d);
  if (up) pools.push('limit_up');
  if (closedDown(d)) pools.push('limit_down');
  if (brokeUp(d)) pools.push('broken_limit_up');
  let prev = i - 1;
  while (prev >= 0 && !days[prev].bar) prev--;
  const previousStreak = prev >= 0 ? limitUpStreak(days, prev) : 0;
  if (previousStreak > 0) pools.push('previous_limit_up');
  if (!up) {
    const recent = days.slice(Math.max(0, i - STRONG_LIMIT_WINDOW + 1), i + 1).filter(closedUp).length;
    const closes = days
      .slice(Math.max(0, i - STRONG_HIGH_DAYS + 1), i)
      .filter((x) => x.bar)
      .map((x) => x.bar!.close);
    if (recent >= 2) strongReason = 'repeated_limit_up';
    else if (newHigh(d, closes.length, Math.max(...closes))) strongReason = 'new_high';
    if (strongReason) pools.push('strong');
  }
  if (subNew(d)) pools.push('sub_new');
  return { pools, streak: up ? limitUpStreak(days, i) : 0, previousStreak, strongReason };
}

export interface IntradayLimitStats {
  first: number | null;
  last: number | null;
  broken: number;
}

/**
 * First and final-seal times (bar end ts) at the up limit and how often it was broken, from 1m
 * bars; a price at or above the limit is at it (atOrAbove).
 */
export function intradayLimitStats(minutes: Bar[], up: number): IntradayLimitStats {
  let first: number | null = null,
    last: number | null = null,
    broken = 0;
  for (let k = 0; k < minutes.length; k++) {
    const m = minutes[k];
    const atPrev = k > 0 && atOrAbove(minutes[k - 1].close, up);
    if (first === null && atOrAbove(m.high, up)) first = m.ts;
    if (atOrAbove(m.close, up)) {
      if (!atPrev) last = m.ts;
    } else if (atPrev || atOrAbove(m.high, up)) broken++;
  }
  if (minutes.length && !atOrAbove(minutes[minutes.length - 1].close, up)) last = null;
  return { first, last, broken };
}
