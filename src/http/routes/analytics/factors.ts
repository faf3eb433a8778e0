import type { App } from '../../services.js';
import { instrumentScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { rowPlan, sendPage } from '../../collection.js';
import { recordWriter } from '../../../render/record-writer.js';
import { dateWindow, dateWindowParams } from '../../params.js';
import { AdjustmentFactorCollectionResponse } from '../../schemas/analytics.js';
import { formatFactor, ratio, type Factor, type FactorBasis } from '../../../market/adjust.js';

interface Row {
  f: Factor;
  latest: Factor;
  source: FactorBasis['source'];
}

const writeFactor = recordWriter<Row, string>([
  { key: 'instrument_id', string: (_r, id) => id },
  { key: 'trade_date', date: (r) => r.f.ex_date },
  { key: 'backward_factor', string: (r) => formatFactor(r.f) },
  { key: 'forward_factor', string: (r) => formatFactor(ratio(r.f, r.latest)) },
  { key: 'source', string: (r) => r.source },
]);

/** listAdjustmentFactors: the factors adjusted prices follow (docs/analytics.md, "Adjustment basis"). */
export default async function adjustmentFactorRoutes(app: App) {
  app.get(
    '/api/v1/equities/:instrument_id/adjustment-factors',
    {
      schema: operation({
        operationId: 'listAdjustmentFactors',
        tags: ['equities'],
        summary: 'Price adjustment factors (复权因子), ascending by date.',
        description:
          'The ratio factors that adjusted bars and indicators use, one row per date the factor changes. ' +
          'Basis, per equity: published factors (dataset adj_factors, e.g. Tushare adj_factor or Sina hfq factors) when any are loaded ' +
          'for it (`source` vendor): each applies from its date until the next, and the first also to the days before it; ' +
          'otherwise its corporate actions (`source` corporate_actions): each ex-date multiplies the factor by previous close / ' +
          'ex-rights reference price, and the factor is 1 before the first. No rows: prices are never adjusted. ' +
          'from/to select on trade_date (inclusive); forward_factor is relative to the latest row whatever the window.',
        params: instrumentIdParam,
        query: dateWindowParams,
        response: AdjustmentFactorCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['adj_factors', 'corporate_actions', 'bars_1d', 'bars_1m']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      const w = dateWindow(req.query as { from?: string; to?: string });
      return sendPage(
        req,
        reply,
        app.svc,
        'listAdjustmentFactors',
        ['date'],
        rowPlan(
          async (p) => {
            const { factors, source } = await snapOf(req).analytics.factors(inst);
            const after = p.after ? p.after[0] : -1,
              latest = factors[factors.length - 1];
            return factors
              .filter((f) => f.ex_date >= w.from && f.ex_date <= w.to && f.ex_date > after)
              .slice(0, p.limit)
              .map((f) => ({ f, latest, source }));
          },
          (r) => [r.f.ex_date],
          (wr, r) => writeFactor(wr, r, inst.id),
        ),
      );
    },
  );
}
