import { MarketCollectionResponse, MarketResponse, TradingDayCollectionResponse } from '../../schemas/reference.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { operation, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { dateWindowParams, dateWindow } from '../../params.js';

import { formatDate } from '../../../lib/time.js';
import { notFound } from '../../../lib/errors.js';
import marketDayRoutes from './days.js';
import { datasetsScope } from '../../scopes.js';

const marketParam = { market: Type.String({ description: 'MarketId: SH, SZ or BJ.' }) };
const marketRecord = (m: {
  id: string;
  name: string;
  name_local: string;
  mic: string;
  timezone: string;
  currency: string;
  opened: number;
}) => ({ ...m, opened: formatDate(m.opened) });

export default async function marketRoutes(app: App) {
  await marketDayRoutes(app);

  app.get(
    '/api/v1/markets',
    {
      schema: operation({
        operationId: 'listMarkets',
        tags: ['markets'],
        summary: 'List markets (exchanges).',
        response: MarketCollectionResponse,
        collection: true,
      }),
      config: { behaviour: { scope: datasetsScope(['markets']) } },
    },
    (req, reply) =>
      sendPage(
        req,
        reply,
        app.svc,
        'listMarkets',
        ['str'],
        schemaPlan(
          reply,
          MarketCollectionResponse,
          (p) => snapOf(req).reference.markets(p),
          (m) => [m.id],
          marketRecord,
        ),
      ),
  );

  app.get(
    '/api/v1/markets/:market',
    {
      schema: operation({
        operationId: 'getMarket',
        tags: ['markets'],
        summary: 'One market.',
        params: marketParam,
        response: MarketResponse,
        notFound: true,
      }),
      config: { behaviour: { scope: datasetsScope(['markets']) } },
    },
    async (req) => {
      const m = await snapOf(req).reference.market(req.params.market);
      if (!m) throw notFound(`No market ${req.params.market}; markets are SH, SZ and BJ`);
      return { data: marketRecord(m) };
    },
  );

  app.get(
    '/api/v1/markets/:market/trading-days',
    {
      schema: operation({
        operationId: 'listTradingDays',
        tags: ['markets'],
        summary: 'Trading days of a market, ascending.',
        description:
          "The exchange calendar: every day with trading sessions, from the exchange's first day (SH and SZ 1990-12-19, BJ 2021-11-15) " +
          'to the last published day, whether or not any data is stored. The calendar ships with the service; trading days an operator loads extend or correct it (docs/calendar.md).',
        params: marketParam,
        query: dateWindowParams,
        response: TradingDayCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: datasetsScope(['markets', 'trading_days']) } },
    },
    async (req, reply) => {
      const market = req.params.market;
      if (!(await snapOf(req).reference.market(market))) throw notFound(`No market ${market}; markets are SH, SZ and BJ`);
      const w = dateWindow(req.query);
      const cal = await snapOf(req).calendars.of(market);
      return sendPage(
        req,
        reply,
        app.svc,
        'listTradingDays',
        ['date'],
        schemaPlan(
          reply,
          TradingDayCollectionResponse,
          async (p) => {
            const from = p.after ? Math.max(w.from, p.after[0] + 1) : w.from;
            return cal.between(from, w.to).slice(0, p.limit);
          },
          (d) => [d],
          (d: number) => ({ market, date: formatDate(d) }),
        ),
      );
    },
  );
}
