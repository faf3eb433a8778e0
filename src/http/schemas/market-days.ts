import { Type } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDecimal, Timestamp } from './common.js';
import { AMOUNT, PERCENT, PRICE } from '../../datasets/units.js';

export const MarketBar = Type.Object(
  {
    instrument_id: Type.String(),
    kind: Type.String({ description: 'equity, index or fund.' }),
    board: Type.Union([Type.String(), Type.Null()], {
      description: 'BoardId of an equity (main, chinext, star, bse); null for indices and funds.',
    }),
    timestamp: Timestamp("End of the bar: the day's close, 15:00 market time."),
    trade_date: DateString('Trading day.'),
    open: Decimal('Open price (CNY; index points for indices).', PRICE),
    high: Decimal('High price.', PRICE),
    low: Decimal('Low price.', PRICE),
    close: Decimal('Close price.', PRICE),
    pre_close: NullableDecimal(
      "Reference price of the day: the previous close, for equities adjusted by the day's ex-rights event " +
        "(the base of the price limits); null on an instrument's first stored day.",
      PRICE,
    ),
    change: NullableDecimal('close - pre_close.', PRICE),
    pct_change: NullableDecimal('Change in percent of pre_close, 2 decimals (half away from zero).', PERCENT),
    volume: Type.Integer({ description: 'Volume in shares.' }),
    amount: NullableDecimal('Turnover in CNY; null when the source published none.', AMOUNT),
    limit_up: NullableDecimal('Up price limit of an equity that day (null: no limit, or not an equity).', PRICE),
    limit_down: NullableDecimal('Down price limit of an equity that day (null: no limit, or not an equity).', PRICE),
  },
  { $id: 'MarketBar', additionalProperties: false },
);

export const MarketBreadth = Type.Object(
  {
    market: Type.String({ description: 'MarketId.' }),
    trade_date: DateString('Trading day.'),
    listed: Type.Integer({
      description:
        'Equities listed that day with a stored history (traded or suspended), those on their first stored bar included when listed before it (the first day of a Tongdaxin folder).',
    }),
    advancers: Type.Integer({ description: 'Equities that closed above their reference price (pre_close).' }),
    decliners: Type.Integer({ description: 'Equities that closed below it.' }),
    unchanged: Type.Integer({ description: 'Equities that closed at it.' }),
    limit_up: Type.Integer({ description: 'Equities that closed at their up limit (the limit_up pool).' }),
    limit_down: Type.Integer({ description: 'Equities that closed at their down limit (the limit_down pool).' }),
    suspended: Type.Integer({ description: 'Listed equities without a bar that day.' }),
    volume: Type.Integer({ description: 'Total volume of the equities, shares.' }),
    amount: Decimal('Total turnover of the equities whose turnover is known, CNY.', AMOUNT),
    unknown_amounts: Type.Integer({ description: 'Equities that traded without a published turnover (left out of amount).' }),
  },
  { $id: 'MarketBreadth', additionalProperties: false },
);

export const MARKET_DAY_RECORDS = [MarketBar, MarketBreadth];

export const MarketBarCollectionResponse = Collection('MarketBarCollectionResponse', MarketBar);
export const MarketBreadthCollectionResponse = Collection('MarketBreadthCollectionResponse', MarketBreadth);

/** The collection and single responses of this topic's operations, for registry.ts. */
export const MARKET_DAY_RESPONSES = [MarketBarCollectionResponse, MarketBreadthCollectionResponse];
