/**
 * What the statements must agree with, read off the core demo's rows: the market value they
 * scale to, the profits the paid dividends require, the losses behind special treatment, and
 * the equity that dividends take out and rights issues bring in.
 */
import type { CompanyFacts } from './statements.js';
import type { EquityIn } from './inputs.js';
import { archetypeOf } from './archetypes.js';
import { ShareHistory } from './shares.js';
import { fiscalYearOf } from './periods.js';
import { int, yearOf } from './util.js';

/** Largest payout of a cash dividend: at least 1/0.8 of it must be earned in its fiscal year. */
export const MAX_PAYOUT = 0.8;

/** Total cash (fen) an action pays: cash per share (1/100000 CNY) × shares on the record date. */
export const cashPaid = (cash: number, shares: number): number => int((cash * shares) / 1000);

export function companyFacts(e: EquityIn): CompanyFacts {
  const shares = new ShareHistory(e.totalShares, e.floatShares, e.actions);
  const closes = e.bars.map((b) => b.close).sort((a, b) => a - b);
  const close = closes.length > 0 ? closes[closes.length >> 1] : 10_000;
  const industry = e.classifications.find((c) => c.type === 'industry')?.id.replace(/^industry\./, '');
  const minProfit = new Map<number, number>();
  const need = (year: number, fen: number) => {
    const key = year * 10000 + 1231;
    minProfit.set(key, Math.max(minProfit.get(key) ?? 0, fen));
  };
  const equityFlows: { date: number; amount: number }[] = [];
  for (const a of e.actions) {
    const before = shares.totalAt(a.recordDate);
    if (a.cash > 0) {
      const paid = cashPaid(a.cash, before);
      need(fiscalYearOf(a), Math.ceil(paid / MAX_PAYOUT) + 1);
      equityFlows.push({ date: a.payDate ?? a.exDate, amount: -paid });
    } else if (a.bonus > 0) need(fiscalYearOf(a), 1);
    if (a.rightsRatio > 0) equityFlows.push({ date: a.exDate, amount: int((((before * a.rightsRatio) / 1e6) * a.rightsPrice) / 10) });
  }
  // Special treatment follows a loss in the fiscal year before it starts; leaving it needs a profit.
  const lossYears = new Set<number>();
  for (const s of e.st) {
    lossYears.add(yearOf(s.start) - 1);
    if (s.end !== null) {
      for (let y = yearOf(s.start); y < yearOf(s.end) - 1; y++) lossYears.add(y);
      need(yearOf(s.end) - 1, 1);
    }
  }
  return {
    value: Math.max(1e9, (close * e.totalShares) / 10),
    arch: archetypeOf(industry),
    shares,
    minProfit,
    lossYears,
    equityFlows,
  };
}
