import { describe, expect, it } from 'vitest';
import { dividendYield, lastAnnual, latest, marketValue, multiple, quotient, ttm, type Reported } from './valuation.js';

// Worked by hand. Net profit (fen) of a company reporting each quarter, cumulative from January 1.
const profit: Reported[] = [
  { reportDate: 20231231, type: 'annual', announce: 20240320, value: 1_000_000_00 },
  { reportDate: 20240331, type: 'q1', announce: 20240425, value: 300_000_00 },
  { reportDate: 20240630, type: 'h1', announce: 20240820, value: 550_000_00 },
  { reportDate: 20230630, type: 'h1', announce: 20230818, value: 450_000_00 },
  { reportDate: 20230331, type: 'q1', announce: 20230427, value: 200_000_00 },
];

describe('valuation', () => {
  it('takes only what was announced by the day: TTM, the last annual, the latest', () => {
    // Before the 2023 annual report (announced 2024-03-20): h1 2023 is the latest, and no annual 2022 → no TTM.
    expect(ttm(profit, 20240319)).toBeNull();
    expect(lastAnnual(profit, 20240319)).toBeNull();
    // The day it is announced: TTM = the annual itself.
    expect(ttm(profit, 20240320)).toBe(1_000_000_00);
    // After q1 2024: 300,000 + 1,000,000 − 200,000 = 1,100,000 CNY.
    expect(ttm(profit, 20240425)).toBe(1_100_000_00);
    // After h1 2024: 550,000 + 1,000,000 − 450,000.
    expect(ttm(profit, 20240820)).toBe(1_100_000_00);
    expect(lastAnnual(profit, 20240820)).toBe(1_000_000_00);
    expect(latest(profit, 20240424)).toBe(1_000_000_00);
  });

  it('takes each period as it was known by the day: a restatement from its announcement, the original before', () => {
    // h1 2024 restated on 2024-09-15 (500,000 instead of 550,000), and the 2023 annual restated on 2024-05-10.
    const restated: Reported[] = [
      ...profit,
      { reportDate: 20240630, type: 'h1', announce: 20240915, value: 500_000_00 },
      { reportDate: 20231231, type: 'annual', announce: 20240510, value: 900_000_00 },
    ];
    // Before either restatement: as without them.
    expect(ttm(restated, 20240320)).toBe(1_000_000_00);
    expect(ttm(restated, 20240425)).toBe(1_100_000_00);
    // The restated annual from 2024-05-10: TTM after q1 = 300,000 + 900,000 − 200,000.
    expect(ttm(restated, 20240509)).toBe(1_100_000_00);
    expect(ttm(restated, 20240510)).toBe(1_000_000_00);
    expect(lastAnnual(restated, 20240510)).toBe(900_000_00);
    // h1 2024 as first announced until 2024-09-14: 550,000 + 900,000 − 450,000; restated from 2024-09-15.
    expect(ttm(restated, 20240914)).toBe(1_000_000_00);
    expect(ttm(restated, 20240915)).toBe(950_000_00);
    expect(latest(restated, 20240914)).toBe(550_000_00);
    expect(latest(restated, 20240915)).toBe(500_000_00);
    // The order the versions come in does not matter.
    expect(ttm([...restated].reverse(), 20240914)).toBe(1_000_000_00);
    expect(ttm([...restated].reverse(), 20240915)).toBe(950_000_00);
  });

  it('divides exactly, half away from zero', () => {
    // 12.34 × 100,000,000 shares = 1,234,000,000.00 CNY.
    const mv = marketValue(12_340, 100_000_000);
    expect(mv).toBe(123_400_000_000n);
    // PE on 1,100,000 CNY of TTM profit: 1,121.8181… → 1121.8182.
    expect(multiple(mv, 1_100_000_00)).toBe('1121.8182');
    expect(multiple(mv, -5)).toBeNull();
    expect(multiple(mv, null)).toBeNull();
    expect(quotient(5n, 2n, 0)).toBe('3');
    expect(quotient(-5n, 2n, 0)).toBe('-3');
    expect(quotient(1n, 0n, 2)).toBeNull();
  });

  it('yields the year’s cash over the market value, in percent', () => {
    // 0.50 CNY a share on 100,000,000 shares at a close of 12.34: 4.0519…% → 4.0519.
    expect(dividendYield([{ cash: 50_000, shares: 100_000_000 }], 12_340, 100_000_000)).toBe('4.0519');
    // Paid on fewer shares before a bonus issue: 0.30 on 80,000,000 = 24,000,000 CNY over 1,234,000,000.
    expect(dividendYield([{ cash: 30_000, shares: 80_000_000 }], 12_340, 100_000_000)).toBe('1.9449');
    expect(dividendYield([], 12_340, 100_000_000)).toBe('0.0000');
  });
});
