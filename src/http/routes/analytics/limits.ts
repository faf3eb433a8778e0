import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument } from '../../route.js';
import { sendPage } from '../../collection.js';
import { dateQuery, dateWindow, dateWindowParams } from '../../params.js';
import { Type } from '@sinclair/typebox';
import { PriceLimitCollectionResponse } from '../../schemas/analytics.js';
import { formatScaled, PRICE_SCALE } from '../../../lib/decimal.js';
import { formatDate } from '../../../lib/time.js';
import { ApiError } from '../../../errors.js';
import type { DayLimit } from '../../../market/day-limits.js';

const px = (v: number | null) => (v === null ? null : formatScaled(v, PRICE_SCALE, 2));

/** listPriceLimits: the limits of every trading day of an equity (CONTRACT.md §6). */
export default async function priceLimitRoutes(app: App) {
  const { equityDays, codec } = app.svc;
  app.get('/api/v1/equities/:instrument_id/price-limits', {
    schema: operation({
      operationId: 'listPriceLimits', tags: ['equities'], summary: 'Daily price limits, ascending by date.',
      description: 'One row per trading day from listing (or from the first day whose previous close is stored) to the latest stored day, suspended days included. '
        + 'limit = pre_close x (1 +- r) rounded half-up to 0.01 (at least one tick); r by board, ST status and listing age, with the rules\' effective dates.',
      params: instrumentIdParam,
      query: { ...dateWindowParams, date: Type.Optional(dateQuery('One trading day. Not with from/to.')) },
      response: PriceLimitCollectionResponse, notFound: true, collection: true,
    }),
  }, async (req, reply) => {
    const q = req.query as { from?: string; to?: string; date?: string };
    if (q.date !== undefined && (q.from !== undefined || q.to !== undefined)) {
      throw new ApiError({ code: 'conflicting_parameters', parameter: 'date', detail: 'date selects one trading day and cannot be combined with from or to' });
    }
    const inst = await pathInstrument(app.svc, req.params.instrument_id, 'equity');
    const w = q.date !== undefined ? dateWindow({ from: q.date, to: q.date }) : dateWindow(q);
    return sendPage(req, reply, codec, 'listPriceLimits',
      (p) => equityDays.limits(inst, w.from, w.to, p.after ? Number(p.after[0]) : null, p.limit),
      (d) => [d.date], (d: DayLimit) => ({
        instrument_id: inst.id, trade_date: formatDate(d.date), pre_close: px(d.preClose),
        limit_up: px(d.up), limit_down: px(d.down), limit_pct: d.ratioPct === null ? null : String(d.ratioPct),
        reason: d.reason, is_st: d.st, listing_day: d.listingDay, suspended: d.bar === null,
      }));
  });
}
