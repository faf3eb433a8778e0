import { Type } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDecimal, Timestamp } from './common.js';
import { AMOUNT, PERCENT, PRICE } from '../../datasets/units.js';

export const Bar = Type.Object(
  {
    instrument_id: Type.String(),
    interval: Type.String({ description: 'IntervalId.' }),
    adjustment: Type.String({ description: 'AdjustmentId the prices are in.' }),
    timestamp: Timestamp('End of the bar (bars are labelled by their end).'),
    trade_date: DateString('Trading day of the bar; for 1w..1y the last trading day of the period.'),
    open: Decimal('Open price (CNY).', PRICE),
    high: Decimal('High price (CNY).', PRICE),
    low: Decimal('Low price (CNY).', PRICE),
    close: Decimal('Close price (CNY).', PRICE),
    volume: Type.Integer({ description: 'Volume in shares.' }),
    amount: NullableDecimal(
      'Turnover in CNY; null when unknown: the source published none (e.g. czsc files), or a bar ' +
        'aggregated from (or a daily bar derived from) bars of which one has none. Never 0 or an estimate in its place.',
      AMOUNT,
    ),
  },
  { $id: 'Bar', additionalProperties: false },
);

export const BookLevel = Type.Object(
  {
    price: Decimal('Price (CNY).', PRICE),
    volume: Type.Integer({ description: 'Shares on offer at that price.' }),
  },
  { $id: 'BookLevel', additionalProperties: false },
);

export const Quote = Type.Object(
  {
    instrument_id: Type.String(),
    timestamp: Timestamp('Snapshot time.'),
    trade_date: DateString('Trading day.'),
    last: Decimal('Last price (CNY).', PRICE),
    open: Decimal('Day open.', PRICE),
    high: Decimal('Day high so far.', PRICE),
    low: Decimal('Day low so far.', PRICE),
    pre_close: Decimal('Previous close (ex-rights reference price).', PRICE),
    change: Decimal('last - pre_close.', PRICE),
    pct_change: Decimal('Change in percent of pre_close, 2 decimals.', PERCENT),
    volume: Type.Integer({ description: 'Cumulative day volume in shares.' }),
    amount: Decimal('Cumulative day turnover in CNY.', AMOUNT),
    bids: Type.Array(Type.Ref(BookLevel), { description: 'Up to 5 bid levels, best first (empty for indices).' }),
    asks: Type.Array(Type.Ref(BookLevel), { description: 'Up to 5 ask levels, best first (empty for indices).' }),
  },
  { $id: 'Quote', additionalProperties: false },
);

export const Trade = Type.Object(
  {
    instrument_id: Type.String(),
    timestamp: Timestamp('Execution time.'),
    trade_date: DateString('Trading day.'),
    seq: Type.Integer({ description: 'Sequence number within the instrument and day (ascending in time).' }),
    price: Decimal('Price (CNY).', PRICE),
    volume: Type.Integer({ description: 'Shares.' }),
    amount: Decimal('price x volume (CNY).', AMOUNT),
    side: Type.String({ description: 'buy (taker bought at the ask), sell (taker sold at the bid) or neutral (call auction).' }),
  },
  { $id: 'Trade', additionalProperties: false },
);

export const MARKET_DATA_RECORDS = [Bar, BookLevel, Quote, Trade];
export { NullableDecimal };

export const BarCollectionResponse = Collection('BarCollectionResponse', Bar);
export const QuoteCollectionResponse = Collection('QuoteCollectionResponse', Quote);
export const TradeCollectionResponse = Collection('TradeCollectionResponse', Trade);

/** The collection and single responses of this topic's operations, for registry.ts. */
export const MARKET_DATA_RESPONSES = [BarCollectionResponse, QuoteCollectionResponse, TradeCollectionResponse];
