/**
 * Every dataset an operator loads, in dependency order (what `mds ingest --dir` and
 * `mds export --all` follow): markets and classifications before instruments, instruments
 * before anything that names one, trading days before bars. API keys are not a dataset.
 */
import { compile, type Dataset } from './dataset.js';
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
import {
  balanceSheets,
  businessScope,
  capitalFlows,
  cashFlowStatements,
  companyProfiles,
  dividends,
  earningsForecasts,
  financialIndicators,
  incomeStatements,
  institutionalHoldings,
  management,
} from './fundamentals.js';

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
  incomeStatements,
  balanceSheets,
  cashFlowStatements,
  financialIndicators,
  dividends,
  earningsForecasts,
  institutionalHoldings,
  management,
  companyProfiles,
  businessScope,
  capitalFlows,
].map(compile);

const BY_NAME = new Map(DATASETS.map((d) => [d.name, d]));

export function dataset(name: string): Dataset | undefined {
  return BY_NAME.get(name);
}

/** Position in the dependency order. */
export const orderOf = (d: Dataset) => DATASETS.indexOf(d);
