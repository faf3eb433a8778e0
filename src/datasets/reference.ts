/** Reference datasets: markets, trading days, classifications, instruments and their relations. */
import { BAD, date, ID_RE, instrument, oneOf, pattern, text, type ColumnType } from './columns.js';
import { all, col, orderCheck, type DatasetDef } from './dataset.js';
import { INSTRUMENT_KINDS, KINDS, type InstrumentKind } from '../market/kinds.js';
import { BOARD_IDS, MARKET_IDS } from '../market/types.js';
import { LISTING_KINDS } from '../market/limits.js';
import { SHARES, PRICE } from './units.js';

/** Where an instrument's listing date came from (store/migrations/0013_list_date_source.ts). */
export const LIST_DATE_SOURCES = ['exchange', 'first_bar', 'before_first_bar'] as const;

const MARKET = oneOf(MARKET_IDS);
const CLASSIFICATION_TYPES = ['industry', 'primary_industry', 'concept', 'region'];

export const markets: DatasetDef = {
  name: 'markets',
  table: 'markets',
  doc: 'The exchanges (MarketId SH, SZ, BJ).',
  columns: [
    col('id', MARKET, 'MarketId'),
    col('name', text(), 'English name'),
    col('name_local', text(), 'Chinese name'),
    col('mic', pattern(/^[A-Z0-9]{4}$/, 'an ISO 10383 MIC (4 letters or digits)'), 'ISO 10383 market identifier code'),
    col('timezone', text(), 'IANA time zone (Asia/Shanghai)'),
    col('currency', pattern(/^[A-Z]{3}$/, 'an ISO 4217 currency code'), 'ISO 4217 currency (CNY)'),
    col('opened', date, 'first trading day of the exchange'),
  ],
  key: ['id'],
  derived: {
    columns: [],
    doc: '',
    values: (ix) => (r, ctx) => {
      ctx.markets.add(r[ix.id] as string);
      return [];
    },
  },
};

/** 1 or 0 (also true or false): stored as the integer. */
const FLAG: ColumnType = {
  type: 'flag',
  expected: '1 or 0 (true or false)',
  json: 'number',
  parse: (s) => (s === '1' || s === 'true' ? 1 : s === '0' || s === 'false' ? 0 : BAD),
  format: (v) => String(v),
};

export const tradingDays: DatasetDef = {
  name: 'trading_days',
  table: 'trading_days',
  doc:
    'Trading days that extend or correct the calendar shipped with the service (docs/calendar.md): ' +
    'an open day (is_open 1, the default) is a trading day, a closed one (is_open 0) is not, whatever the shipped calendar says.',
  columns: [
    col('market', MARKET, 'MarketId (a known market)'),
    col('date', date, 'the day'),
    col('is_open', FLAG, '1 (default): a trading day; 0: the market is closed', { optional: true }),
  ],
  key: ['market', 'date'],
  check: (ix) => (r, ctx) =>
    ctx.markets.has(r[ix.market] as string) ? null : ['market', "expected a market in the store or in this command's markets"],
  derived: {
    columns: [],
    doc: '',
    values: (ix) => (r, ctx) => {
      ctx.addTradingDay(r[ix.market] as string, r[ix.date] as number, r[ix.is_open] !== 0);
      return [];
    },
  },
};

export const classifications: DatasetDef = {
  name: 'classifications',
  table: 'classifications',
  doc: 'Industry, CSRC primary-industry, concept and region boards (see /classifications).',
  columns: [
    col('id', pattern(/^[a-z_]+\.[A-Za-z0-9_.-]+$/, 'an id TYPE.NAME, e.g. industry.bank or csrc.J'), 'classification id'),
    col('name', text(), 'published (Chinese) name'),
    col('type', oneOf(CLASSIFICATION_TYPES), 'classification type'),
  ],
  key: ['id'],
  derived: {
    columns: [],
    doc: '',
    values: (ix) => (r, ctx) => {
      ctx.classifications.add(r[ix.id] as string);
      return [];
    },
  },
};

export const instruments: DatasetDef = {
  name: 'instruments',
  table: 'instruments',
  doc:
    'Equities, indices and funds in one file, told apart by `kind`. A new id gets a new internal key; ' +
    'an existing id is updated in place (its bars and other rows stay attached).',
  columns: [
    col('instrument_id', pattern(ID_RE, 'an instrument id CODE.MARKET with a 6-digit code, e.g. 600519.SH'), 'CODE.MARKET', {
      column: 'id',
    }),
    col('kind', oneOf(INSTRUMENT_KINDS), 'equity, index or fund'),
    col('board', oneOf(BOARD_IDS), 'BoardId, equities only (empty for indices and funds)', { optional: true }),
    col('name', text(), 'name (Chinese)'),
    col('name_en', text(), 'English name', { optional: true }),
    col('list_date', date, 'listing date (indices: launch date)', { optional: true }),
    col(
      'list_date_source',
      oneOf(LIST_DATE_SOURCES),
      'where list_date came from: exchange (default when list_date is given), ' +
        'first_bar (inferred from the first stored bar) or before_first_bar (unknown, list_date empty: listed before the first stored bar)',
      { optional: true },
    ),
    col('delist_date', date, 'delisting date; empty while listed', { optional: true }),
    col(
      'listing_kind',
      oneOf(LISTING_KINDS),
      "equities: ipo (a new listing) or transfer (moved from another venue, e.g. NEEQ's select tier to the BSE on 2021-11-15: no days without limits); " +
        'empty: transfer for a BJ listing dated 2021-11-15, else ipo (docs/price-limits.md)',
      { optional: true },
    ),
    col('total_shares', SHARES, 'total shares (equities)', { optional: true }),
    col('float_shares', SHARES, 'free-float shares (equities)', { optional: true }),
    col('fund_type', oneOf(['etf', 'lof']), 'etf or lof (funds)', { optional: true }),
    col('underlying', pattern(ID_RE, 'an instrument id CODE.MARKET'), 'id of the tracked index (funds)', { optional: true }),
    col('base_date', date, 'base date (indices)', { optional: true }),
    col('base_value', PRICE, 'base value in index points (indices)', { optional: true }),
    col(
      'pinyin_initials',
      pattern(/^[A-Za-z0-9]{1,32}$/, 'letters or digits'),
      "pinyin initials as a vendor writes them (Tongdaxin's name tables: GZMT for 贵州茅台), searched beside those the service makes of the name",
      { optional: true },
    ),
  ],
  key: ['instrument_id'],
  check: (ix) =>
    all(
      (r, ctx) =>
        ctx.markets.has((r[ix.instrument_id] as string).slice(7))
          ? null
          : ['instrument_id', "expected an id whose market is in the store or in this command's markets"],
      (r) =>
        KINDS[r[ix.kind] as InstrumentKind].board === (r[ix.board] !== null)
          ? null
          : [
              'board',
              KINDS[r[ix.kind] as InstrumentKind].board ? 'expected a board for an equity' : 'expected no board for an index or fund',
            ],
      (r) =>
        r[ix.listing_kind] === null || r[ix.kind] === 'equity' ? null : ['listing_kind', 'expected no listing_kind for an index or fund'],
      orderCheck(ix, 'list_date', 'delist_date'),
      (r) =>
        (r[ix.list_date_source] === 'before_first_bar') === (r[ix.list_date] === null) || r[ix.list_date_source] === null
          ? null
          : [
              'list_date_source',
              r[ix.list_date] === null
                ? 'expected before_first_bar or empty when list_date is empty'
                : 'expected exchange or first_bar when list_date is given',
            ],
    ),
  derived: {
    columns: ['inst', 'code', 'market', 'name_lc'],
    doc: 'inst (internal key), code, market, name_lc',
    values: (ix) => (r, ctx) => {
      const id = r[ix.instrument_id] as string;
      const market = id.slice(7);
      // A listing date loaded without its source is the exchange's (stock_basic, instruments files).
      if (r[ix.list_date_source] === null && r[ix.list_date] !== null) r[ix.list_date_source] = 'exchange';
      return [
        ctx.upsertInstrument(id, r[ix.kind] as InstrumentKind, market, r[ix.list_date] as number | null),
        id.slice(0, 6),
        market,
        (r[ix.name] as string).toLowerCase(),
      ];
    },
  },
};

export const instrumentClassifications: DatasetDef = {
  name: 'instrument_classifications',
  table: 'instrument_classifications',
  doc: 'Memberships: which classifications an instrument belongs to (feeds /classifications and sector-memberships).',
  columns: [
    col('instrument_id', instrument(), 'a known instrument', { column: 'inst' }),
    col('classification_id', text(), 'a known classification id'),
  ],
  key: ['instrument_id', 'classification_id'],
  check: (ix) => (r, ctx) =>
    ctx.classifications.has(r[ix.classification_id] as string)
      ? null
      : ['classification_id', "expected a classification in the store or in this command's classifications"],
};

export const stPeriods: DatasetDef = {
  name: 'st_periods',
  table: 'st_periods',
  doc: 'Special-treatment (ST) periods of equities, inclusive; an open period has no end_date.',
  columns: [
    col('instrument_id', instrument(['equity']), 'a known equity', { column: 'inst' }),
    col('start_date', date, 'first day under special treatment'),
    col('end_date', date, 'last day under special treatment; empty while ST', { optional: true }),
  ],
  key: ['instrument_id', 'start_date'],
  check: (ix) => orderCheck(ix, 'start_date', 'end_date'),
};

export const indexConstituents: DatasetDef = {
  name: 'index_constituents',
  table: 'index_constituents',
  doc: 'Constituents of an index with the free-float shares it counts.',
  columns: [
    col('index_id', instrument(['index']), 'a known index', { column: 'index_inst' }),
    col('instrument_id', instrument(['equity']), 'a known equity', { column: 'inst' }),
    col('shares', SHARES, 'shares counted in the index'),
  ],
  key: ['index_id', 'instrument_id'],
};
