/**
 * The company, fundamentals and flow datasets of the demo market (issue 3), generated from the
 * rows the core demo left in the store (equities, daily bars, corporate actions, classifications,
 * ST periods) and a seed, so they agree with them: paid dividends are funded by reported
 * profits, share capital follows bonus and transfer shares, capital flows split each day's
 * traded amount. Equal store contents and arguments give identical rows.
 *
 * @example await generateDemo(store, opts); await generateFundamentals(store, opts.seed, opts.end);
 */
import type { BulkSession } from '../../store/types.js';
import { Rng } from '../random.js';
import { Writer } from '../writer.js';
import { FUNDAMENTALS } from '../../datasets/fundamentals.js';
import { marginTrading } from '../../datasets/margin-trading.js';
import { marginRows } from './margin-trading.js';
import { loadInputs } from './inputs.js';
import { periods } from './periods.js';
import { companyFacts } from './facts.js';
import { generateStatements, type Statements } from './statements.js';
import { deriveIndicators } from './indicators.js';
import { dividendRows } from './dividends.js';
import { forecastRows } from './forecasts.js';
import { holdingRows } from './holdings.js';
import { chairman, managementRows } from './management.js';
import { companyRows } from './company.js';
import { flowRows } from './capital-flows.js';

/** Table columns of each fundamentals table, in declaration order (datasets/fundamentals.ts). */
const GENERATED = [...FUNDAMENTALS, marginTrading] as const;
export const COLUMNS = Object.fromEntries(GENERATED.map((d) => [d.table, d.columns.map((c) => c.column)])) as Record<
  (typeof GENERATED)[number]['table'],
  string[]
>;

type Table = keyof typeof COLUMNS;

/** Generates every dataset of issue 3 through `s`, the transaction that wrote the core demo, with `w`; returns rows per table. */
export async function generateFundamentals(s: BulkSession, seed: number, end: number, w = new Writer(s)): Promise<Record<string, number>> {
  const { equities, start } = await loadInputs(s);
  const rows = Object.fromEntries(Object.keys(COLUMNS).map((t) => [t, [] as unknown[][]])) as Record<Table, unknown[][]>;
  const add = (table: Table, inst: number, record: Record<string, unknown>) =>
    rows[table].push(COLUMNS[table].map((c) => (c === 'inst' ? inst : record[c])));

  for (const e of equities) {
    const rng = (purpose: string) => Rng.from(seed, `fundamentals/${purpose}/${e.id}`);
    const facts = companyFacts(e);
    const all = generateStatements(rng('statements'), facts, periods(rng('periods'), e.listDate, start, end, e.actions));
    const reported = all.filter((s) => s.period.announce <= end);
    const byDate = new Map(reported.map((s) => [s.period.date, s]));
    for (const s of reported) {
      const period = { report_date: s.period.date, report_type: s.period.type, announce_date: s.period.announce };
      add('income_statements', e.inst, { ...period, ...s.income });
      add('balance_sheets', e.inst, { ...period, ...s.balance });
      add('cash_flow_statements', e.inst, { ...period, ...s.cash });
      add('financial_indicators', e.inst, {
        ...period,
        ...deriveIndicators(s.income, s.balance, byDate.get(s.period.date - 10000)?.income),
      });
    }
    for (const d of dividendRows(rng('dividends'), e, facts.shares, reported, end)) add('dividends', e.inst, d);
    for (const f of forecastRows(rng('forecasts'), all, end)) add('earnings_forecasts', e.inst, f);
    for (const h of holdingRows(
      rng('holdings'),
      facts.shares,
      reported.map((s) => s.period),
      e.listDate,
    ))
      add('institutional_holdings', e.inst, h);
    const people = managementRows(rng('management'), e.listDate, end);
    for (const m of people) add('management', e.inst, m);
    const { profile, scope } = companyRows(rng('company'), e, {
      annualRevenue: annualRevenue(reported) ?? facts.value / facts.arch.ps,
      asOf: reported.at(-1)?.period.date ?? end,
      arch: facts.arch,
      chairman: chairman(people),
    });
    add('company_profiles', e.inst, profile);
    for (const s of scope) add('business_scope', e.inst, s);
    for (const f of flowRows(rng('capital-flows'), e.bars, facts.value)) add('capital_flows', e.inst, f);
    for (const m of marginRows(rng('margin'), e.bars, e.floatShares, e.st.length > 0)) add('margin_trading', e.inst, m);
  }

  for (const t of Object.keys(COLUMNS) as Table[]) await w.write(t, COLUMNS[t], rows[t]);
  return Object.fromEntries((Object.keys(COLUMNS) as Table[]).map((t) => [t, w.counts[t] ?? 0]));
}

/** Revenue of the latest annual report, or the latest year-to-date revenue annualised. */
function annualRevenue(reported: Statements[]): number | null {
  const last = reported.at(-1);
  if (!last) return null;
  const annual = reported.filter((s) => s.period.type === 'annual').at(-1);
  return annual ? annual.income.revenue : (last.income.revenue * 4) / last.period.q;
}
