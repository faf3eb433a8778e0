/**
 * Every dataset an operator loads, in dependency order (what `mds ingest --dir` and
 * `mds export --all` follow): markets and classifications before instruments, instruments
 * before anything that names one, trading days before bars. API keys are not a dataset.
 */
import { compile, type Compiled, type Dataset, type DatasetDef, type RecordDecl, type ServeDecl } from './dataset.js';
import {
  classifications,
  indexConstituents,
  instrumentClassifications,
  instruments,
  markets,
  stPeriods,
  tradingDays,
} from './reference.js';
import { adjFactors, bars1d, bars1m, corporateActions, quotes, trades } from './market-data.js';
import { FUNDAMENTALS } from './fundamentals.js';
import { marginTrading } from './margin-trading.js';
import { suspensions } from './suspensions.js';
import { shareCapital } from './share-capital.js';
import { indexWeights } from './index-weights.js';
import { FUNDAMENTALS_SERVED } from './fundamentals-operations.js';

/**
 * The datasets stored as declared: each one's table type is its declaration's (`TableOf`), the
 * store's `Database` maps them (store/schema-fundamentals.ts), so a dataset added here is a
 * table of the store with no other list to keep. Loaded after the reference and market data
 * they name.
 */
export const DECLARED = [...FUNDAMENTALS, marginTrading, suspensions, shareCapital, indexWeights] as const;

export const DATASETS: readonly Dataset[] = [
  markets,
  tradingDays,
  classifications,
  instruments,
  instrumentClassifications,
  stPeriods,
  indexConstituents,
  corporateActions,
  adjFactors,
  bars1d,
  bars1m,
  quotes,
  trades,
  ...DECLARED,
].map((d: DatasetDef) => compile({ ...d, serve: d.serve ?? FUNDAMENTALS_SERVED[d.name] }));

const BY_NAME = new Map(DATASETS.map((d) => [d.name, d]));

/** A dataset the API serves as its records by a collection generated from its declaration. */
export type ServedDataset = Dataset & { record: RecordDecl; serve: ServeDecl };

/** The datasets served from their declarations, in load order (http/routes/fundamentals/served.ts registers them). */
export const SERVED: readonly ServedDataset[] = DATASETS.filter((d): d is ServedDataset => d.serve !== undefined && d.record !== undefined);

/** Their operations' ids. */
export const SERVED_OPERATIONS: readonly string[] = SERVED.map((d) => d.serve.operationId);

export function dataset(name: string): Dataset | undefined {
  return BY_NAME.get(name);
}

/** Position in the dependency order. */
export const orderOf = (d: Dataset) => DATASETS.indexOf(d);

/** The compiled form of a declaration (its record and column types kept). */
export function compiled<D extends DatasetDef>(d: D): Compiled<D> {
  const c = BY_NAME.get(d.name);
  if (!c) throw new Error(`dataset ${d.name} is not in DATASETS`);
  return c as unknown as Compiled<D>;
}
