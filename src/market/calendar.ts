/**
 * SSE/SZSE/BSE trading calendar, built once from the project's own closure table (closures.ts)
 * plus the rule that weekends are closed. Dates are YYYYMMDD integers (lib/time.ts).
 *
 * The table covers CALENDAR_FIRST..CALENDAR_LAST. Outside it nothing is known: isTradingDay is
 * false, tradingDaysBetween clips to it and next/previousTradingDay return null.
 */
import { addDays, parseDate, weekday } from '../lib/time.js';
import type { MarketId } from './types.js';
import { CLOSURES } from './closures.js';

/** First trading day of 2010 (Jan 1 was New Year's Day). */
export const CALENDAR_FIRST = 20100104;
/** Last date the closure table covers. */
export const CALENDAR_LAST = 20261231;

/** Opening day of each exchange (BJ: Beijing Stock Exchange, 2021-11-15). */
export const MARKET_OPENED: Readonly<Record<MarketId, number>> = { SH: 19901219, SZ: 19910703, BJ: 20211115 };

interface ClosureRange { first: number; last: number; name: string }

function toDate(s: string): number {
  const d = parseDate(s);
  if (d === null) throw new Error(`closures.ts: bad date ${s}`);
  return d;
}

const RANGES: readonly ClosureRange[] = CLOSURES.map(([a, b, name]) => ({ first: toDate(a), last: toDate(b), name }));

/** Ascending trading days of the covered range. */
const TRADING_DAYS: readonly number[] = (() => {
  const out: number[] = [];
  let r = 0;
  for (let d = CALENDAR_FIRST; d <= CALENDAR_LAST; d = addDays(d, 1)) {
    while (r < RANGES.length && RANGES[r].last < d) r++;
    const closed = weekday(d) > 5 || (r < RANGES.length && RANGES[r].first <= d);
    if (!closed) out.push(d);
  }
  return out;
})();

/** Index of the first element of `xs` that is >= x (xs.length when none). */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** True when SSE/SZSE trade on `date`; false on weekends, holidays and outside the table. */
export function isTradingDay(date: number): boolean {
  const i = lowerBound(TRADING_DAYS, date);
  return i < TRADING_DAYS.length && TRADING_DAYS[i] === date;
}

/**
 * Trading days from `from` to `to`, both inclusive, ascending; clipped to the covered range,
 * empty when from > to. tradingDaysBetween(20240208, 20240219) -> [20240208, 20240219]
 */
export function tradingDaysBetween(from: number, to: number): number[] {
  return TRADING_DAYS.slice(lowerBound(TRADING_DAYS, from), lowerBound(TRADING_DAYS, to + 1));
}

/** The first trading day strictly after `date`; null when `date` or the answer is outside the table. */
export function nextTradingDay(date: number): number | null {
  if (date < CALENDAR_FIRST || date > CALENDAR_LAST) return null;
  return TRADING_DAYS[lowerBound(TRADING_DAYS, date + 1)] ?? null;
}

/** The last trading day strictly before `date`; null when `date` or the answer is outside the table. */
export function previousTradingDay(date: number): number | null {
  if (date < CALENDAR_FIRST || date > CALENDAR_LAST) return null;
  return TRADING_DAYS[lowerBound(TRADING_DAYS, date) - 1] ?? null;
}

/**
 * How many months (yyyymm, inclusive) hold the first `n` trading days from `from` on, up to
 * `to`: the month packs a page of `n` daily bars starting at `from` reads when every one of
 * those days has a bar. Null when `from` lies outside the table.
 * monthsHolding(20240315, 20991231, 101) -> 6 (March to August 2024)
 */
export function monthsHolding(from: number, to: number, n: number): number | null {
  if (from < CALENDAR_FIRST || from > CALENDAR_LAST || n < 1) return null;
  const i = lowerBound(TRADING_DAYS, from);
  if (i >= TRADING_DAYS.length || TRADING_DAYS[i] > to) return 1;
  const j = Math.min(i + n, lowerBound(TRADING_DAYS, to + 1)) - 1;
  const month = (d: number) => Math.floor(d / 10000) * 12 + (Math.floor(d / 100) % 100);
  return month(TRADING_DAYS[j]) - month(TRADING_DAYS[i]) + 1;
}

/**
 * The exchange holiday `date` falls in (weekends inside a holiday range included), else null:
 * trading days, ordinary weekends and dates outside the table. closureName(20241003) -> 'National Day'
 */
export function closureName(date: number): string | null {
  let lo = 0, hi = RANGES.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (RANGES[mid].last < date) lo = mid + 1; else hi = mid;
  }
  const r = RANGES[lo];
  return r !== undefined && r.first <= date ? r.name : null;
}

/** Opening day of the exchange, YYYYMMDD. */
export function marketOpened(market: MarketId): number {
  return MARKET_OPENED[market];
}

/**
 * Trading days of `market` from `from` to `to` inclusive: the shared calendar, starting no earlier
 * than the market's opening day (only BJ opens inside the table; earlier days are not listed).
 */
export function marketTradingDays(market: MarketId, from: number, to: number): number[] {
  return tradingDaysBetween(Math.max(from, MARKET_OPENED[market]), to);
}
