/**
 * Income statements, balance sheets and cash-flow statements of one company, quarter by
 * quarter, reported cumulatively from January 1 (A-share convention). Money in fen.
 *
 * Identities that hold exactly: net_profit = total_profit − income_tax; total_equity =
 * equity_attributable + minority_interest; total_assets = total_liabilities + total_equity;
 * current_assets ≥ cash + receivables + inventory; free_cash_flow = operating_cash_flow − capex;
 * cash_end = balance-sheet cash = cash_begin + operating + investing + financing cash flows;
 * share_capital = total shares × 1 CNY par; basic_eps = net_profit_attributable / total shares.
 */
import type { Rng } from '../random.js';
import type { Archetype } from './archetypes.js';
import { periodEnd, type Period } from './periods.js';
import type { ShareHistory } from './shares.js';
import { clamp, int, ratio } from './util.js';

export interface Income {
  revenue: number;
  operating_cost: number;
  operating_profit: number;
  total_profit: number;
  income_tax: number;
  net_profit: number;
  net_profit_attributable: number;
  /** 1/10000 CNY. */
  basic_eps: number;
}
export interface Balance {
  total_assets: number;
  current_assets: number;
  cash: number;
  receivables: number;
  inventory: number;
  fixed_assets: number;
  total_liabilities: number;
  current_liabilities: number;
  equity_attributable: number;
  minority_interest: number;
  total_equity: number;
  share_capital: number;
}
export interface CashFlow {
  operating_cash_flow: number;
  investing_cash_flow: number;
  financing_cash_flow: number;
  capex: number;
  free_cash_flow: number;
  cash_begin: number;
  cash_end: number;
}
export interface Statements {
  period: Period;
  income: Income;
  balance: Balance;
  cash: CashFlow;
}

export interface CompanyFacts {
  /** Market value (fen) the statements are scaled to. */
  value: number;
  arch: Archetype;
  shares: ShareHistory;
  /** Smallest YTD net profit attributable (fen) by period end date: dividends to fund, or 1 (a profit). */
  minProfit: Map<number, number>;
  /** Fiscal years that end in a loss (special treatment), unless minProfit requires a profit. */
  lossYears: Set<number>;
  /** Equity changes besides profit: dividends paid (negative), rights-issue proceeds (positive). */
  equityFlows: { date: number; amount: number }[];
}

/** Company-level draws around the archetype. */
function traits(r: Rng, f: CompanyFacts) {
  const a = f.arch;
  const gm = clamp(a.gm * Math.exp(0.2 * r.normal()), 0.05, 0.9);
  let cash = r.uniform(0.15, 0.4),
    inv = a.inv * r.uniform(0.6, 1.4),
    rec = a.rec * r.uniform(0.6, 1.4);
  const sum = cash + inv + rec;
  if (sum > 0.85) {
    cash *= 0.85 / sum;
    inv *= 0.85 / sum;
    rec *= 0.85 / sum;
  }
  const minority = r.chance(0.7) ? r.uniform(0.01, 0.12) : 0;
  return {
    gm,
    opm: clamp(a.opm * Math.exp(0.3 * r.normal()), 0.01, gm - 0.02),
    lev: clamp(a.lev * Math.exp(0.3 * r.normal()), 0.1, 15),
    ca: clamp(a.ca * Math.exp(0.15 * r.normal()), 0.1, 0.9),
    cash,
    inv,
    rec,
    fa: r.uniform(0.3, 0.7),
    cl: clamp(a.cl * r.uniform(0.85, 1.1), 0.3, 0.98),
    capex: a.capex * r.uniform(0.5, 1.5),
    minority,
    minorityEquity: minority * r.uniform(0.8, 1.2),
    revenue: f.value / (a.ps * Math.exp(0.35 * r.normal())),
    equity: Math.min(1e14, f.value / (a.pb * Math.exp(0.3 * r.normal()))),
    sigma: a.lossChance === 0 ? 0.01 : 0.03,
  };
}

const SEASON = [0.22, 0.25, 0.25, 0.28];

/** Statements for `periods` (ascending, as from periods()); quarters before the first are simulated silently. */
export function generateStatements(r: Rng, f: CompanyFacts, periods: Period[]): Statements[] {
  if (periods.length === 0) return [];
  const t = traits(r, f);
  const wanted = new Map(periods.map((p) => [p.date, p]));
  const flows = [...f.equityFlows].sort((a, b) => a.date - b.date);
  const out: Statements[] = [];
  const E0 = t.equity;
  let E = int(E0),
    cashYearStart = int(E0 * (1 + t.lev) * t.ca * t.cash);
  let revenue = t.revenue,
    opm = t.opm,
    flowAt = 0;
  const first = periods[0].year,
    last = periods[periods.length - 1];
  let prevEnd = (first - 1) * 10000 + 1231;

  for (let y = first; y <= last.year; y++) {
    if (y > first) revenue *= Math.exp(f.arch.growth + 0.12 * r.normal());
    opm = t.opm + 0.5 * (opm - t.opm) + t.sigma * r.normal();
    const annual = y * 10000 + 1231;
    if (f.minProfit.has(annual)) opm = Math.max(opm, 0.5 * t.opm);
    else if (E > 0.3 * E0 && (f.lossYears.has(y) || r.chance(f.arch.lossChance))) opm = -r.uniform(0.02, 0.15);
    const gmYear = Math.max(t.gm + 0.02 * r.normal(), opm + 0.02);
    const w = SEASON.map((s) => s * Math.exp(0.05 * r.normal()));
    const wSum = w.reduce((a, b) => a + b, 0);
    const ytd = { rev: 0, cost: 0, op: 0, nonop: 0, np: 0, npa: 0, ocf: 0, capex: 0, oinv: 0 };
    const quarters = y === last.year ? last.q : 4;
    for (let q = 1; q <= quarters; q++) {
      const end = periodEnd(y, q);
      const revQ = int((revenue * w[q - 1]) / wSum);
      const opmQ = opm + 0.015 * r.normal();
      const gmQ = Math.max(gmYear + 0.01 * r.normal(), opmQ + 0.01);
      let opQ = int(revQ * opmQ);
      if (opQ < 0) opQ = Math.max(opQ, -int(0.07 * Math.max(E, E0 * 0.2)));
      ytd.rev += revQ;
      ytd.cost += int(revQ * (1 - gmQ));
      ytd.op += opQ;
      ytd.nonop += int(revQ * 0.004 * r.normal());
      const shares = f.shares.totalAt(end);
      let inc = income(ytd, f.arch.tax, t.minority, shares);
      const min = f.minProfit.get(end);
      for (let k = 0; min !== undefined && inc.net_profit_attributable < min && k < 8; k++) {
        const gap = min - inc.net_profit_attributable;
        ytd.op += Math.ceil(gap / ((1 - f.arch.tax) * (1 - t.minority))) + 100;
        inc = income(ytd, f.arch.tax, t.minority, shares);
      }
      const npQ = inc.net_profit - ytd.np,
        npaQ = inc.net_profit_attributable - ytd.npa;
      ytd.np = inc.net_profit;
      ytd.npa = inc.net_profit_attributable;
      E += npaQ;
      while (flowAt < flows.length && flows[flowAt].date <= end) {
        if (flows[flowAt].date > prevEnd) E += flows[flowAt].amount;
        flowAt++;
      }
      prevEnd = end;
      const bal = balance(r, t, E, E0, shares);
      ytd.ocf += int(npQ * r.uniform(0.5, 1.5) + revQ * 0.05 * r.normal());
      ytd.capex += int(revQ * t.capex * r.uniform(0.5, 1.5));
      ytd.oinv += int(revQ * 0.02 * r.normal());
      const investing = ytd.oinv - ytd.capex;
      const cash: CashFlow = {
        operating_cash_flow: ytd.ocf,
        investing_cash_flow: investing,
        financing_cash_flow: bal.cash - cashYearStart - ytd.ocf - investing,
        capex: ytd.capex,
        free_cash_flow: ytd.ocf - ytd.capex,
        cash_begin: cashYearStart,
        cash_end: bal.cash,
      };
      if (q === 4) cashYearStart = bal.cash;
      const p = wanted.get(end);
      if (p) out.push({ period: p, income: inc, balance: bal, cash });
    }
  }
  return out;
}

function income(y: { rev: number; cost: number; op: number; nonop: number }, tax: number, minority: number, shares: number): Income {
  const total = y.op + y.nonop;
  const incomeTax = total > 0 ? int(total * tax) : 0;
  const net = total - incomeTax;
  const npa = net - int(net * minority);
  return {
    revenue: y.rev,
    operating_cost: y.cost,
    operating_profit: y.op,
    total_profit: total,
    income_tax: incomeTax,
    net_profit: net,
    net_profit_attributable: npa,
    basic_eps: ratio(npa, shares, 100)!,
  };
}

function balance(r: Rng, t: ReturnType<typeof traits>, E: number, E0: number, shares: number): Balance {
  const minority = E > 0 ? int(E * t.minorityEquity) : 0;
  const equity = E + minority;
  const liabilities = int(Math.max(equity, E0 * 0.2) * t.lev * Math.exp(0.05 * r.normal()));
  const assets = liabilities + equity;
  const current = int(assets * clamp(t.ca * Math.exp(0.04 * r.normal()), 0.05, 0.95));
  let sc = t.cash * Math.exp(0.1 * r.normal()),
    si = t.inv * Math.exp(0.05 * r.normal()),
    sr = t.rec * Math.exp(0.05 * r.normal());
  const sum = sc + si + sr;
  if (sum > 0.95) {
    sc *= 0.95 / sum;
    si *= 0.95 / sum;
    sr *= 0.95 / sum;
  }
  return {
    total_assets: assets,
    current_assets: current,
    cash: int(current * sc),
    receivables: int(current * sr),
    inventory: int(current * si),
    fixed_assets: int((assets - current) * t.fa),
    total_liabilities: liabilities,
    current_liabilities: int(liabilities * t.cl),
    equity_attributable: E,
    minority_interest: minority,
    total_equity: equity,
    share_capital: shares * 100,
  };
}
