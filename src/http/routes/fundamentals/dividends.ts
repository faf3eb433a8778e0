import type { App } from '../../services.js';
import { instrumentScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { sendPage } from '../../collection.js';
import { dateWindow, dateWindowParams } from '../../params.js';
import { DividendCollectionResponse } from '../../schemas/fundamentals.js';
import { declaredPlan } from './declared.js';
import { dividends } from '../../../datasets/fundamentals.js';

/** listDividends. */
export function registerDividends(app: App) {
  const plan = declaredPlan(dividends, DividendCollectionResponse);
  app.get(
    '/api/v1/equities/:instrument_id/dividends',
    {
      schema: operation({
        operationId: 'listDividends',
        tags: ['equities'],
        summary: 'Dividends and bonus/transfer shares, ascending by ex-date.',
        description:
          'Implemented distributions are exactly the corporate actions that adjust prices (a rights issue alone is not a dividend). ' +
          'Plans not yet implemented (proposed, approved) have no ex-date: they sort last and are selected only when `to` is absent. ' +
          'from/to select on ex_date (inclusive).',
        params: instrumentIdParam,
        query: dateWindowParams,
        response: DividendCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['dividends']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      const w = dateWindow(req.query as { from?: string; to?: string });
      return sendPage(
        req,
        reply,
        app.svc,
        'listDividends',
        ['date', 'date', 'date'],
        plan(
          reply,
          inst.id,
          (p) => snapOf(req).fundamentals.dividends(inst.inst, w.from, w.to, p),
          (r) => [r.sort_date, r.report_period, r.announce_date],
        ),
      );
    },
  );
}
