import type { AdjustmentId, IntervalId } from '../market/types.js';
import { KINDS } from '../market/kinds.js';
import type { InstrumentRow } from '../store/catalog.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { Slices } from '../render/slices.js';
import { barFieldsWriter, barWriter } from '../render/bar-writers.js';
import type { WriterCache } from '../render/writer-cache.js';
import type { Analytics } from './analytics.js';
import { readBars, readDailyPage, readMinutePage } from './bars.js';
import { closeEpoch } from '../market/sessions.js';
import { rowPage, type FetchedPage, type PagePlan } from './plan.js';
import type { PageRequest } from '../store/readers/page.js';

/**
 * The cursor key of bars and indicator points: the bar's end instant (epoch seconds), then the
 * adjustment basis (the date of the last factor applied, 0 for none). The basis pins a forward
 * walk: it keeps it even if corporate actions are loaded while it walks.
 */
export type BarKey = [ts: number, basis: number];

/**
 * The four ways a page of bars is read:
 * - `daily-packs`: unadjusted 1d, written straight from the packs;
 * - `minute-packs`: unadjusted 1m, written straight from the day's pack (store/packs.ts);
 * - `adjusted-rows`: adjusted 1d or 1m, stored rows adjusted (market/adjust.ts) and written;
 * - `aggregated-rows`: 5m..60m from 1m rows, 1w..1y from 1d rows (market/aggregate.ts),
 *   adjusted first when asked, and written.
 */
export type BarPath = 'daily-packs' | 'minute-packs' | 'adjusted-rows' | 'aggregated-rows';

/** A page of bars as planned: the path taken and the adjustment that applies. */
export interface BarPlan extends PagePlan<BarKey> {
  readonly path: BarPath;
  readonly adjustment: AdjustmentId;
}

/** What a bar query asks for, parsed: the instrument, interval, adjustment (none if absent) and window. */
export interface BarAsk {
  inst: InstrumentRow;
  interval: IntervalId;
  adjustment?: AdjustmentId;
  window: { fromMs: number; toMs: number };
}

/** What planning bars reads from. */
export interface BarSources {
  marketData: MarketDataReader;
  analytics: Analytics;
  /** Where the record writers made for instruments are kept (QueryCaches). */
  writers: WriterCache;
}

/** The adjustment that applies: as asked, none if not asked; indices are never adjusted. */
export const adjustmentOf = (ask: BarAsk): AdjustmentId => (KINDS[ask.inst.kind].adjustable ? (ask.adjustment ?? 'none') : 'none');

/**
 * Stored records (page text, packs) as a page of bars or indicator points, whose stored keys
 * give their end instant by `ts`; the basis (none applied: the cursor's, or 0) goes on unchanged.
 */
export function storedPage(records: Slices, after: BarKey | null, ts: (key: number) => number): FetchedPage<BarKey> {
  const basis = after === null ? 0 : after[1];
  return { records, key: (i) => [ts(records.keys[i]), basis] };
}

/** The end instant of the cursor's bar: what a page reads after (null on the first page). */
export const afterTs = (p: PageRequest<BarKey>): number | null => (p.after ? p.after[0] : null);

/** A 1m record's stored key is its end instant already. */
const asStored = (ts: number) => ts;

/** Plans a page of bars of any interval and adjustment (CONTRACT.md §6): which path reads it, and how. */
export function planBars(src: BarSources, ask: BarAsk): BarPlan {
  const { inst, interval, window } = ask;
  const adjustment = adjustmentOf(ask);
  const { marketData, analytics, writers } = src;
  if (adjustment === 'none' && interval === '1d') {
    const write1d = barFieldsWriter(writers, inst.id, inst.kind, '1d', 'none');
    return {
      path: 'daily-packs',
      adjustment,
      fetch: async (p) => storedPage(await readDailyPage(marketData, inst.inst, window, afterTs(p), p.limit, write1d), p.after, closeEpoch),
    };
  }
  if (adjustment === 'none' && interval === '1m') {
    const write = barFieldsWriter(writers, inst.id, inst.kind, '1m', 'none');
    return {
      path: 'minute-packs',
      adjustment,
      fetch: async (p) => storedPage(await readMinutePage(marketData, inst.inst, window, afterTs(p), p.limit, write), p.after, asStored),
    };
  }
  const write = barWriter(writers, inst.id, inst.kind, interval, adjustment);
  return {
    path: interval === '1d' || interval === '1m' ? 'adjusted-rows' : 'aggregated-rows',
    adjustment,
    fetch: async (p) => {
      const adj = await analytics.adjuster(inst, adjustment, p.after ? p.after[1] : null);
      const bars = await readBars(marketData, inst.inst, interval, window, afterTs(p), p.limit, adj.apply);
      return rowPage(bars, (b): BarKey => [b.ts, adj.basis], write);
    },
  };
}
