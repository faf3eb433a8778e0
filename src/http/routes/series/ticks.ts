import { QuoteCollectionResponse, TradeCollectionResponse } from '../../schemas/market-data.js';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import type { InstrumentKind } from '../../../market/kinds.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { instrumentScope } from '../../scopes.js';
import { timeWindow, timeWindowParams } from '../../params.js';

import { quoteRecord, tradeRecord } from '../../serialize.js';
import { epochToMarketDate, windowSeconds } from '../../../lib/time.js';

/** listEquityQuotes, listIndexQuotes, listFundQuotes. */
export function registerQuotes(app: App, kind: InstrumentKind, path: string, operationId: string) {
  app.get(
    `/api/v1/${path}/:instrument_id/quotes`,
    {
      schema: operation({
        operationId,
        tags: [path],
        summary: 'Level-1 quote snapshots with 5 bid and ask levels, ascending by time.',
        params: instrumentIdParam,
        query: timeWindowParams,
        response: QuoteCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['quotes']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, kind);
      const w = windowSeconds(timeWindow(req.query as object));
      return sendPage(
        req,
        reply,
        app.svc,
        operationId,
        ['time'],
        schemaPlan(
          reply,
          QuoteCollectionResponse,
          (p) => snapOf(req).marketData.quotes(inst.inst, w.from, w.to, p.after ? p.after[0] : null, p.limit),
          (q) => [q.ts],
          quoteRecord(inst.id, inst.kind),
        ),
      );
    },
  );
}

/** listEquityTrades. */
export function registerTrades(app: App, kind: InstrumentKind, path: string, operationId: string) {
  app.get(
    `/api/v1/${path}/:instrument_id/trades`,
    {
      schema: operation({
        operationId,
        tags: [path],
        summary: 'Tick-by-tick trades, ascending by time then sequence.',
        params: instrumentIdParam,
        query: timeWindowParams,
        response: TradeCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['trades']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, kind);
      const w = windowSeconds(timeWindow(req.query as object));
      const win = { ...w, fromDate: epochToMarketDate(w.from), toDate: epochToMarketDate(w.to) };
      return sendPage(
        req,
        reply,
        app.svc,
        operationId,
        ['date', 'int'],
        schemaPlan(
          reply,
          TradeCollectionResponse,
          (p) => snapOf(req).marketData.trades(inst.inst, win, p.after, p.limit),
          (t) => [t.date, t.seq],
          tradeRecord(inst.id, inst.kind),
        ),
      );
    },
  );
}
