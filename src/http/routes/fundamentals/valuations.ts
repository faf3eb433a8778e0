import type { App } from '../../services.js';
import { valuationsScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { dayOrWindow, dayWindowParams } from '../../params.js';
import { ValuationCollectionResponse } from '../../schemas/fundamentals.js';

import { formatScaled, MONEY_SCALE, PRICE_SCALE } from '../../../lib/decimal.js';
import { formatDate } from '../../../lib/time.js';
import type { ValuationDay } from '../../../query/valuations.js';

const cny = (fen: bigint | null) => (fen === null ? null : formatScaled(Number(fen), MONEY_SCALE, 2));

/** listValuations (CONTRACT.md §1: beyond the contract): daily valuation, point in time. */
export function registerValuations(app: App) {
  app.get(
    '/api/v1/equities/:instrument_id/valuations',
    {
      schema: operation({
        operationId: 'listValuations',
        tags: ['equities'],
        summary: 'Daily valuation as known at each close (Tushare’s daily_basic, point in time), ascending by date.',
        description:
          'One record per trading day with a daily bar: market values from the share counts in force that day, turnover, PE (static and TTM), ' +
          'PB, PS (TTM) and dividend yield (TTM), using only the statements announced on or before the day (a restated figure counts from its ' +
          'announcement). Formulas in docs/fundamentals.md. from/to and date select on trade_date.',
        params: instrumentIdParam,
        query: dayWindowParams,
        response: ValuationCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: {
        behaviour: { scope: valuationsScope },
      },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      const q = req.query as { from?: string; to?: string; date?: string };
      const w = dayOrWindow(q);
      return sendPage(
        req,
        reply,
        app.svc,
        'listValuations',
        ['date'],
        schemaPlan(
          reply,
          ValuationCollectionResponse,
          (p) => snapOf(req).valuations.days(inst, w.from, w.to, p.after ? p.after[0] : null, p.limit),
          (v) => [v.date],
          (v: ValuationDay) => ({
            instrument_id: inst.id,
            trade_date: formatDate(v.date),
            close: formatScaled(v.close, PRICE_SCALE, 2),
            total_shares: v.totalShares,
            float_shares: v.floatShares,
            total_market_value: cny(v.totalMarketValue),
            float_market_value: cny(v.floatMarketValue),
            turnover_rate: v.turnoverRate,
            pe: v.pe,
            pe_ttm: v.peTtm,
            pb: v.pb,
            ps_ttm: v.psTtm,
            dividend_yield_ttm: v.dividendYieldTtm,
          }),
        ),
      );
    },
  );
}
