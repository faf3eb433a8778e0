import { Type } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDecimal, Timestamp } from './common.js';
import { AMOUNT, PERCENT, PRICE } from '../../datasets/units.js';

/** Adjustment factors: up to 16 decimals (the adj_factors dataset's). */
const FACTOR_SCALE = 16;
const NullableTime = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const TechnicalIndicatorPoint = Type.Object(
  {
    instrument_id: Type.String(),
    indicator: Type.String({ description: 'IndicatorId.' }),
    interval: Type.String({ description: 'IntervalId of the bars it is computed on.' }),
    adjustment: Type.String({ description: 'AdjustmentId of the prices it is computed on.' }),
    timestamp: Timestamp('End of the bar the point belongs to.'),
    trade_date: DateString("Trading day of that bar (as the bar's trade_date): for 1w..1y the last trading day of the period."),
    values: Type.Record(Type.String(), Type.String(), {
      description: 'Indicator values at 4 decimals, keyed as documented per indicator; a key without enough history is absent.',
    }),
  },
  { $id: 'TechnicalIndicatorPoint', additionalProperties: false },
);

export const PriceLimit = Type.Object(
  {
    instrument_id: Type.String(),
    trade_date: DateString('Trading day.'),
    pre_close: NullableDecimal('Previous close, ex-rights adjusted on ex-dates (the base of the limits); null on a listing day.', PRICE),
    limit_up: NullableDecimal('Up limit (CNY); null on days without limits.', PRICE),
    limit_down: NullableDecimal('Down limit (CNY); null on days without limits.', PRICE),
    limit_pct: NullableDecimal('Ratio applied, in percent (e.g. "10"); null on days without limits.', PERCENT),
    reason: Type.String({
      description:
        'Why that ratio: main_board, chinext, star, bse, st_main_board, st_chinext, st_star, st_bse, share_reform_pending, ' +
        'new_listing_no_limit, ipo_first_day_band, early_market_limits, no_limit_period.',
    }),
    is_st: Type.Boolean({ description: 'Under special treatment on that day.' }),
    listing_day: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Trading days since listing, 1 on the listing day; null when the listing date is unknown (listed before the first stored bar: limits apply from the day after it, with no new-listing days).',
    }),
    suspended: Type.Boolean({ description: 'No trading that day.' }),
    reference_in_doubt: Type.Boolean({
      description:
        "The day closed beyond limit_up or limit_down without the close being the day's high (up) or low (down): trades went past a " +
        "limit no trade can pass, so the exchange's reference price was not pre_close (an ex-date whose corporate action is not loaded) " +
        'or the day had no limit (a share-reform resumption, a return from a long suspension). Such a day is in no limit pool.',
    }),
  },
  { $id: 'PriceLimit', additionalProperties: false },
);

export const PoolConstituent = Type.Object(
  {
    instrument_id: Type.String(),
    name: Type.String(),
    pool_type: Type.String({ description: 'PoolTypeId.' }),
    trade_date: DateString('The pool date.'),
    close: Decimal('Close (CNY).', PRICE),
    pre_close: NullableDecimal('Ex-rights previous close.', PRICE),
    pct_change: NullableDecimal('Change vs pre_close in percent, 2 decimals.', PERCENT),
    volume: Type.Integer({ description: 'Shares traded.' }),
    amount: NullableDecimal("Turnover (CNY); null when the daily bar's amount is unknown (Bar.amount).", AMOUNT),
    turnover_rate: NullableDecimal('volume / float shares, percent, 2 decimals.', PERCENT),
    limit_up: NullableDecimal('Up limit of the day.', PRICE),
    limit_down: NullableDecimal('Down limit of the day.', PRICE),
    consecutive_limit_ups: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Consecutive limit-up closes ending on the pool date (limit_up) or on the previous trading day (previous_limit_up); null otherwise.',
    }),
    first_limit_time: NullableTime('First minute the price reached the up limit (limit_up, broken_limit_up; from 1m bars where stored).'),
    last_limit_time: NullableTime('Start of the final seal at the up limit (limit_up; from 1m bars where stored).'),
    broken_count: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Times the price left the up limit after reaching it (from 1m bars where stored).',
    }),
    sealed_amount: NullableDecimal(
      'Bid volume queued at the up limit at the close x limit price (CNY), from the closing quote where stored.',
      AMOUNT,
    ),
    strong_reason: Type.Union([Type.String(), Type.Null()], { description: 'strong pool: new_high or repeated_limit_up.' }),
  },
  { $id: 'PoolConstituent', additionalProperties: false },
);

export const AdjustmentFactor = Type.Object(
  {
    instrument_id: Type.String(),
    trade_date: DateString("First trading day the factor applies to; it applies until the next row's trade_date."),
    backward_factor: Decimal(
      'Backward (后复权) ratio factor: backward price = raw price x backward_factor, rounded half-up to the tick. ' +
        'Up to 16 decimals (half-up at the 16th); published factors exactly as loaded.',
      FACTOR_SCALE,
    ),
    forward_factor: Decimal(
      'Forward (前复权) ratio factor: backward_factor / the latest backward_factor (1 on the latest row); ' +
        'forward price = raw price x forward_factor. Up to 16 decimals, half-up at the 16th.',
      FACTOR_SCALE,
    ),
    source: Type.Union([Type.Literal('corporate_actions'), Type.Literal('vendor')], {
      description: 'The basis: `vendor` when published factors (dataset adj_factors) are loaded for the equity, else `corporate_actions`.',
    }),
  },
  { $id: 'AdjustmentFactor', additionalProperties: false },
);

/** A stock pool type (listPoolTypes). */
export const PoolType = Type.Object(
  {
    id: Type.String({ description: 'PoolTypeId.' }),
    name: Type.String({ description: 'Name (Chinese, as on Eastmoney).' }),
    description: Type.String({ description: 'Membership rule.' }),
  },
  { $id: 'PoolType', additionalProperties: false },
);

export const TechnicalIndicatorCollectionResponse = Collection('TechnicalIndicatorCollectionResponse', TechnicalIndicatorPoint);
export const PriceLimitCollectionResponse = Collection('PriceLimitCollectionResponse', PriceLimit);
export const PoolConstituentCollectionResponse = Collection('PoolConstituentCollectionResponse', PoolConstituent);
export const AdjustmentFactorCollectionResponse = Collection('AdjustmentFactorCollectionResponse', AdjustmentFactor);

export const ANALYTICS_SCHEMAS = [
  TechnicalIndicatorPoint,
  PriceLimit,
  PoolConstituent,
  AdjustmentFactor,
  AdjustmentFactorCollectionResponse,
  TechnicalIndicatorCollectionResponse,
  PriceLimitCollectionResponse,
  PoolConstituentCollectionResponse,
];

export const PoolTypeCollectionResponse = Collection('PoolTypeCollectionResponse', PoolType);

/** The collection and single responses of this topic's operations, for registry.ts. */
export const POOL_TYPE_RESPONSES = [PoolTypeCollectionResponse];
