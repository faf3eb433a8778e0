/** Small exact-arithmetic and calendar helpers shared by the fundamentals generators. */
import { divRoundHalfUp } from '../../lib/decimal.js';
import { addDays, weekday } from '../../lib/time.js';
import { CALENDAR_FIRST, CALENDAR_LAST, tradingDaysBetween } from '../../market/calendar.js';
import type { Rng } from '../random.js';

/** round(a × mult / b), half away from zero, exactly (BigInt); null when b is 0. */
export function ratio(a: number, b: number, mult: number): number | null {
  if (b === 0) return null;
  return Number(divRoundHalfUp(BigInt(a) * BigInt(mult), BigInt(b)));
}

/** Integer round of a float amount (fen, shares); -0 becomes 0. */
export const int = (x: number): number => Math.round(x) || 0;

export const yearOf = (d: number): number => Math.floor(d / 10000);

/** A trading day in [from, to] (weekdays outside the calendar table); `from` when the window is empty. */
export function dayIn(r: Rng, from: number, to: number): number {
  if (to < from) return from;
  if (from >= CALENDAR_FIRST && to <= CALENDAR_LAST) {
    const days = tradingDaysBetween(from, to);
    if (days.length > 0) return r.pick(days);
  }
  const weekdays: number[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (weekday(d) <= 5) weekdays.push(d);
  return weekdays.length > 0 ? r.pick(weekdays) : from;
}

export { addDays };

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
