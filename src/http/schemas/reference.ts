import { Type } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDate, NullableDecimal, Single } from './common.js';
import { PRICE } from '../../datasets/units.js';

export const Market = Type.Object(
  {
    id: Type.String({ description: 'MarketId: SH, SZ or BJ.' }),
    name: Type.String({ description: 'English name of the exchange.' }),
    name_local: Type.String({ description: 'Chinese name of the exchange.' }),
    mic: Type.String({ description: 'ISO 10383 market identifier code.' }),
    timezone: Type.String({ description: 'IANA time zone of the market.' }),
    currency: Type.String({ description: 'Trading currency (ISO 4217).' }),
    opened: DateString('Date the exchange opened.'),
  },
  { $id: 'Market', additionalProperties: false },
);

export const TradingDay = Type.Object(
  {
    market: Type.String({ description: 'MarketId.' }),
    date: DateString('A trading day (sessions 09:30-11:30 and 13:00-15:00 market time).'),
  },
  { $id: 'TradingDay', additionalProperties: false },
);

export const Classification = Type.Object(
  {
    id: Type.String({ description: 'Stable id, e.g. industry.banks, concept.ai, region.beijing, csrc.C.' }),
    name: Type.String({ description: 'Name as published (Chinese).' }),
    type: Type.String({ description: 'industry, concept, region (sectors) or primary_industry (CSRC category).' }),
  },
  { $id: 'Classification', additionalProperties: false },
);

export const Instrument = Type.Object(
  {
    id: Type.String({ description: 'Instrument id CODE.MARKET, e.g. 600519.SH.' }),
    code: Type.String({ description: 'Exchange code.' }),
    market: Type.String({ description: 'MarketId.' }),
    kind: Type.String({ description: 'equity, index or fund.' }),
    board: Type.Union([Type.String(), Type.Null()], { description: 'BoardId for equities (main, chinext, star, bse); null otherwise.' }),
    name: Type.String({ description: 'Short name as published by the exchange (Chinese).' }),
    name_en: Type.Union([Type.String(), Type.Null()], { description: 'English name.' }),
    currency: Type.String({ description: 'Trading currency.' }),
    tick_size: Decimal('Minimum price increment (CNY).', PRICE),
    list_date: NullableDate('Listing (or launch) date; null when unknown (see list_date_source).'),
    list_date_source: Type.Union([Type.String(), Type.Null()], {
      description:
        'Where list_date came from: exchange (loaded from an instruments or stock_basic file), first_bar (inferred from the first stored bar, ' +
        'e.g. by mds ingest --tdx), before_first_bar (unknown: it traded on the first day of the loaded data, so listed before; list_date is null ' +
        'and the instrument is taken as listed long before its first stored bar); null when nothing is known.',
    }),
    delist_date: NullableDate('Delisting date, null while listed.'),
    status: Type.String({ description: 'listed or delisted.' }),
    is_st: Type.Boolean({ description: 'Under special treatment (ST/*ST) now.' }),
    total_shares: Type.Union([Type.Integer(), Type.Null()], { description: 'Total shares outstanding (equities).' }),
    float_shares: Type.Union([Type.Integer(), Type.Null()], { description: 'Tradable (float) shares (equities).' }),
    fund_type: Type.Union([Type.String(), Type.Null()], { description: 'etf or lof (funds).' }),
    underlying: Type.Union([Type.String(), Type.Null()], { description: 'Id of the tracked index (funds).' }),
    base_date: NullableDate('Base date (indices).'),
    base_value: NullableDecimal('Base level (indices).', PRICE),
  },
  { $id: 'Instrument', additionalProperties: false },
);

export const REFERENCE_RECORDS = [Market, TradingDay, Classification, Instrument];

export const MarketCollectionResponse = Collection('MarketCollectionResponse', Market);
export const MarketResponse = Single('MarketResponse', Market);
export const TradingDayCollectionResponse = Collection('TradingDayCollectionResponse', TradingDay);
export const ClassificationCollectionResponse = Collection('ClassificationCollectionResponse', Classification);
export const InstrumentCollectionResponse = Collection('InstrumentCollectionResponse', Instrument);
export const InstrumentResponse = Single('InstrumentResponse', Instrument);

/** The collection and single responses of this topic's operations, for registry.ts. */
export const REFERENCE_RESPONSES = [
  MarketCollectionResponse,
  MarketResponse,
  TradingDayCollectionResponse,
  ClassificationCollectionResponse,
  InstrumentCollectionResponse,
  InstrumentResponse,
];
