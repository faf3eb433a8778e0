/**
 * Dividend records: every implemented distribution of the corporate_actions table (cash,
 * bonus or transfer shares; a pure rights issue is not a dividend), for the fiscal year before
 * its ex-date, plus a proposed or approved plan for the latest reported fiscal year that has
 * none yet, while such a plan could still be pending (until August 31 of the next year).
 */
import type { Rng } from '../random.js';
import type { DividendTable } from '../../store/schema-fundamentals.js';
import type { EquityIn } from './inputs.js';
import type { ShareHistory } from './shares.js';
import type { Statements } from './statements.js';
import { fiscalYearOf, isDistribution } from './periods.js';
import { addDays, int } from './util.js';
import { cashPaid } from './facts.js';

export type DividendRow = Omit<DividendTable, 'inst'>;

export function dividendRows(r: Rng, e: EquityIn, shares: ShareHistory, reported: Statements[], end: number): DividendRow[] {
  const rows: DividendRow[] = e.actions.filter(isDistribution).map((a) => ({
    report_period: fiscalYearOf(a) * 10000 + 1231,
    announce_date: a.announceDate,
    record_date: a.recordDate,
    ex_date: a.exDate,
    pay_date: a.payDate,
    cash_per_share: a.cash,
    bonus_ratio: a.bonus,
    transfer_ratio: a.transfer,
    progress: 'implemented',
  }));
  const annual = reported.filter((s) => s.period.type === 'annual').at(-1);
  if (!annual) return rows;
  const fy = annual.period.date;
  const npa = annual.income.net_profit_attributable;
  const pendingUntil = (annual.period.year + 1) * 10000 + 831;
  const plan = r.chance(0.85);
  const payout = r.uniform(0.2, 0.45),
    transfer = r.chance(0.1) ? r.int(2, 4) * 100_000 : 0;
  const meeting = addDays(annual.period.announce, r.int(25, 50));
  if (rows.some((x) => x.report_period === fy) || end > pendingUntil || npa <= 0 || !plan) return rows;
  const n = shares.totalAt(end);
  const cash = Math.max(100, Math.round((npa * payout * 1000) / n / 100) * 100);
  if (cashPaid(cash, n) > 0.8 * npa) return rows;
  const approved = meeting <= end;
  rows.push({
    report_period: fy,
    announce_date: approved ? meeting : annual.period.announce,
    record_date: null,
    ex_date: null,
    pay_date: null,
    cash_per_share: int(cash),
    bonus_ratio: 0,
    transfer_ratio: transfer,
    progress: approved ? 'approved' : 'proposed',
  });
  return rows;
}
