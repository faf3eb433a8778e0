/**
 * The bar intervals (CONTRACT.md §6), one row each: where its bars come from, how long a bar is
 * and how it is stamped. Only 1m and 1d bars are stored; 5m..60m aggregate 1m bars into session
 * buckets (sessions.ts `bucketEnd`), 1w..1y aggregate 1d bars into calendar periods
 * (aggregate.ts `periodKey`). Every layer reads these facts here: the planner (query/bars.ts),
 * the bar writers (render/json-bytes.ts), the HTTP enum (http/params.ts) and the routes.
 * INTERVALS['60m'] -> { kind: 'intraday', minutes: 60, maxDays: null, daily: false }.
 */
import type { IntradayMinutes } from './sessions.js';
import type { IntervalId } from './types.js';

/** The intervals aggregated from daily bars, by calendar period. */
export type PeriodInterval = '1w' | '1mo' | '1q' | '1y';

/**
 * One interval. `kind`: stored 1m bars ('minute'), 1m bars aggregated into `minutes` buckets
 * ('intraday'), stored 1d bars ('daily'), 1d bars aggregated by calendar period ('period').
 * `minutes`: the bucket a bar spans, null for daily or longer. `maxDays`: the most trading days
 * a bar holds (bounds the daily rows read for a page of periods), null for intraday.
 * `daily` (daily or longer) is the bar end rule: such a bar ends at the close (sessions.ts
 * `closeEpoch`) of its last trading day and its timestamp is written as that date at 15:00;
 * a shorter bar ends at its bucket's end minute.
 */
export type IntervalSpec =
  | { kind: 'minute'; minutes: 1; maxDays: null; daily: false }
  | { kind: 'intraday'; minutes: IntradayMinutes; maxDays: null; daily: false }
  | { kind: 'daily'; minutes: null; maxDays: 1; daily: true }
  | { kind: 'period'; minutes: null; maxDays: number; daily: true };

const intraday = (minutes: IntradayMinutes): IntervalSpec => ({ kind: 'intraday', minutes, maxDays: null, daily: false });
/**
 * A period of at most `maxDays` trading days: a week 5, a month 23 and a quarter 66 (their
 * weekdays), a year 252 (every year from 1994 on; 1991-1993 held up to 257, which the three
 * spare periods query/bars.ts reads cover).
 */
const period = (maxDays: number): IntervalSpec => ({ kind: 'period', minutes: null, maxDays, daily: true });

/** Every interval, in the order the API lists them. */
export const INTERVALS: Readonly<Record<IntervalId, IntervalSpec>> = {
  '1m': { kind: 'minute', minutes: 1, maxDays: null, daily: false },
  '5m': intraday(5),
  '15m': intraday(15),
  '30m': intraday(30),
  '60m': intraday(60),
  '1d': { kind: 'daily', minutes: null, maxDays: 1, daily: true },
  '1w': period(5),
  '1mo': period(23),
  '1q': period(66),
  '1y': period(252),
};

/** The interval ids, in INTERVALS order (the `interval` parameter's enum). */
export const INTERVAL_IDS = Object.keys(INTERVALS) as IntervalId[];
