import type { IndicatorId } from '../indicators/registry.js';
import type { AdjustmentId, Bar } from '../market/types.js';
import type { CatalogSnapshot } from '../store/catalog.js';
import { indicatorWriter } from '../render/indicator-writers.js';
import { windowSeconds } from '../lib/time.js';
import { readIndicatorPage } from './bars.js';
import { closeEpoch } from '../market/sessions.js';
import { adjustmentOf, afterTs, storedPage, type BarAsk, type BarKey, type BarSources } from './plan-bars.js';
import { rowPage, type PagePlan } from './plan.js';

/**
 * The two ways a page of indicator points is read:
 * - `precomputed-pages`: unadjusted 1d of an indicator the store precomputes, the points' JSON
 *   as stored (derived/indicator-pages.ts); computed as below where none is stored for the
 *   window (it holds no bar, or the indicator is no longer precomputed and the catalog has not
 *   seen it yet);
 * - `computed-points`: any other, computed over the whole history (Analytics.indicatorPage).
 */
export type IndicatorPath = 'precomputed-pages' | 'computed-points';

/** A page of indicator points as planned: the path taken and the adjustment that applies. */
export interface IndicatorPlan extends PagePlan<BarKey> {
  readonly path: IndicatorPath;
  readonly adjustment: AdjustmentId;
}

/** Plans a page of one indicator's points, one per bar of the query (Analytics, CONTRACT.md §6). */
export async function planIndicator(
  src: BarSources & { catalog: CatalogSnapshot },
  ask: BarAsk & { indicator: IndicatorId },
): Promise<IndicatorPlan> {
  const { inst, interval, window, indicator } = ask;
  const adjustment = adjustmentOf(ask);
  const { analytics, marketData } = src;
  const { from, to } = windowSeconds(window);
  const write = indicatorWriter(src.writers, inst.id, indicator, interval, adjustment);
  const computed: PagePlan<BarKey>['fetch'] = async (p) => {
    const adj = await analytics.adjuster(inst, adjustment, p.after ? p.after[1] : null);
    const lo = p.after ? Math.max(from, p.after[0] + 1) : from;
    const { bars, values, start } = await analytics.indicatorPage(inst, interval, adj, indicator, lo, to, p.limit);
    const points: { bar: Bar; i: number }[] = [];
    for (let i = start; i < bars.length && bars[i].ts <= to && points.length < p.limit; i++) points.push({ bar: bars[i], i });
    return rowPage(
      points,
      (x): BarKey => [x.bar.ts, adj.basis],
      (w, x) => write(w, x.bar, values[x.i]),
    );
  };
  if (interval === '1d' && adjustment === 'none' && src.catalog.precomputed.has(indicator)) {
    return {
      path: 'precomputed-pages',
      adjustment,
      fetch: async (p) => {
        const pages = await readIndicatorPage(marketData, inst.inst, window, afterTs(p), p.limit, indicator);
        return pages.keys.length > 0 ? storedPage(pages, p.after, closeEpoch) : computed(p);
      },
    };
  }
  return { path: 'computed-points', adjustment, fetch: computed };
}
