import { formatScaled, PRICE_SCALE } from '../lib/decimal.js';
import { money, money2 } from '../render/money.js';
import { formatDate, formatTimestamp } from '../lib/time.js';
import type { InstrumentRow } from '../store/catalog.js';
import type { Bar, IntervalId } from '../market/types.js';
import { KINDS, type InstrumentKind } from '../market/kinds.js';
import type { QuoteTable, TradeTable } from '../store/schema.js';
import type { Selectable } from 'kysely';

const price = (v: number, digits: number) => formatScaled(v, PRICE_SCALE, digits);
const optDate = (d: number | null) => (d === null ? null : formatDate(d));

export function instrumentRecord(r: InstrumentRow) {
  const { digits, tick } = KINDS[r.kind];
  return {
    id: r.id,
    code: r.code,
    market: r.market,
    kind: r.kind,
    board: r.board,
    name: r.name,
    name_en: r.name_en,
    currency: 'CNY',
    tick_size: price(tick, digits),
    list_date: optDate(r.list_date),
    list_date_source: r.list_date_source,
    delist_date: optDate(r.delist_date),
    status: r.delist_date === null ? 'listed' : 'delisted',
    is_st: r.is_st,
    total_shares: r.total_shares,
    float_shares: r.float_shares,
    fund_type: r.fund_type,
    underlying: r.underlying,
    base_date: optDate(r.base_date),
    base_value: r.base_value === null ? null : price(r.base_value, digits),
  };
}

/**
 * The JSON of an instrument record, made once per catalog row: rows are replaced when the
 * catalog reloads (a new data version), so a row's JSON never outlives its data. A list page is
 * then these bytes copied, where serialising 50 records made about 300 KB of garbage a request.
 * instrumentRecord's keys follow the Instrument schema's order, and its values are JSON types
 * already, so JSON.stringify writes what the route's schema serialiser would.
 */
const instrumentJsonCache = new WeakMap<InstrumentRow, Buffer>();
export function instrumentJson(r: InstrumentRow): Buffer {
  let j = instrumentJsonCache.get(r);
  if (j === undefined) {
    j = Buffer.from(JSON.stringify(instrumentRecord(r)));
    instrumentJsonCache.set(r, j);
  }
  return j;
}

/** Returns a bar serialiser for one instrument/interval/adjustment (constants hoisted). */
export function barRecord(instrumentId: string, kind: InstrumentKind, interval: IntervalId, adjustment: string) {
  const d = KINDS[kind].digits;
  return (b: Bar) => ({
    instrument_id: instrumentId,
    interval,
    adjustment,
    timestamp: formatTimestamp(b.ts),
    trade_date: formatDate(b.date),
    open: price(b.open, d),
    high: price(b.high, d),
    low: price(b.low, d),
    close: price(b.close, d),
    volume: b.volume,
    amount: b.amount === null ? null : money2(b.amountExact ?? b.amount),
  });
}

type QuoteRow = Selectable<QuoteTable>;

export function quoteRecord(instrumentId: string, kind: InstrumentKind) {
  const d = KINDS[kind].digits;
  const side = (q: any, p: 'bid' | 'ask') => {
    const out: { price: string; volume: number }[] = [];
    for (let l = 1; l <= 5; l++) {
      const pr = q[`${p}_p${l}`],
        v = q[`${p}_v${l}`];
      if (pr === null || v === null) break;
      out.push({ price: price(pr, d), volume: v });
    }
    return out;
  };
  return (q: QuoteRow) => {
    const change = q.last - q.pre_close;
    // percent with 2 decimals, half away from zero, exact: 10000*change/pre_close in 0.01% units
    const pct = q.pre_close === 0 ? 0 : Math.round((Math.abs(change) * 10000) / q.pre_close) * Math.sign(change);
    return {
      instrument_id: instrumentId,
      timestamp: formatTimestamp(q.ts),
      trade_date: formatDate(q.date),
      last: price(q.last, d),
      open: price(q.open, d),
      high: price(q.high, d),
      low: price(q.low, d),
      pre_close: price(q.pre_close, d),
      change: price(change, d),
      pct_change: formatScaled(pct, 2, 2),
      volume: q.volume,
      amount: money(q.amount),
      bids: side(q, 'bid'),
      asks: side(q, 'ask'),
    };
  };
}

export function tradeRecord(instrumentId: string, kind: InstrumentKind) {
  const d = KINDS[kind].digits;
  return (t: Selectable<TradeTable>) => ({
    instrument_id: instrumentId,
    timestamp: formatTimestamp(t.ts),
    trade_date: formatDate(t.date),
    seq: t.seq,
    price: price(t.price, d),
    volume: t.volume,
    amount: money(t.amount),
    side: t.side,
  });
}
