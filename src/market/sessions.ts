/**
 * Trading sessions and intraday buckets (CONTRACT.md §6). Times are minutes after midnight,
 * market time (570 = 09:30). Sessions run 09:30–11:30 and 13:00–15:00; one-minute bars are
 * labelled by their end: the 09:30 opening-auction bar, then 09:31..11:30 and 13:01..15:00,
 * 241 a day. Vendors that fold the auction into 09:31 (TDX, 240 bars) fit the same labels.
 * Daily records (bars of 1d and longer, capital flows) are stamped with their day's 15:00 close,
 * AFTERNOON_CLOSE: every use of the close goes through it (closeEpoch, closeDateRange).
 */
import { addDays, epochToMarketDate, marketEpoch } from '../lib/time.js';

/** Bucket sizes of the intraday intervals aggregated from 1m bars (intervals.ts). */
export type IntradayMinutes = 5 | 15 | 30 | 60;

export const MORNING_OPEN = 9 * 60 + 30; // 570, also the auction bar's label
export const MORNING_CLOSE = 11 * 60 + 30; // 690
export const AFTERNOON_OPEN = 13 * 60; // 780
export const AFTERNOON_CLOSE = 15 * 60; // 900
/** Minutes of continuous trading in a day: 09:30–11:30 and 13:00–15:00. */
export const TRADING_MINUTES = MORNING_CLOSE - MORNING_OPEN + AFTERNOON_CLOSE - AFTERNOON_OPEN; // 240

/** Minute-of-day of each of the 241 one-minute bars of a day, ascending. */
export const MINUTE_LABELS: readonly number[] = [
  ...Array.from({ length: MORNING_CLOSE - MORNING_OPEN + 1 }, (_, i) => MORNING_OPEN + i),
  ...Array.from({ length: AFTERNOON_CLOSE - AFTERNOON_OPEN }, (_, i) => AFTERNOON_OPEN + 1 + i),
];

/** Position of a bar label in MINUTE_LABELS (09:30 -> 0, 13:01 -> 121), or -1 if not a label. */
export function minuteIndex(minuteOfDay: number): number {
  if (!Number.isInteger(minuteOfDay)) return -1;
  if (minuteOfDay >= MORNING_OPEN && minuteOfDay <= MORNING_CLOSE) return minuteOfDay - MORNING_OPEN;
  if (minuteOfDay > AFTERNOON_OPEN && minuteOfDay <= AFTERNOON_CLOSE) {
    return minuteOfDay - AFTERNOON_OPEN + (MORNING_CLOSE - MORNING_OPEN);
  }
  return -1;
}

/**
 * End label of the `intervalMinutes` bucket holding the one-minute bar labelled `minuteOfDay`,
 * or -1 if that is not a bar label. Buckets are right-closed, labelled by their end, counted
 * from each session's open and never span lunch; the 09:30 auction bar joins the first bucket.
 * bucketEnd(5, 571) -> 575 (09:35); bucketEnd(60, 781) -> 840 (14:00); bucketEnd(30, 570) -> 600.
 */
export function bucketEnd(intervalMinutes: IntradayMinutes, minuteOfDay: number): number {
  if (minuteIndex(minuteOfDay) < 0) return -1;
  const open = minuteOfDay <= MORNING_CLOSE ? MORNING_OPEN : AFTERNOON_OPEN;
  const elapsed = Math.max(minuteOfDay - open, 1); // the auction bar (elapsed 0) counts as 09:31
  return open + Math.ceil(elapsed / intervalMinutes) * intervalMinutes;
}

/** The instant (epoch seconds) a daily record of `date` is stamped with: its 15:00 close. */
export function closeEpoch(date: number): number {
  return marketEpoch(date, AFTERNOON_CLOSE);
}

/** The dates whose 15:00 close instant lies in [fromSec, toSec] (daily records are stamped at the close). */
export function closeDateRange(fromSec: number, toSec: number): { from: number; to: number } {
  let from = epochToMarketDate(fromSec);
  if (closeEpoch(from) < fromSec) from = addDays(from, 1);
  let to = epochToMarketDate(toSec);
  if (closeEpoch(to) > toSec) to = addDays(to, -1);
  return { from, to };
}
