/**
 * SSE/SZSE/BSE trading calendars. The calendar ships as data (calendars/sse-szse-bse.json: each
 * market's first day, the last published day and the weekday closures with their names); a
 * store's loaded trading days extend or correct it (TradingCalendar.withOverrides, docs/calendar.md).
 * Dates are YYYYMMDD integers (lib/time.ts).
 *
 * Outside a calendar's range nothing is known: isTradingDay is false, between clips to it and
 * next/previous return null.
 */
import { readFileSync } from 'node:fs';
import { addDays, parseDate, weekday } from '../lib/time.js';
import type { MarketId } from './types.js';

/** Index of the first element of `xs` that is >= x (xs.length when none). */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0,
    hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const monthOf = (d: number) => Math.floor(d / 10000) * 12 + (Math.floor(d / 100) % 100);

/** One market's trading days, ascending, with ordinals (0 = the first day of the calendar). */
export class TradingCalendar {
  private readonly ordinals: Map<number, number>;

  /** `days` ascending and unique. */
  constructor(readonly days: readonly number[]) {
    this.ordinals = new Map(days.map((d, i) => [d, i]));
  }

  /** First and last day of the calendar (0 when it is empty). */
  get first(): number {
    return this.days[0] ?? 0;
  }
  get last(): number {
    return this.days[this.days.length - 1] ?? 0;
  }

  isTradingDay(date: number): boolean {
    return this.ordinals.has(date);
  }

  /** Position of a trading day in the calendar, undefined for any other date. */
  ordinal(date: number): number | undefined {
    return this.ordinals.get(date);
  }

  /** Index of the first trading day on or after `date` (days.length when none). */
  indexOnOrAfter(date: number): number {
    return lowerBound(this.days, date);
  }

  at(i: number): number | undefined {
    return this.days[i];
  }

  /** Trading days from `from` to `to`, both inclusive, ascending; empty when from > to. */
  between(from: number, to: number): number[] {
    return this.days.slice(lowerBound(this.days, from), lowerBound(this.days, to + 1));
  }

  /** The first trading day strictly after `date`; null when `date` or the answer is outside the calendar. */
  next(date: number): number | null {
    if (date < this.first || date > this.last) return null;
    return this.days[lowerBound(this.days, date + 1)] ?? null;
  }

  /** The last trading day strictly before `date`; null when `date` or the answer is outside the calendar. */
  previous(date: number): number | null {
    if (date < this.first || date > this.last) return null;
    return this.days[lowerBound(this.days, date) - 1] ?? null;
  }

  /**
   * How many months (yyyymm, inclusive) hold the first `n` trading days from `from` on, up to
   * `to`: the month packs a page of `n` daily bars starting at `from` reads when every one of
   * those days has a bar. Null when `from` lies outside the calendar.
   */
  monthsHolding(from: number, to: number, n: number): number | null {
    if (from < this.first || from > this.last || n < 1) return null;
    const i = lowerBound(this.days, from);
    if (i >= this.days.length || this.days[i] > to) return 1;
    const j = Math.min(i + n, lowerBound(this.days, to + 1)) - 1;
    return monthOf(this.days[j]) - monthOf(this.days[i]) + 1;
  }

  /**
   * This calendar with loaded days applied: `open` days are added, `closed` days removed (a
   * loaded day always wins over the shipped calendar). Returns `this` when nothing changes.
   */
  withOverrides(open: readonly number[], closed: readonly number[]): TradingCalendar {
    if (!open.length && !closed.length) return this;
    const set = new Set(this.days);
    for (const d of open) set.add(d);
    for (const d of closed) set.delete(d);
    return new TradingCalendar([...set].sort((a, b) => a - b));
  }
}

/** The shipped calendar file: markets' first days, the last published day and weekday closures. */
interface CalendarFile {
  markets: Record<MarketId, { first: string }>;
  last: string;
  closures: [first: string, last: string, name: string][];
}

interface ClosureRange {
  first: number;
  last: number;
  name: string;
}

function toDate(s: string): number {
  const d = parseDate(s);
  if (d === null) throw new Error(`calendars/sse-szse-bse.json: bad date ${s}`);
  return d;
}

const FILE = JSON.parse(readFileSync(new URL('../../calendars/sse-szse-bse.json', import.meta.url), 'utf8')) as CalendarFile;
const RANGES: readonly ClosureRange[] = FILE.closures.map(([a, b, name]) => ({ first: toDate(a), last: toDate(b), name }));

/** First day any shipped calendar covers (SSE's opening, 1990-12-19). */
export const CALENDAR_FIRST = Math.min(...Object.values(FILE.markets).map((m) => toDate(m.first)));
/** Last day the shipped calendars cover (the last published year's end). */
export const CALENDAR_LAST = toDate(FILE.last);

function shipped(first: number): TradingCalendar {
  const out: number[] = [];
  let r = 0;
  for (let d = first; d <= CALENDAR_LAST; d = addDays(d, 1)) {
    while (r < RANGES.length && RANGES[r].last < d) r++;
    const closed = weekday(d) > 5 || (r < RANGES.length && RANGES[r].first <= d);
    if (!closed) out.push(d);
  }
  return new TradingCalendar(out);
}

/** The shipped calendar of each market, before any loaded trading days. */
export const SHIPPED_CALENDARS: Readonly<Record<MarketId, TradingCalendar>> = (() => {
  const sh = shipped(toDate(FILE.markets.SH.first));
  const of = (m: MarketId) => {
    const first = toDate(FILE.markets[m].first);
    return first === sh.first ? sh : new TradingCalendar(sh.between(first, CALENDAR_LAST));
  };
  return { SH: sh, SZ: of('SZ'), BJ: of('BJ') };
})();

/** First day of each market's shipped calendar (BJ: the Beijing Stock Exchange opened 2021-11-15). */
export const MARKET_OPENED: Readonly<Record<MarketId, number>> = {
  SH: SHIPPED_CALENDARS.SH.first,
  SZ: SHIPPED_CALENDARS.SZ.first,
  BJ: SHIPPED_CALENDARS.BJ.first,
};

const SSE = SHIPPED_CALENDARS.SH;

/** True when SSE/SZSE trade on `date` by the shipped calendar. */
export const isTradingDay = (date: number): boolean => SSE.isTradingDay(date);

/** Shipped SSE/SZSE trading days from `from` to `to`, inclusive. tradingDaysBetween(20240208, 20240219) -> [20240208, 20240219] */
export const tradingDaysBetween = (from: number, to: number): number[] => SSE.between(from, to);

export const nextTradingDay = (date: number): number | null => SSE.next(date);
export const previousTradingDay = (date: number): number | null => SSE.previous(date);

/** TradingCalendar.monthsHolding on the shipped SSE calendar. monthsHolding(20240315, 20991231, 101) -> 6 */
export const monthsHolding = (from: number, to: number, n: number): number | null => SSE.monthsHolding(from, to, n);

/**
 * The exchange holiday `date` falls in (weekends inside a holiday range included), else null:
 * trading days, ordinary weekends and dates outside the table. closureName(20241003) -> 'National Day'
 */
export function closureName(date: number): string | null {
  let lo = 0,
    hi = RANGES.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (RANGES[mid].last < date) lo = mid + 1;
    else hi = mid;
  }
  const r = RANGES[lo];
  return r !== undefined && r.first <= date ? r.name : null;
}

/** First day of the market's shipped calendar, YYYYMMDD. */
export function marketOpened(market: MarketId): number {
  return MARKET_OPENED[market];
}

/** Shipped trading days of `market` from `from` to `to` inclusive. */
export function marketTradingDays(market: MarketId, from: number, to: number): number[] {
  return SHIPPED_CALENDARS[market].between(from, to);
}

/** A trading day an operator loaded: closed on `date` when is_open is 0, else open. */
export interface LoadedDay {
  market: string;
  date: number;
  is_open: number | null;
}

/**
 * Each market's calendar with the loaded days applied (a loaded day always wins over the shipped
 * calendar: an open one adds the date, a closed one removes it). Days of other markets are ignored.
 */
export function effectiveCalendars(loaded: Iterable<LoadedDay>): Record<MarketId, TradingCalendar> {
  const open: Record<MarketId, number[]> = { SH: [], SZ: [], BJ: [] };
  const closed: Record<MarketId, number[]> = { SH: [], SZ: [], BJ: [] };
  for (const d of loaded) {
    const m = d.market as MarketId;
    if (open[m]) (d.is_open === 0 ? closed : open)[m].push(d.date);
  }
  return {
    SH: SHIPPED_CALENDARS.SH.withOverrides(open.SH, closed.SH),
    SZ: SHIPPED_CALENDARS.SZ.withOverrides(open.SZ, closed.SZ),
    BJ: SHIPPED_CALENDARS.BJ.withOverrides(open.BJ, closed.BJ),
  };
}
