/**
 * Bar aggregation (CONTRACT.md §6): 1m -> 5m/15m/30m/60m and 1d, 1d -> 1w/1mo/1q/1y.
 * A group takes the first open, highest high, lowest low, last close and the sums of volume and
 * amount (unknown, null, when any bar of the group has an unknown amount). Inputs are bars of
 * one instrument in ascending `ts`; groups with missing members (gaps in the data, suspended
 * days) are still emitted from what is there.
 */
import { addDays, dateParts, marketEpoch, MARKET_OFFSET_SECONDS, weekday } from '../lib/time.js';
import { bucketEnd, closeEpoch, type IntradayMinutes } from './sessions.js';
import type { PeriodInterval } from './intervals.js';
import type { Bar } from './types.js';

/** Sum that refuses to lose precision (a yearly index amount in fen can pass 2^53). */
function addExact(a: number, b: number, what: string): number {
  const s = a + b;
  if (!Number.isSafeInteger(s)) throw new RangeError(`aggregate: ${what} sum ${s} is not a safe integer`);
  return s;
}

/**
 * Adds b's amount to the group's exactly: in a number while the sum stays below 2^53 fen, in a
 * BigInt beyond (a year of SSE Composite turnover is about 1e16 fen). A group with a bar of
 * unknown amount (null) has an unknown amount: a partial sum would understate it.
 */
function addAmount(cur: Bar, b: Bar): void {
  if (cur.amount === null) return;
  if (b.amount === null) {
    cur.amount = null;
    delete cur.amountExact;
    return;
  }
  const s = cur.amount + b.amount;
  if (cur.amountExact === undefined && b.amountExact === undefined && Number.isSafeInteger(s)) {
    cur.amount = s;
    return;
  }
  cur.amountExact = (cur.amountExact ?? BigInt(cur.amount)) + (b.amountExact ?? BigInt(b.amount));
  cur.amount = Number(cur.amountExact);
}

/** Folds consecutive bars with equal keys; `stamp` gives the group's ts and date. */
function fold(bars: readonly Bar[], key: (b: Bar) => number, stamp: (k: number, last: Bar) => [number, number]): Bar[] {
  const out: Bar[] = [];
  let cur: Bar | null = null;
  let curKey = NaN;
  let prevTs = -Infinity;
  for (const b of bars) {
    if (b.ts <= prevTs) throw new RangeError(`aggregate: bars must be ascending by ts (${b.ts} after ${prevTs})`);
    prevTs = b.ts;
    const k = key(b);
    if (cur !== null && k === curKey) {
      if (b.high > cur.high) cur.high = b.high;
      if (b.low < cur.low) cur.low = b.low;
      cur.close = b.close;
      cur.volume = addExact(cur.volume, b.volume, 'volume');
      addAmount(cur, b);
      [cur.ts, cur.date] = stamp(k, b);
    } else {
      const [ts, date] = stamp(k, b);
      cur = { ts, date, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume, amount: b.amount };
      if (b.amountExact !== undefined) cur.amountExact = b.amountExact;
      curKey = k;
      out.push(cur);
    }
  }
  return out;
}

/** Market-time minute of day of an instant (epoch seconds). */
function minuteOfDay(ts: number): number {
  const local = ts + MARKET_OFFSET_SECONDS;
  return (local - Math.floor(local / 86_400) * 86_400) / 60;
}

/**
 * 1m bars (241- or 240-bar convention, may span days) -> `minutes` bars labelled by the bucket
 * end: ts = marketEpoch(date, end), date = the trading day. Throws RangeError on a bar whose
 * time is not a session minute label (e.g. 12:00) or on bars out of order.
 */
export function aggregateIntraday(bars: readonly Bar[], minutes: IntradayMinutes): Bar[] {
  return fold(
    bars,
    (b) => {
      const end = bucketEnd(minutes, minuteOfDay(b.ts));
      if (end < 0) throw new RangeError(`aggregate: bar at ts ${b.ts} is not on a session minute`);
      return b.date * 10_000 + end;
    },
    (k) => {
      const date = Math.floor(k / 10_000);
      return [marketEpoch(date, k % 10_000), date];
    },
  );
}

/** 1m bars -> one daily bar per date, ts = 15:00 of that date. */
export function aggregateDaily(minuteBars: readonly Bar[]): Bar[] {
  return fold(
    minuteBars,
    (b) => b.date,
    (date) => [closeEpoch(date), date],
  );
}

/**
 * The period `date` belongs to, as the period's first calendar day (YYYYMMDD): the ISO week's
 * Monday, the 1st of the month, quarter or year. periodKey(20240103, '1w') -> 20240101.
 */
export function periodKey(date: number, interval: PeriodInterval): number {
  const [y, m] = dateParts(date);
  switch (interval) {
    case '1w':
      return addDays(date, 1 - weekday(date));
    case '1mo':
      return y * 10_000 + m * 100 + 1;
    case '1q':
      return y * 10_000 + (m - ((m - 1) % 3)) * 100 + 1;
    case '1y':
      return y * 10_000 + 101;
  }
}

/**
 * A bound on the last calendar day of the period `date` belongs to (YYYYMMDD): the ISO week's
 * Sunday; the 31st of the month, of the quarter's last month, of December (a bound for date
 * ranges, not always a real day). periodEndBound(20240103, '1mo') -> 20240131.
 */
export function periodEndBound(date: number, interval: PeriodInterval): number {
  const [y, m] = dateParts(date);
  switch (interval) {
    case '1w':
      return addDays(date, 7 - weekday(date));
    case '1mo':
      return y * 10_000 + m * 100 + 31;
    case '1q':
      return y * 10_000 + (m - ((m - 1) % 3) + 2) * 100 + 31;
    case '1y':
      return y * 10_000 + 1231;
  }
}

/**
 * Daily bars -> `interval` bars. '1d' returns a copy of the input. Otherwise each period's bar
 * has date = its last trading day present in the input and ts = 15:00 of that day.
 */
export function aggregatePeriods(days: readonly Bar[], interval: '1d' | PeriodInterval): Bar[] {
  if (interval === '1d') return days.slice();
  return fold(
    days,
    (b) => periodKey(b.date, interval),
    (_k, last) => [closeEpoch(last.date), last.date],
  );
}
