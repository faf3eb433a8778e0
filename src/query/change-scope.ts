import { DATASETS, DECLARED } from '../datasets/registry.js';
import type { DatasetDef } from '../datasets/dataset.js';

/**
 * What a response or a cache entry depends on, as the change log can tell (store/versions.ts;
 * ChangeIndex.lastTouch answers the last version that changed it):
 * - `instrument`: one instrument's data and what names no instrument (calendars, derivation
 *   rebuilds, a demo build). `datasets`: only changes of those datasets matter (the instrument's,
 *   or of all instruments), and those of what the log names but no ingest dataset (a derivation
 *   rebuilt, countsAsEvery); without it, every dataset does. `bars`: only its bar rows dated in
 *   [from, to] (YYYYMMDD) matter of its bars (bars_1d, bars_1m); without it, every date does.
 *   `pastData`: the first date of a window whose first page says where the store's data end
 *   (bars.ts pastTheData): a version that moves the store's last bar date matters while that
 *   date is before it. `marketEnd`: the last date of a window that runs up to the latest bar
 *   date of the instrument's market (price limits of an equity suspended to the end): a version
 *   that may move that date (bars of any instrument of the market after it) matters while the
 *   date is before `marketEnd`. `ownEnd`: the same of the instrument's own last bar date (the
 *   rows of price limits run to it): with `bars` ending there, a version of its bars after the
 *   window matters only while its last bar was before the window's end.
 * - `market`: a market-wide day or range (cross-sections, breadth, pools) up to `to`: every
 *   change but of fundamentals, dated on or before `to` or undated (streaks, reference prices
 *   and limits of a day come from the days before it, never after).
 * - `catalog`: the instruments, their ST flags and the precomputed indicator setting.
 * - `datasets`: whatever changes those datasets, of any instrument (calendars: trading days).
 * - `lastBar`: the store's last daily bar date (of `market`'s instruments when given): the
 *   versions that may have moved it (ChangeIndex's frontiers) and those of the catalog.
 */
export type Scope =
  | {
      kind: 'instrument';
      id: string;
      datasets?: readonly string[];
      bars?: { from: number; to: number };
      pastData?: number;
      marketEnd?: number;
      ownEnd?: number;
    }
  | { kind: 'market'; to: number }
  | { kind: 'catalog' }
  | { kind: 'datasets'; datasets: readonly string[] }
  | { kind: 'lastBar'; market?: string };

/** A change as the index keeps it. */
export interface Change {
  dataset: string;
  instruments: ReadonlySet<string> | null;
  from: number | null;
  to: number | null;
}

/** Datasets whose rows are bars, dated by the bar. */
export const BARS = new Set(['bars_1d', 'bars_1m']);
/**
 * Datasets no market-wide page reads (market days, breadth and pools read bars, limits, listings,
 * ticks, and the declared datasets that say they feed them: share capital, suspensions, index weights).
 */
const NOT_MARKET = new Set([
  'classifications',
  'instrument_classifications',
  'index_constituents',
  ...DECLARED.filter((d: DatasetDef) => !d.feeds?.includes('market')).map((d) => d.name),
]);
/** Ingest datasets that do not change the catalog (CatalogSnapshot.read: instruments, st_periods, the indicator setting). */
const NOT_CATALOG = new Set([
  ...NOT_MARKET,
  ...BARS,
  'quotes',
  'trades',
  'corporate_actions',
  'adj_factors',
  'markets',
  'trading_days',
  // No dataset stored as declared is in the catalog.
  ...DECLARED.map((d) => d.name),
]);
/**
 * What the log names besides ingest datasets and is known to change none of their tables: the
 * derived tables of indicators (indicator_states, the precomputed pages and their setting,
 * which `datasets` scopes name when they read it) and of market days. Any other name (a
 * derivation rebuilding bars, one added later) counts as changing every dataset.
 */
const DERIVED_APART = new Set(['indicator_states', 'indicator_pages', 'market_days']);
const INGEST = new Set(DATASETS.map((d) => d.name));

/** Whether a change of `dataset` may change the rows of any dataset (not one the log's readers know). */
export const countsAsEvery = (dataset: string) => !INGEST.has(dataset) && !DERIVED_APART.has(dataset);

const names = (c: Change, id: string) => c.instruments === null || c.instruments.has(id);
const inDatasets = (c: Change, datasets: readonly string[] | undefined) =>
  datasets === undefined || datasets.includes(c.dataset) || countsAsEvery(c.dataset);

/** Whether a change of bars dated [from, to] (null: unknown) meets [lo, hi]. */
const meets = (c: Change, lo: number, hi: number) => c.from === null || c.to === null || (c.from <= hi && c.to >= lo);

/** Whether change `c` changes what `s` depends on (but for `pastData`, `marketEnd` and `ownEnd`: ChangeIndex's frontiers). */
export function changeTouches(c: Change, s: Scope): boolean {
  if (s.kind === 'catalog') return !NOT_CATALOG.has(c.dataset);
  if (s.kind === 'market') return !NOT_MARKET.has(c.dataset) && (c.from === null || c.from <= s.to);
  if (s.kind === 'datasets') return inDatasets(c, s.datasets);
  if (s.kind === 'lastBar') return !NOT_CATALOG.has(c.dataset);
  return names(c, s.id) && inDatasets(c, s.datasets) && (s.bars === undefined || !BARS.has(c.dataset) || meets(c, s.bars.from, s.bars.to));
}

/** The key of a scope, for the memo. */
export function keyOf(s: Scope): string {
  if (s.kind === 'catalog') return 'c';
  if (s.kind === 'market') return `m|${s.to}`;
  if (s.kind === 'datasets') return `d|${s.datasets.join(',')}`;
  if (s.kind === 'lastBar') return `l|${s.market ?? ''}`;
  const bars = s.bars ? `${s.bars.from}-${s.bars.to}` : '';
  const ends = `${s.pastData ?? ''}|${s.marketEnd ?? ''}|${s.ownEnd ?? ''}`;
  return `i|${s.id}|${bars}|${ends}|${s.datasets?.join(',') ?? '*'}`;
}

/** The market of an instrument id (CODE.MARKET). */
export const marketOfId = (id: string) => id.slice(id.indexOf('.') + 1);
