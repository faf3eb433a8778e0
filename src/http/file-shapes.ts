/**
 * The file of every collection (docs/api.md, "Files"): which ingest dataset's columns it has
 * (a dataset served as its rows: its declaration's; others are listed here and test/files.test.ts
 * holds each list to the dataset's), and how each column comes from the JSON record; a collection of derived data
 * (no dataset loads it) is the record's own fields, flat (file-format.ts, flatColumns).
 * Every collection operation has an entry; its file is made from the page the JSON answer
 * would hold (http/collection.ts, sendPage).
 */
import type { TObject } from '@sinclair/typebox';
import { field, flatColumns, type FileColumn, type FileShape } from './file-format.js';
import { INTERVALS } from '../market/intervals.js';
import type { IntervalId } from '../market/types.js';
import { INDICATORS, isIndicatorId } from '../indicators/registry.js';
import { PoolConstituent, PoolType, PriceLimit, TechnicalIndicatorPoint } from './schemas/analytics.js';
import { MarketBreadth } from './schemas/market-days.js';
import { Valuation } from './schemas/fundamentals.js';
import { DataVersionRecord } from './schemas/changes.js';
import type { DatasetDef } from '../datasets/dataset.js';
import { dividends } from '../datasets/fundamentals.js';
import { suspensions } from '../datasets/suspensions.js';
import { SERVED } from '../datasets/registry.js';
import { indexWeights } from '../datasets/index-weights.js';

/** What a request asks for: its path and query parameters (the file of bars depends on the interval). */
export interface FileAsk {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

/** A column of a dataset: its name, the record's field it is (default the same), or how it is made. */
type Col = string | [name: string, from: string] | FileColumn;
const col = (c: Col): FileColumn => (typeof c === 'string' ? field(c) : Array.isArray(c) ? field(c[0], c[1]) : c);
const ingest = (dataset: string, columns: Col[]): FileShape => ({ dataset, columns: columns.map(col) });
const own = (schema: TObject, maps?: Record<string, readonly string[]>): FileShape => ({
  dataset: null,
  columns: flatColumns(schema, maps),
});
const constant = (name: string, v: number): FileColumn => ({ name, value: () => v });

const OHLCV = ['open', 'high', 'low', 'close', 'volume', 'amount'];
const BARS_1D = ingest('bars_1d', ['instrument_id', 'trade_date', ...OHLCV]);
const BARS_1M = ingest('bars_1m', ['instrument_id', 'timestamp', ...OHLCV]);
/** Bars of a daily or longer interval are in the bars_1d format, intraday ones in bars_1m's; adjusted ones alike. */
const bars = (a: FileAsk) => (INTERVALS[a.query.interval as IntervalId]?.daily === false ? BARS_1M : BARS_1D);

const level = (side: 'bids' | 'asks', l: number, part: 'price' | 'volume'): FileColumn => ({
  name: `${side.slice(0, 3)}_${part[0]}${l}`,
  value: (r) => r[side][l - 1]?.[part] ?? null,
});
const LEVELS = [1, 2, 3, 4, 5];
const book = (side: 'bids' | 'asks') => [...LEVELS.map((l) => level(side, l, 'price')), ...LEVELS.map((l) => level(side, l, 'volume'))];
const QUOTES = ingest('quotes', [
  'instrument_id',
  'timestamp',
  'last',
  'open',
  'high',
  'low',
  'pre_close',
  'volume',
  'amount',
  ...book('bids'),
  ...book('asks'),
]);

const INSTRUMENTS = ingest('instruments', [
  ['instrument_id', 'id'],
  'kind',
  'board',
  'name',
  'name_en',
  'list_date',
  'list_date_source',
  // Not in the API's record: empty, which ingest reads as its default (docs/ingest.md).
  'delist_date',
  { name: 'listing_kind', value: () => null },
  'total_shares',
  'float_shares',
  'fund_type',
  'underlying',
  'base_date',
  'base_value',
  // A vendor's initials are searched, not served: empty, as listing_kind.
  { name: 'pinyin_initials', value: () => null },
]);
const CLASSIFICATIONS = ingest('classifications', ['id', 'name', 'type']);
/**
 * A dataset served as its rows: the declared columns; one the record leaves out (management's
 * record number) is its part of the cursor key.
 */
const declared = (d: DatasetDef): FileShape =>
  ingest(
    d.name,
    d.columns.map((c): Col => {
      if (!d.record?.omit?.includes(c.name)) return c.name;
      const i = d.key.indexOf(c.name) - 1;
      if (i < 0) throw new Error(`${d.name}.${c.name}: a column left out of the record must be part of its sort key`);
      return { name: c.name, value: (_r, k) => k[i] as number };
    }),
  );
const FLOW = ['extra_large', 'large', 'medium', 'small'].flatMap((c) => [`${c}_buy`, `${c}_sell`]);

const fixed = (shape: FileShape) => () => shape;

/** The file of each collection operation, by operationId. */
export const FILE_SHAPES: Readonly<Record<string, (ask: FileAsk) => FileShape>> = {
  listMarkets: fixed(ingest('markets', ['id', 'name', 'name_local', 'mic', 'timezone', 'currency', 'opened'])),
  listTradingDays: fixed(ingest('trading_days', ['market', 'date', constant('is_open', 1)])),
  listSectors: fixed(CLASSIFICATIONS),
  listPrimaryIndustries: fixed(CLASSIFICATIONS),
  listEquities: fixed(INSTRUMENTS),
  listIndices: fixed(INSTRUMENTS),
  listFunds: fixed(INSTRUMENTS),
  searchInstruments: fixed(INSTRUMENTS),
  listEquityBars: bars,
  listIndexBars: bars,
  listFundBars: bars,
  listMarketBars: fixed(BARS_1D),
  listEquityQuotes: fixed(QUOTES),
  listIndexQuotes: fixed(QUOTES),
  listFundQuotes: fixed(QUOTES),
  listEquityTrades: fixed(ingest('trades', ['instrument_id', 'trade_date', 'seq', 'timestamp', 'price', 'volume', 'amount', 'side'])),
  listAdjustmentFactors: fixed(ingest('adj_factors', ['instrument_id', 'trade_date', ['adj_factor', 'backward_factor']])),
  // The collections served from declarations: their declared columns.
  ...Object.fromEntries(SERVED.map((d) => [d.serve.operationId, fixed(declared(d))])),
  listDividends: fixed(declared(dividends)),
  // Derived intervals too (their source is not a column: loaded back, they are the equity's announced ones).
  listSuspensions: fixed(declared(suspensions)),
  listIndexConstituents: fixed(declared(indexWeights)),
  listIndexMemberships: fixed(declared(indexWeights)),
  listBusinessScope: fixed(ingest('business_scope', ['instrument_id', 'seq', 'type', 'text'])),
  listSectorMemberships: fixed(ingest('instrument_classifications', ['instrument_id', 'classification_id'])),
  listCapitalFlows: fixed(ingest('capital_flows', ['instrument_id', 'trade_date', 'amount', ...FLOW])),
  // Derived data: the record's own fields.
  listPriceLimits: fixed(own(PriceLimit)),
  listPoolTypes: fixed(own(PoolType)),
  listPoolConstituents: fixed(own(PoolConstituent)),
  listMarketBreadth: fixed(own(MarketBreadth)),
  listValuations: fixed(own(Valuation)),
  listChanges: fixed(own(DataVersionRecord)),
  listEquityTechnicalIndicators: indicatorFile,
  listIndexTechnicalIndicators: indicatorFile,
  listFundTechnicalIndicators: indicatorFile,
};

/** An indicator point's values are columns `values.<key>`, the indicator's documented keys. */
function indicatorFile(a: FileAsk): FileShape {
  const id = String(a.params.indicator);
  return own(TechnicalIndicatorPoint, { values: isIndicatorId(id) ? INDICATORS[id].keys : [] });
}

/** The file shape of a request to operation `operationId`, or null for an operation that is not a collection. */
export function fileShape(operationId: string, ask: FileAsk): FileShape | null {
  const shape = FILE_SHAPES[operationId];
  return shape ? shape(ask) : null;
}
