import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { dateWindow, dateWindowParams } from '../../params.js';
import { DividendCollectionResponse, EarningsForecastCollectionResponse } from '../../schemas/fundamentals.js';
import { dividendRecord, forecastRecord } from './records.js';

/** listDividends and listEarningsForecasts. */
export function registerDividends(app: App) {
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
        schemaPlan(
          reply,
          DividendCollectionResponse,
          (p) => snapOf(req).fundamentals.dividends(inst.inst, w.from, w.to, p),
          (r) => [r.sort_date, r.report_period, r.announce_date],
          dividendRecord(inst.id),
        ),
      );
    },
  );

  app.get(
    '/api/v1/equities/:instrument_id/earnings-forecasts',
    {
      schema: operation({
        operationId: 'listEarningsForecasts',
        tags: ['equities'],
        summary: 'Earnings forecasts (业绩预告), ascending by announcement date.',
        description:
          'Ranges of net profit attributable to shareholders of the parent announced before the report; the reported figure ' +
          'lies within the range. from/to select on announce_date (inclusive).',
        params: instrumentIdParam,
        query: dateWindowParams,
        response: EarningsForecastCollectionResponse,
        notFound: true,
        collection: true,
      }),
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      const w = dateWindow(req.query as { from?: string; to?: string });
      return sendPage(
        req,
        reply,
        app.svc,
        'listEarningsForecasts',
        ['date', 'date'],
        schemaPlan(
          reply,
          EarningsForecastCollectionResponse,
          (p) => snapOf(req).fundamentals.earningsForecasts(inst.inst, w.from, w.to, p),
          (r) => [r.announce_date, r.report_date],
          forecastRecord(inst.id),
        ),
      );
    },
  );
}
