import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, type Kind } from '../../route.js';
import { sendPageJson, sendPageSlices } from '../../collection.js';
import { adjustmentQuery, intervalQuery, timeWindow, timeWindowParams, type TimeWindow } from '../../params.js';
import { Collection } from '../../schemas/common.js';
import { Bar } from '../../schemas/market-data.js';
import { barFieldsWriter, barWriter } from '../../../render/json-bytes.js';
import { dailyTs, periodEnd, periodStart, readBars, readDailyPage, readMinutePage } from '../../../query/bars.js';
import { marketEpoch, parseDate } from '../../../lib/time.js';
import type { AdjustmentId, IntervalId } from '../../../market/types.js';
import { INTERVALS } from '../../../market/intervals.js';
import { KINDS } from '../../../market/kinds.js';
import type { Adjuster } from '../../../query/analytics.js';

export const BarCollectionResponse = Collection('BarCollectionResponse', Bar);

/** Bars and indicator points: the bar's end (epoch seconds), then the adjustment basis (ex-date, 0 for none). */
export const BAR_KEY = ['time', 'date'] as const;

export interface BarQuery { interval: IntervalId; adjustment?: AdjustmentId; from?: string; to?: string; date?: string }

/** The instant window of a bar query; `date` with a period interval means the period holding it. */
export function barWindow(q: BarQuery): TimeWindow {
  const win = timeWindow(q);
  if (q.date === undefined || INTERVALS[q.interval].kind !== 'period') return win;
  const d = parseDate(q.date)!;
  return { fromMs: marketEpoch(periodStart(d, q.interval), 0) * 1000, toMs: marketEpoch(periodEnd(d, q.interval), 1440) * 1000 - 1 };
}

/** listEquityBars and listIndexBars. */
export function registerBars(app: App, kind: Kind, path: string, operationId: string) {
  const { marketData, codec, analytics, renderer } = app.svc;
  app.get(`/api/v1/${path}/:instrument_id/bars`, {
    schema: operation({
      operationId, tags: [path], summary: 'OHLCV bars of any interval, ascending by time.',
      description: '1m and 1d bars are stored; 5m-60m are aggregated from 1m (buckets never span the lunch break), '
        + '1w/1mo/1q/1y from trading days (labelled by the period\'s last trading day). Bars are selected by their end '
        + 'timestamp. With `date`, intraday and daily intervals give that day, period intervals the period holding it. '
        + 'Adjusted prices (forward/backward ratio factors: published ones where loaded, else from corporate actions; see listAdjustmentFactors) are rounded half-up to the tick; volume is scaled inversely. '
        + 'Indices are never adjusted.',
      params: instrumentIdParam,
      query: { interval: intervalQuery, adjustment: Type.Optional(adjustmentQuery), ...timeWindowParams },
      response: BarCollectionResponse, notFound: true, collection: true,
    }),
  }, async (req, reply) => {
    const q = req.query as unknown as BarQuery;
    const inst = await pathInstrument(app.svc, req.params.instrument_id, kind);
    const adjustment = KINDS[kind].adjustable ? (q.adjustment ?? 'none') : 'none';
    const win = barWindow(q);
    if (adjustment === 'none' && q.interval === '1d') {
      // Unadjusted daily bars: their JSON is stored (bar pages); the cursor keeps the basis it
      // came with, as the adjuster below would.
      let basis = 0;
      return sendPageSlices(req, reply, codec, renderer, operationId, (p) => {
        basis = p.after ? p.after[1] : 0;
        return readDailyPage(marketData, inst.inst, win, p.after ? p.after[0] : null, p.limit);
      }, BAR_KEY, (date) => [dailyTs(date), basis]);
    }
    if (adjustment === 'none' && q.interval === '1m') {
      // Unadjusted 1m bars: written straight from their packs.
      let basis = 0;
      const write = barFieldsWriter(inst.id, inst.kind, '1m', 'none');
      return sendPageSlices(req, reply, codec, renderer, operationId, (p) => {
        basis = p.after ? p.after[1] : 0;
        return readMinutePage(marketData, inst.inst, win, p.after ? p.after[0] : null, p.limit, write);
      }, BAR_KEY, (ts) => [ts, basis]);
    }
    let adj: Adjuster;
    // The cursor carries the adjustment basis (last ex-date applied): a forward walk keeps it
    // even if corporate actions are loaded while it walks.
    return sendPageJson(req, reply, codec, renderer, operationId, async (p) => {
      adj = await analytics.adjuster(inst, adjustment, p.after ? p.after[1] : null);
      return readBars(marketData, inst.inst, q.interval, win, p.after ? p.after[0] : null, p.limit, adj.apply);
    }, BAR_KEY, (b) => [b.ts, adj.basis], barWriter(inst.id, inst.kind, q.interval, adjustment));
  });
}
