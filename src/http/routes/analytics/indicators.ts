import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import type { InstrumentKind } from '../../../market/kinds.js';
import { sendPage } from '../../collection.js';
import { adjustmentQuery, intervalQuery, timeWindowParams } from '../../params.js';
import { TechnicalIndicatorCollectionResponse } from '../../schemas/analytics.js';
import { BAR_KEY, barScope, barWindow, pastTheData, type BarQuery } from '../series/bars.js';
import { INDICATOR_IDS, INDICATORS, type IndicatorId } from '../../../indicators/registry.js';
import { planIndicator } from '../../../query/plan-indicator.js';

const KEYS = INDICATOR_IDS.map((id) => `${id}: ${INDICATORS[id].keys.join(', ')}`).join('; ');

/** listEquityTechnicalIndicators, listIndexTechnicalIndicators and listFundTechnicalIndicators. */
export function registerIndicators(app: App, kind: InstrumentKind, path: string, operationId: string) {
  app.get(
    `/api/v1/${path}/:instrument_id/technical-indicators/:indicator`,
    {
      schema: operation({
        operationId,
        tags: [path],
        summary: 'Technical indicator points, one per bar, ascending by time.',
        description:
          `Computed over the instrument's whole history at the interval and adjustment asked for, so a point's values ` +
          `never depend on the window or page that selected it; a value without enough history is absent. Keys: ${KEYS}. ` +
          'Definitions follow Tongdaxin (see docs/analytics.md).',
        params: {
          ...instrumentIdParam,
          indicator: Type.Unsafe<IndicatorId>({ type: 'string', enum: [...INDICATOR_IDS], description: 'IndicatorId.' }),
        },
        query: { interval: intervalQuery, adjustment: Type.Optional(adjustmentQuery), ...timeWindowParams },
        response: TechnicalIndicatorCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: barScope(true) } },
    },
    async (req, reply) => {
      const q = req.query as unknown as BarQuery;
      const inst = await pathInstrument(req, kind);
      const indicator = req.params.indicator as IndicatorId;
      const [snap, window] = [snapOf(req), barWindow(q)];
      const plan = await planIndicator(snap, { inst, interval: q.interval, adjustment: q.adjustment, window, indicator });
      return sendPage(req, reply, app.svc, operationId, BAR_KEY, { ...plan, notice: () => pastTheData(snap, window) });
    },
  );
}
