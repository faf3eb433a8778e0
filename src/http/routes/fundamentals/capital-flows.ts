import type { App } from '../../services.js';
import { instrumentScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { timeWindow, timeWindowParams, type TimeWindow } from '../../params.js';
import { CapitalFlowCollectionResponse } from '../../schemas/company.js';
import { windowSeconds } from '../../../lib/time.js';
import { closeDateRange } from '../../../market/sessions.js';
import { capitalFlowRecord } from './records.js';
import { capitalFlows } from '../../../datasets/fundamentals.js';
import { compiled } from '../../../datasets/registry.js';

const FLOWS = compiled(capitalFlows);

/** Trading dates whose 15:00 close instant lies in the window (a record's timestamp is its close). */
export function closeDates(w: TimeWindow): { from: number; to: number } {
  const { from, to } = windowSeconds(w);
  return closeDateRange(from, to);
}

/** listCapitalFlows. */
export function registerCapitalFlows(app: App) {
  app.get(
    '/api/v1/equities/:instrument_id/capital-flows',
    {
      schema: operation({
        operationId: 'listCapitalFlows',
        tags: ['equities'],
        summary: 'Daily money flow by order size, ascending by day.',
        description:
          'One record per trading day with a daily bar. Orders are classed by size (Eastmoney): extra large ≥ 500,000 shares ' +
          'or ≥ 1,000,000 CNY; large 200,000–500,000 shares or 300,000–1,000,000 CNY; medium 40,000–200,000 shares or ' +
          '50,000–300,000 CNY; small below. Each side of every trade counts for the class of its own order, so over the four ' +
          "classes buys and sells each sum to the day's amount. Records are stamped with the day's 15:00 close, which " +
          'from/to/date select on (as for quotes).',
        params: instrumentIdParam,
        query: timeWindowParams,
        response: CapitalFlowCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['capital_flows']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      const d = closeDates(timeWindow(req.query as object));
      return sendPage(
        req,
        reply,
        app.svc,
        'listCapitalFlows',
        ['date'],
        schemaPlan(
          reply,
          CapitalFlowCollectionResponse,
          (p) => snapOf(req).keyset.rows(FLOWS, inst.inst, { column: 'date', ...d }, p),
          (r) => [r.date],
          capitalFlowRecord(inst.id),
        ),
      );
    },
  );
}
