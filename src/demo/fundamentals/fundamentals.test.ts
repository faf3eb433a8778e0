import { describe, expect, it } from 'vitest';
import { apportion } from './capital-flows.js';
import { forecastType } from './forecasts.js';
import { ShareHistory } from './shares.js';
import { deriveIndicators } from './indicators.js';
import { periods } from './periods.js';
import { closeDates } from '../../http/routes/fundamentals/capital-flows.js';
import { Rng } from '../random.js';
import { marketEpoch } from '../../lib/time.js';
import type { Balance, Income } from './statements.js';

const action = (exDate: number, ratios: { bonus?: number; transfer?: number; rightsRatio?: number; cash?: number }) => ({
  exDate,
  recordDate: exDate - 1,
  payDate: exDate,
  announceDate: exDate - 20,
  cash: 0,
  bonus: 0,
  transfer: 0,
  rightsRatio: 0,
  rightsPrice: 0,
  ...ratios,
});

describe('fundamentals generator units', () => {
  it('apportions exactly, in proportion', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(1_000_003, [0.1, 0.2, 0.3, 0.4]).reduce((a, b) => a + b)).toBe(1_000_003);
    expect(apportion(0, [1, 2])).toEqual([0, 0]);
  });

  it('unwinds share counts through bonus, transfer and rights issues', () => {
    const h = new ShareHistory(1_300_000_000, 650_000_000, [action(20240610, { transfer: 300_000 }), action(20250610, { cash: 500 })]);
    expect(h.totalAt(20250101)).toBe(1_300_000_000);
    expect(h.totalAt(20240610)).toBe(1_300_000_000);
    expect(h.totalAt(20240607)).toBe(1_000_000_000);
    expect(h.floatAt(20240607)).toBe(500_000_000);
  });

  it('classifies forecasts by range and last year', () => {
    expect(forecastType(-5, 10, 100)).toBe('uncertain');
    expect(forecastType(-50, -10, -20)).toBe('continued_loss');
    expect(forecastType(-50, -10, 20)).toBe('loss');
    expect(forecastType(10, 50, -20)).toBe('turnaround');
    expect(forecastType(140, 160, 100)).toBe('increase');
    expect(forecastType(100, 120, 100)).toBe('slight_increase');
    expect(forecastType(60, 90, 100)).toBe('slight_decrease');
    expect(forecastType(20, 40, 100)).toBe('decrease');
  });

  it('derives indicators, null where a denominator is zero or missing', () => {
    const inc: Income = {
      revenue: 0,
      operating_cost: 0,
      operating_profit: -100,
      total_profit: -100,
      income_tax: 0,
      net_profit: -100,
      net_profit_attributable: -90,
      basic_eps: 0,
    };
    const bal = {
      total_assets: 1000,
      current_assets: 500,
      cash: 100,
      receivables: 100,
      inventory: 100,
      fixed_assets: 300,
      total_liabilities: 1200,
      current_liabilities: 0,
      equity_attributable: -250,
      minority_interest: 50,
      total_equity: -200,
      share_capital: 10_000,
    } satisfies Balance;
    const x = deriveIndicators(inc, bal, undefined);
    expect(x).toMatchObject({
      gross_margin: null,
      net_margin: null,
      roe: null,
      current_ratio: null,
      revenue_yoy: null,
      debt_to_assets: 12000,
    });
    expect(x.eps).toBe(-90); // -90 fen over 100 shares: -0.0090 CNY per share, in 1/10000 CNY
    expect(deriveIndicators({ ...inc, net_profit_attributable: 150 }, bal, { ...inc, net_profit_attributable: -100 }).net_profit_yoy).toBe(
      25000,
    );
  });

  it('announces reports by the deadlines, q1 never before the annual report, annual before its dividend', () => {
    const ps = periods(Rng.from(1, 'p'), 20100101, 20230103, 20261120, [action(20240606, { cash: 1000 })]);
    expect(ps[0].date).toBe(20200331);
    expect(ps.at(-1)!.date).toBe(20260930);
    const annual23 = ps.find((p) => p.date === 20231231)!;
    expect(annual23.announce).toBeLessThanOrEqual(20240516);
    for (const p of ps)
      if (p.q === 1) expect(p.announce).toBeGreaterThanOrEqual(ps.find((x) => x.date === (p.year - 1) * 10000 + 1231)?.announce ?? 0);
  });

  it('selects flow days by their 15:00 close', () => {
    const ms = (d: number, min: number) => marketEpoch(d, min) * 1000;
    expect(closeDates({ fromMs: ms(20250603, 900), toMs: ms(20250603, 900) })).toEqual({ from: 20250603, to: 20250603 });
    expect(closeDates({ fromMs: ms(20250603, 900) + 1, toMs: ms(20250605, 899) })).toEqual({ from: 20250604, to: 20250604 });
    expect(closeDates({ fromMs: -8.64e15, toMs: 8.64e15 }).from).toBeLessThan(20000101);
  });
});
