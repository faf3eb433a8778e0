import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, type Kind } from '../../route.js';
import { sendPage } from '../../collection.js';
import { adjustmentQuery, intervalQuery, timeWindow, timeWindowParams } from '../../params.js';
import { Collection } from '../../schemas/common.js';
import { Bar } from '../../schemas/market-data.js';
import { barRecord } from '../../serialize.js';
import { periodEnd, periodStart, readBars } from '../../../query/bars.js';
import { marketEpoch, parseDate } from '../../../lib/time.js';
import { ApiError } from '../../../errors.js';
import type { IntervalId } from '../../../market/types.js';

export const BarCollectionResponse = Collection('BarCollectionResponse', Bar);

const PERIODS = new Set(['1w', '1mo', '1q', '1y']);

/** listEquityBars and listIndexBars. */
export function registerBars(app: App, kind: Kind, path: string, operationId: string) {
  const { marketData, codec } = app.svc;
  app.get(`/api/v1/${path}/:instrument_id/bars`, {
    schema: operation({
      operationId, tags: [path], summary: 'OHLCV bars of any interval, ascending by time.',
      description: '1m and 1d bars are stored; 5m-60m are aggregated from 1m (buckets never span the lunch break), '
        + '1w/1mo/1q/1y from trading days (labelled by the period\'s last trading day). Bars are selected by their end '
        + 'timestamp. With `date`, intraday and daily intervals give that day, period intervals the period holding it.',
      params: instrumentIdParam,
      query: { interval: intervalQuery, adjustment: Type.Optional(adjustmentQuery), ...timeWindowParams },
      response: BarCollectionResponse, notFound: true, collection: true,
    }),
  }, async (req, reply) => {
    const q = req.query as { interval: IntervalId; adjustment?: string; from?: string; to?: string; date?: string };
    const inst = await pathInstrument(app.svc, req.params.instrument_id, kind);
    const adjustment = kind === 'index' ? 'none' : (q.adjustment ?? 'none');
    if (adjustment !== 'none') {
      throw new ApiError({ code: 'invalid_parameter', parameter: 'adjustment', detail: 'adjustment forward and backward are not available yet; use none' });
    }
    let win = timeWindow(q);
    if (q.date !== undefined && PERIODS.has(q.interval)) {
      const d = parseDate(q.date)!;
      win = { fromMs: marketEpoch(periodStart(d, q.interval), 0) * 1000, toMs: marketEpoch(periodEnd(d, q.interval), 1440) * 1000 - 1 };
    }
    return sendPage(req, reply, codec, operationId,
      (p) => readBars(marketData, inst.inst, q.interval, win, p.after ? Number(p.after[0]) : null, p.limit),
      (b) => [b.ts], barRecord(inst.id, inst.kind, q.interval, adjustment));
  });
}
