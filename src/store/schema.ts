import type { FundamentalsDatabase } from './schema-fundamentals.js';
import type { InstrumentKind } from '../market/kinds.js';

/**
 * Kysely table types. Conventions (identical on SQLite and PostgreSQL):
 * - dates are integers YYYYMMDD, instants are epoch seconds (`ts`);
 * - prices are integers in 1/1000 CNY (`PRICE_SCALE`), money in fen (`MONEY_SCALE`);
 * - volumes are integers in shares; instruments are joined by the surrogate `inst` key.
 */
export interface MetaTable {
  key: string;
  value: string;
}

/** A data version (store/versions.ts): made at `at` (epoch ms) by `origin`. */
export interface DataVersionTable {
  version: number;
  at: number;
  origin: string;
}

/** What a data version changed in one dataset: rows written, instruments (JSON array of ids; null: all or unknown), dates. */
export interface DataChangeTable {
  version: number;
  dataset: string;
  rows: number;
  instruments: string | null;
  from_date: number | null;
  to_date: number | null;
}

export interface MarketTable {
  id: string;
  name: string;
  name_local: string;
  mic: string;
  timezone: string;
  currency: string;
  opened: number;
}

/** A loaded trading day (is_open 1 or null) or closure (is_open 0) that overrides the shipped calendar. */
export interface TradingDayTable {
  market: string;
  date: number;
  is_open: number | null;
}

export interface ClassificationTable {
  id: string;
  name: string;
  type: string;
}

export interface InstrumentTable {
  inst: number;
  id: string;
  kind: InstrumentKind;
  code: string;
  market: string;
  board: string | null;
  name: string;
  name_lc: string;
  name_en: string | null;
  list_date: number | null;
  /** exchange, first_bar or before_first_bar (LIST_DATE_SOURCES); null when nothing is known. */
  list_date_source: string | null;
  delist_date: number | null;
  /** 'ipo' or 'transfer' (equities; migration 0012); null: market/limits.ts `listingKind`'s default. */
  listing_kind: string | null;
  total_shares: number | null;
  float_shares: number | null;
  fund_type: string | null;
  underlying: string | null;
  base_date: number | null;
  base_value: number | null;
  /** Pinyin initials as a vendor writes them (Tongdaxin's `GZMT`; migration 0026), searched beside the service's own; null when none. */
  pinyin_initials: string | null;
}

export interface InstrumentClassificationTable {
  inst: number;
  classification_id: string;
}

/** A stock is ST (special treatment) from start_date to end_date inclusive (null: still ST). */
export interface StPeriodTable {
  inst: number;
  start_date: number;
  end_date: number | null;
}

/** Free-float shares of each constituent used to compute an index. */
export interface IndexConstituentTable {
  index_inst: number;
  inst: number;
  shares: number;
}

/**
 * Bars (`bars_1d`, `bars_1m`). `amount` is the turnover in fen, or UNKNOWN_AMOUNT (−1) when the
 * vendor published none (czsc files): an in-band marker rather than NULL, so that the columns
 * stay NOT NULL integers (no table rebuild of existing stores) and the packs' float64 fields
 * keep their layout. Amounts are otherwise ≥ 0 (ingest refuses negative ones), so the marker is
 * never a real amount. It never leaves the store as a number: decoded to null by `amountOf`
 * where bars are read (packs, rows read back, ingest's own rows), written back by
 * `storedAmount`; served as JSON null, exported as an empty field.
 */
export interface BarColumns {
  inst: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number;
}

import { UNKNOWN_AMOUNT } from '../datasets/units.js';
export { UNKNOWN_AMOUNT };
/** A stored bar amount (fen) as the amount it stands for: null when unknown. */
export const amountOf = (stored: number): number | null => (stored === UNKNOWN_AMOUNT ? null : stored);
/** A bar row read from a bar table with its amount decoded (amountOf). */
export const decodedAmount = <R extends { amount: number }>(r: R): Omit<R, 'amount'> & { amount: number | null } => ({
  ...r,
  amount: amountOf(r.amount),
});
/** A bar amount (fen, or null: unknown) as stored. */
export const storedAmount = (amount: number | null): number => (amount === null ? UNKNOWN_AMOUNT : amount);
export interface DailyBarTable extends BarColumns {
  date: number;
}
export interface MinuteBarTable extends BarColumns {
  ts: number;
  date: number;
}
/** A daily bar that ingest derived from the day's 1m bars (derived/derived-daily.ts); loaded ones have no row here. */
export interface DerivedDailyBarTable {
  inst: number;
  date: number;
}

/**
 * A packed read copy of one instrument's bars (store/packs.ts): `n` records in `data`,
 * daily bars by month (YYYYMM), 1m bars by trading day (YYYYMMDD). Derived: written only by
 * the store's bar-pack maintenance, never directly.
 */
export interface DailyBarPackTable {
  inst: number;
  month: number;
  n: number;
  data: Buffer;
  states: string | null;
}
export interface MinuteBarPackTable {
  inst: number;
  date: number;
  n: number;
  data: Buffer;
}
/** Precomputed indicator points per instrument, indicator and month (derived/indicator-pages.ts). */
export interface IndicatorPageTable {
  inst: number;
  indicator: string;
  month: number;
  data: string;
}

/** A market's trading day: its `n` day records (store/day-records.ts), derived (derived/market-days.ts). */
export interface MarketDayTable {
  market: string;
  date: number;
  n: number;
  data: Buffer;
}

/**
 * A market's breadth on a trading day, derived with its day records: equities listed (with a
 * price-limit state), advancing, declining and unchanged against their reference price, closing
 * at the up or down limit, suspended; total volume (shares) and amount (fen; of the equities whose
 * amount is known, `unknown_amounts` the others).
 */
export interface MarketBreadthTable {
  market: string;
  date: number;
  listed: number;
  advancers: number;
  decliners: number;
  unchanged: number;
  limit_up: number;
  limit_down: number;
  suspended: number;
  volume: number;
  amount: number;
  unknown_amounts: number;
}

export interface QuoteTable {
  inst: number;
  ts: number;
  date: number;
  last: number;
  open: number;
  high: number;
  low: number;
  pre_close: number;
  volume: number;
  amount: number;
  bid_p1: number | null;
  bid_p2: number | null;
  bid_p3: number | null;
  bid_p4: number | null;
  bid_p5: number | null;
  bid_v1: number | null;
  bid_v2: number | null;
  bid_v3: number | null;
  bid_v4: number | null;
  bid_v5: number | null;
  ask_p1: number | null;
  ask_p2: number | null;
  ask_p3: number | null;
  ask_p4: number | null;
  ask_p5: number | null;
  ask_v1: number | null;
  ask_v2: number | null;
  ask_v3: number | null;
  ask_v4: number | null;
  ask_v5: number | null;
}

export interface TradeTable {
  inst: number;
  date: number;
  seq: number;
  ts: number;
  price: number;
  volume: number;
  amount: number;
  side: 'buy' | 'sell' | 'neutral';
}

/**
 * An implemented ex-rights / ex-dividend event (除权除息). Per-share cash in 1/100000 CNY,
 * ratios (shares per share held) in millionths, rights price in 1/1000 CNY.
 */
export interface CorporateActionTable {
  inst: number;
  ex_date: number;
  record_date: number;
  pay_date: number | null;
  announce_date: number;
  cash_per_share: number;
  bonus_ratio: number;
  transfer_ratio: number;
  rights_ratio: number;
  rights_price: number;
}

/**
 * A published backward (hfq) ratio factor in force from `date` until the next row's date, as
 * exact canonical decimal text (dataset adj_factors).
 */
export interface AdjFactorTable {
  inst: number;
  date: number;
  adj_factor: string;
}

export interface ApiKeyTable {
  id: string;
  name: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
  /** Requests per RATE_LIMIT_WINDOW for this key (0: unlimited); null: RATE_LIMIT (migration 0011). */
  rate_limit: number | null;
}

/** What `mds ingest --tdx` loaded of a file of a Tongdaxin install (migration 0027, ingest/tdx-update.ts). */
export interface TdxFileTable {
  path: string;
  size: number;
  mtime: number;
  records: number;
  last_date: number | null;
  sha1: string;
}

export interface Database extends FundamentalsDatabase {
  meta: MetaTable;
  data_versions: DataVersionTable;
  data_changes: DataChangeTable;
  markets: MarketTable;
  trading_days: TradingDayTable;
  classifications: ClassificationTable;
  instruments: InstrumentTable;
  instrument_classifications: InstrumentClassificationTable;
  st_periods: StPeriodTable;
  index_constituents: IndexConstituentTable;
  bars_1d: DailyBarTable;
  bars_1m: MinuteBarTable;
  bars_1d_derived: DerivedDailyBarTable;
  bars_1d_packs: DailyBarPackTable;
  bars_1m_packs: MinuteBarPackTable;
  market_days: MarketDayTable;
  market_breadth: MarketBreadthTable;
  indicator_pages: IndicatorPageTable;
  quotes: QuoteTable;
  trades: TradeTable;
  corporate_actions: CorporateActionTable;
  adj_factors: AdjFactorTable;
  api_keys: ApiKeyTable;
  tdx_files: TdxFileTable;
}
