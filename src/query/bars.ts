/**
 * Plans a page of bars of any interval from the two stored granularities (CONTRACT.md §6):
 * 1m and 1d are read as stored; 5m..60m aggregate 1m rows, 1w..1y aggregate 1d rows.
 * A bar is selected by its end instant `ts` (from <= ts <= to, ts > after); aggregated bars are
 * always whole buckets, read from the bucket's start even when `from` falls inside it.
 */
import type { Bar, IntervalId } from '../market/types.js';
import { aggregateIntraday, aggregatePeriods, periodEndBound, periodKey } from '../market/aggregate.js';
import { INTERVALS, type PeriodInterval } from '../market/intervals.js';
import { closeDateRange, closeEpoch } from '../market/sessions.js';
import { epochToMarketDate, windowSeconds } from '../lib/time.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import { PageSlices } from '../render/page-text.js';
import { PackSlices } from './pack-slices.js';
import type { BarFieldsWriter } from '../render/bar-writers.js';

const isPeriod = (interval: IntervalId): interval is PeriodInterval => INTERVALS[interval].kind === 'period';

/** The first calendar day of the period holding `date` (aggregate.ts periodKey); `date` itself for other intervals. */
export const periodStart = (date: number, interval: IntervalId): number => (isPeriod(interval) ? periodKey(date, interval) : date);

/** A bound on the last calendar day of the period holding `date` (aggregate.ts periodEndBound); `date` itself for other intervals. */
export const periodEnd = (date: number, interval: IntervalId): number => (isPeriod(interval) ? periodEndBound(date, interval) : date);

export async function readBars(
  reader: MarketDataReader,
  inst: number,
  interval: IntervalId,
  win: { fromMs: number; toMs: number },
  after: number | null,
  limit: number,
  adjust: (rows: Bar[]) => Bar[] = (rows) => rows,
): Promise<Bar[]> {
  const { from, to } = windowSeconds(win);
  // Adjustment applies to the stored rows before aggregation (an ex-date may fall inside a week).
  if (interval === '1m') return adjust(await reader.minuteBars(inst, from, to, after, limit));

  const { kind, minutes, maxDays } = INTERVALS[interval];
  if (kind === 'intraday') {
    // A bucket holds at most minutes+1 rows (the 09:30 auction bar joins the first one); read
    // from one bucket before `from` (that partial bucket ends before `from` and is dropped).
    const per = minutes + 1;
    const max = (limit + 3) * per;
    const lo = Math.max(from - per * 60, after ?? -Infinity);
    const rows = await reader.minuteBars(inst, lo, to, after, max);
    let bars = aggregateIntraday(adjust(rows), minutes);
    if (rows.length === max) bars.pop(); // the last bucket may be cut by the row limit
    bars = bars.filter((b) => b.ts >= from && b.ts <= to && (after === null || b.ts > after));
    return bars.slice(0, limit);
  }

  const { from: lo, to: hi } = closeDateRange(from, to);
  const afterDate = after === null ? null : epochToMarketDate(after);
  if (interval === '1d') {
    const rows = await reader.dailyBars(inst, lo, hi, afterDate, limit);
    for (const r of rows) r.ts = closeEpoch(r.date);
    return adjust(rows);
  }
  const max = (limit + 3) * maxDays!;
  const start = Math.max(periodStart(lo, interval), afterDate === null ? 0 : afterDate + 1);
  // Read whole periods: the one holding `hi` may end after it (then it is not selected).
  const rows = await reader.dailyBars(inst, start, periodEnd(hi, interval), null, max);
  for (const r of rows) r.ts = closeEpoch(r.date);
  const bars = aggregatePeriods(adjust(rows), interval as PeriodInterval);
  if (rows.length === max) bars.pop();
  return bars.filter((b) => b.date >= lo && b.date <= hi).slice(0, limit);
}

/**
 * Unadjusted daily bars as the records of their packs, written by `write` (keys are dates), selected as readBars selects them.
 */
export async function readDailyPage(
  reader: MarketDataReader,
  inst: number,
  win: { fromMs: number; toMs: number },
  after: number | null,
  limit: number,
  write: BarFieldsWriter,
): Promise<PackSlices> {
  const { from: lo, to: hi, after: last } = dailyWindow(win, after);
  const out = new PackSlices(limit, write);
  await reader.dailyPage(inst, lo, hi, last, limit, out);
  return out;
}

/** The points of precomputed indicator `indicator` (derived/indicator-pages.ts) over unadjusted daily bars, selected as readDailyPage selects the bars. */
export async function readIndicatorPage(
  reader: MarketDataReader,
  inst: number,
  win: { fromMs: number; toMs: number },
  after: number | null,
  limit: number,
  indicator: string,
): Promise<PageSlices> {
  const { from: lo, to: hi, after: last } = dailyWindow(win, after);
  const out = new PageSlices(limit);
  await reader.indicatorPage(inst, indicator, lo, hi, last, limit, out);
  return out;
}

/** The trading dates of a window of instants, and the date of a cursor's instant. */
function dailyWindow(win: { fromMs: number; toMs: number }, after: number | null) {
  const { from, to } = windowSeconds(win);
  return { ...closeDateRange(from, to), after: after === null ? null : epochToMarketDate(after) };
}

/** Unadjusted 1m bars as the records of their packs, written by `write` (keys are ts), selected as readBars selects them. */
export async function readMinutePage(
  reader: MarketDataReader,
  inst: number,
  win: { fromMs: number; toMs: number },
  after: number | null,
  limit: number,
  write: BarFieldsWriter,
): Promise<PackSlices> {
  const { from, to } = windowSeconds(win);
  const out = new PackSlices(limit, write);
  await reader.minutePage(inst, from, to, after, limit, out);
  return out;
}
