import type { App } from '../../services.js';
import { limitsScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { rowPlan, sendPage } from '../../collection.js';
import { recordWriter } from '../../../render/record-writer.js';
import { dayOrWindow, dayWindowParams } from '../../params.js';

import { PriceLimitCollectionResponse } from '../../schemas/analytics.js';
import { PRICE_SCALE } from '../../../lib/decimal.js';
import { KINDS } from '../../../market/kinds.js';

import type { DayLimit } from '../../../market/day-limits.js';
import { referenceInDoubt } from '../../../market/pools.js';
import { suspended } from '../../../query/derived-fields.js';

/** The writer of PriceLimit records (render/json-bytes.ts) in the context of the equity's id, in the schema's order. */
const px = (key: string, get: (d: DayLimit) => number | null) => ({ key, scaled: get, scale: PRICE_SCALE, digits: KINDS.equity.digits });
const writeLimit = recordWriter<DayLimit, string>([
  { key: 'instrument_id', string: (_d, id) => id },
  { key: 'trade_date', date: (d) => d.date },
  px('pre_close', (d) => d.preClose),
  px('limit_up', (d) => d.up),
  px('limit_down', (d) => d.down),
  { key: 'limit_pct', string: (d) => (d.ratioPct === null ? null : String(d.ratioPct)) },
  { key: 'reason', string: (d) => d.reason },
  { key: 'is_st', boolean: (d) => d.st },
  { key: 'listing_day', integer: (d) => d.listingDay },
  { key: 'suspended', boolean: (d) => suspended(d.bar) },
  { key: 'reference_in_doubt', boolean: (d) => referenceInDoubt(d) },
]);

/** listPriceLimits: the limits of every trading day of an equity (CONTRACT.md §6). */
export default async function priceLimitRoutes(app: App) {
  app.get(
    '/api/v1/equities/:instrument_id/price-limits',
    {
      schema: operation({
        operationId: 'listPriceLimits',
        tags: ['equities'],
        summary: 'Daily price limits, ascending by date.',
        description:
          'One row per trading day from listing (or from the first day whose previous close is stored) to its last stored bar, suspended days ' +
          'included, or to the latest stored day of its market while a loaded suspension (listSuspensions) is open. ' +
          'limit = pre_close x (1 +- r) rounded to 0.01, half-up on SH and SZ, toward pre_close on the BSE (at least one tick); ' +
          "r by board, ST status, the share reform's S mark and listing age, with the rules' effective dates (docs/price-limits.md).",
        params: instrumentIdParam,
        query: dayWindowParams,
        response: PriceLimitCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: limitsScope } },
    },
    async (req, reply) => {
      const q = req.query as { from?: string; to?: string; date?: string };
      const w = dayOrWindow(q);
      const inst = await pathInstrument(req, 'equity');
      return sendPage(
        req,
        reply,
        app.svc,
        'listPriceLimits',
        ['date'],
        rowPlan(
          (p) => snapOf(req).equityDays.limits(inst, w.from, w.to, p.after ? p.after[0] : null, p.limit),
          (d) => [d.date],
          (w, d) => writeLimit(w, d, inst.id),
        ),
      );
    },
  );
}
