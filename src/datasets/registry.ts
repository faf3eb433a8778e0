/**
 * Every dataset an operator loads, in dependency order (what `mds ingest --dir` and
 * `mds export --all` follow): markets and classifications before instruments, instruments
 * before anything that names one, trading days before bars. API keys are not a dataset.
 */
import { compile, type Compiled, type Dataset, type DatasetDef } from './dataset.js';
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
].map(compile);

const BY_NAME = new Map(DATASETS.map((d) => [d.name, d]));

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
