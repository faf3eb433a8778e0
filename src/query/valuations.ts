/**
 * An equity's daily valuation as known at each close (listValuations): the day's close and
 * volume, the share counts in force (share capital, else the instrument's current counts), and
 * the statements and dividends announced by then (market/valuation.ts has the arithmetic).
 */
import type { InstrumentRow } from '../store/catalog.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { KeysetReader } from '../store/readers/keyset.js';
import type { FundamentalsReader } from '../store/readers/fundamentals.js';
import { compiled } from '../datasets/registry.js';
import { balanceSheets, incomeStatements } from '../datasets/fundamentals.js';
import { shareCapital } from '../datasets/share-capital.js';
import { dividendYield, lastAnnual, latest, marketValue, multiple, ttm, type Reported } from '../market/valuation.js';
import { turnoverRate } from './derived-fields.js';

const INCOME = compiled(incomeStatements),
  BALANCE = compiled(balanceSheets),
  SHARES = compiled(shareCapital);
const ALL = { after: null, limit: 1_000_000 };

export interface ValuationDay {
  date: number;
  close: number;
  totalShares: number | null;
  floatShares: number | null;
  totalMarketValue: bigint | null;
  floatMarketValue: bigint | null;
  turnoverRate: string | null;
  pe: string | null;
  peTtm: string | null;
  pb: string | null;
  psTtm: string | null;
  dividendYieldTtm: string | null;
}

export class Valuations {
  constructor(
    private readonly bars: MarketDataReader,
    private readonly keyset: KeysetReader,
    private readonly fundamentals: FundamentalsReader,
  ) {}

  /** The days with a bar in from..to after `after`, at most `limit`. */
  async days(inst: InstrumentRow, from: number, to: number, after: number | null, limit: number): Promise<ValuationDay[]> {
    const bars = await this.bars.dailyBars(inst.inst, from, to, after, limit);
    if (!bars.length) return [];
    const [income, balance, shares, dividends] = await Promise.all([
      this.keyset.rows(INCOME, inst.inst, null, ALL),
      this.keyset.rows(BALANCE, inst.inst, null, ALL),
      this.keyset.rows(SHARES, inst.inst, null, ALL),
      this.fundamentals.dividends(inst.inst, 0, 99991231, ALL),
    ]);
    const period = (value: (r: any) => number) => (r: any) =>
      ({ reportDate: r.report_date, type: r.report_type, announce: r.announce_date, value: Number(value(r)) }) satisfies Reported;
    const profit = income.map(period((r) => r.net_profit_attributable)),
      revenue = income.map(period((r) => r.revenue)),
      equity = balance.map(period((r) => r.equity_attributable));
    /** The counts in force on `day` (`before`: the day before it), else the instrument's. */
    const countsOn = (day: number, before = false) => {
      const c = shares.filter((s) => (before ? s.change_date < day : s.change_date <= day)).at(-1);
      return c ? { total: Number(c.total_shares), float: Number(c.float_shares) } : { total: inst.total_shares, float: inst.float_shares };
    };
    const paid = dividends
      .filter((d) => d.progress === 'implemented' && d.ex_date !== null && Number(d.cash_per_share) > 0)
      .map((d) => ({ ex: Number(d.ex_date), cash: Number(d.cash_per_share), shares: countsOn(Number(d.ex_date), true).total }));
    return bars.map((b) => {
      const { total, float } = countsOn(b.date);
      const mv = total === null ? null : marketValue(b.close, total);
      const year = paid.filter((p) => p.ex > b.date - 10000 && p.ex <= b.date && p.shares !== null) as { cash: number; shares: number }[];
      return {
        date: b.date,
        close: b.close,
        totalShares: total,
        floatShares: float,
        totalMarketValue: mv,
        floatMarketValue: float === null ? null : marketValue(b.close, float),
        turnoverRate: turnoverRate(b.volume, float),
        pe: mv === null ? null : multiple(mv, lastAnnual(profit, b.date)),
        peTtm: mv === null ? null : multiple(mv, ttm(profit, b.date)),
        pb: mv === null ? null : multiple(mv, latest(equity, b.date)),
        psTtm: mv === null ? null : multiple(mv, ttm(revenue, b.date)),
        dividendYieldTtm: total === null ? null : dividendYield(year, b.close, total),
      };
    });
  }
}
