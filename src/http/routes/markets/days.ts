import { MarketBarCollectionResponse, MarketBreadthCollectionResponse } from '../../schemas/market-days.js';
import { dayScope, daysScope } from '../../scopes.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { operation, snapOf } from '../../route.js';
import { schemaPlan, sendFile, sendPage } from '../../collection.js';
import { boardQuery, dateQuery, enumOf, dayOrWindow, dayWindowParams } from '../../params.js';

import { formatDate, formatTimestamp, parseDate } from '../../../lib/time.js';
import { formatScaled, MONEY_SCALE, PRICE_SCALE } from '../../../lib/decimal.js';
import { dayChange, pctChange } from '../../../query/derived-fields.js';
import type { Snapshot } from '../../../query/snapshot.js';
import { ApiError, invalid, notFound } from '../../../lib/errors.js';
import { closeEpoch } from '../../../market/sessions.js';
import { INSTRUMENT_KINDS, KINDS, type InstrumentKind } from '../../../market/kinds.js';
import type { MarketBar as Bar, MarketBarFilter } from '../../../query/market-days.js';
import type { MarketBreadthTable } from '../../../store/schema.js';
import { fileFormat } from '../../file-format.js';
import { indexMembers, indexQuery } from '../../index-filter.js';

const marketParam = { market: Type.String({ description: 'MarketId: SH, SZ or BJ.' }) };
const MARKETS = new Set(['SH', 'SZ', 'BJ']);
const known = (market: string) => {
  if (!MARKETS.has(market)) throw notFound(`No market ${market}; markets are SH, SZ and BJ`);
};

const price = (b: Bar, v: number) => formatScaled(v, PRICE_SCALE, KINDS[b.row.kind].digits);
const nullablePrice = (b: Bar, v: number | null) => (v === null ? null : price(b, v));

function record(b: Bar) {
  return {
    instrument_id: b.row.id,
    kind: b.row.kind,
    board: b.row.board,
    timestamp: formatTimestamp(closeEpoch(b.date)),
    trade_date: formatDate(b.date),
    open: price(b, b.open),
    high: price(b, b.high),
    low: price(b, b.low),
    close: price(b, b.close),
    pre_close: nullablePrice(b, b.preClose),
    change: nullablePrice(b, dayChange(b.close, b.preClose)),
    pct_change: pctChange(b.close, b.preClose),
    volume: b.volume,
    amount: b.amount === null ? null : formatScaled(b.amount, MONEY_SCALE, 2),
    limit_up: nullablePrice(b, b.up),
    limit_down: nullablePrice(b, b.down),
  };
}

function breadthRecord(r: MarketBreadthTable) {
  return {
    market: r.market,
    trade_date: formatDate(r.date),
    listed: r.listed,
    advancers: r.advancers,
    decliners: r.decliners,
    unchanged: r.unchanged,
    limit_up: r.limit_up,
    limit_down: r.limit_down,
    suspended: r.suspended,
    volume: r.volume,
    amount: formatScaled(r.amount, MONEY_SCALE, 2),
    unknown_amounts: r.unknown_amounts,
  };
}

/** listMarketBars and listMarketBreadth: questions across a market (derived/market-days.ts). */
export default async function marketDayRoutes(app: App) {
  /** `date` (its text `text`), refused (400) when it is not a trading day of the market. */
  const tradingDay = async (snap: Snapshot, market: string, date: number, text: string): Promise<number> => {
    if (!(await snap.calendars.of(market)).isTradingDay(date))
      throw new ApiError(invalid('date', `${text} is not a trading day of ${market}`));
    return date;
  };
  /** The `date` asked for (a trading day of the market), else the latest stored day. */
  const dayOf = async (snap: Snapshot, market: string, q: { date?: string }): Promise<number> => {
    if (q.date === undefined) {
      const latest = await snap.equityDays.latestDate();
      if (latest === null) throw new ApiError(invalid('date', 'the store holds no daily bars yet; give a date'));
      return latest;
    }
    return tradingDay(snap, market, parseDate(q.date)!, q.date);
  };

  app.get(
    '/api/v1/markets/:market/bars',
    {
      schema: operation({
        operationId: 'listMarketBars',
        tags: ['markets'],
        summary: "Every instrument's daily bar of one trading day (a cross-section), ordered by instrument id.",
        description:
          'Equities, indices and funds of the market that traded that day (suspended equities have no bar: see listMarketBreadth), ' +
          "unadjusted, with the day's reference price and, for equities, price limits. With `Accept: text/csv` or `Accept: application/x-ndjson` " +
          'the whole day (every page) comes as one file in the bars_1d ingest format (docs/ingest.md), which `mds ingest bars_1d` loads back; ' +
          'with `Accept: application/vnd.apache.arrow.stream`, as one Arrow IPC stream of these records, typed (docs/api.md, "Arrow"); ' +
          'compressed for clients that accept gzip or br, with a strong ETag; a day before the latest stored one may be cached for an hour.',
        params: marketParam,
        query: {
          date: Type.Optional(dateQuery('Trading day (default: the latest stored day).')),
          kind: Type.Optional(enumOf(INSTRUMENT_KINDS, 'Instrument kind: equity, index or fund.')),
          board: Type.Optional(boardQuery),
          index: indexQuery,
        },
        response: MarketBarCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: dayScope } },
    },
    async (req, reply) => {
      const market = req.params.market;
      known(market);
      const q = req.query as { date?: string; kind?: InstrumentKind; board?: string; index?: string };
      const index = indexMembers(snapOf(req), q.index);
      const date = await dayOf(snapOf(req), market, q);
      const f: MarketBarFilter = { kind: q.kind, board: q.board, ...(index ? { members: await index.on(date) } : {}) };
      const format = fileFormat(req.headers.accept);
      // The whole day (every page) as one file: CSV or NDJSON in the bars_1d format, or Arrow of the records' fields.
      if (format)
        return sendFile(
          req,
          reply,
          'listMarketBars',
          format,
          (await snapOf(req).marketDays.bars(market, date, f, null, Infinity)).map(record),
        );
      return sendPage(
        req,
        reply,
        app.svc,
        'listMarketBars',
        ['str'],
        schemaPlan(
          reply,
          MarketBarCollectionResponse,
          (p) => snapOf(req).marketDays.bars(market, date, f, p.after ? p.after[0] : null, p.limit),
          (b) => [b.row.id],
          record,
        ),
      );
    },
  );

  app.get(
    '/api/v1/markets/:market/breadth',
    {
      schema: operation({
        operationId: 'listMarketBreadth',
        tags: ['markets'],
        summary: 'Market breadth per trading day, ascending.',
        description:
          "Of the market's equities (with `index`, of the index's members that day) each trading day: how many were listed, advanced, declined or were unchanged against their " +
          'reference price, closed at the up or down limit, were suspended; their total volume and turnover. Days with stored bars only; ' +
          'a `date` that is not a trading day of the market is 400.',
        params: marketParam,
        query: { ...dayWindowParams, index: indexQuery },
        response: MarketBreadthCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: daysScope } },
    },
    async (req, reply) => {
      const market = req.params.market;
      known(market);
      const q = req.query as { from?: string; to?: string; date?: string; index?: string };
      const index = indexMembers(snapOf(req), q.index);
      const members = index ? (d: number) => index.on(d) : undefined;
      const w = dayOrWindow(q);
      // One day asked for must be a trading day (as listMarketBars); a window may hold others.
      if (w.day) await tradingDay(snapOf(req), market, w.from, q.date!);
      return sendPage(
        req,
        reply,
        app.svc,
        'listMarketBreadth',
        ['date'],
        schemaPlan(
          reply,
          MarketBreadthCollectionResponse,
          (p) => snapOf(req).marketDays.breadth(market, w.from, w.to, p.after ? p.after[0] : null, p.limit, members),
          (r) => [r.date],
          breadthRecord,
        ),
      );
    },
  );
}
