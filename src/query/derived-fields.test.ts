import { describe, expect, it } from 'vitest';
import { dayChange, netInflowRatio, pctChange, suspended, turnoverRate } from './derived-fields.js';

// Prices in the stores' unit (1/1000 CNY), worked by hand.
describe('derived fields', () => {
  it('change and percent change against the reference price', () => {
    // 10.00 → 11.00: +1.00, +10.00%; 12.34 → 11.11: -1.23, -9.97% (9.9676… half away from zero).
    expect([dayChange(11_000, 10_000), pctChange(11_000, 10_000)]).toEqual([1_000, '10.00']);
    expect([dayChange(11_110, 12_340), pctChange(11_110, 12_340)]).toEqual([-1_230, '-9.97']);
    // 3.00 → 3.01: +0.333…% rounds to 0.33; 2.00 → 2.01: +0.5% exactly.
    expect(pctChange(3_010, 3_000)).toBe('0.33');
    expect(pctChange(2_010, 2_000)).toBe('0.50');
    // Unchanged, and no reference (a listing day): no change to show.
    expect([dayChange(5_000, 5_000), pctChange(5_000, 5_000)]).toEqual([0, '0.00']);
    expect([dayChange(5_000, null), pctChange(5_000, null), pctChange(5_000, 0)]).toEqual([null, null, null]);
  });

  it('turnover against the float, and suspension', () => {
    // 1,234,500 of 100,000,000 shares: 1.2345% → 1.23; 5 of 200: 2.50; half a basis point up: 0.005% → 0.01.
    expect(turnoverRate(1_234_500, 100_000_000)).toBe('1.23');
    expect(turnoverRate(5, 200)).toBe('2.50');
    expect(turnoverRate(50, 1_000_000)).toBe('0.01');
    expect([turnoverRate(100, null), turnoverRate(100, 0)]).toEqual([null, null]);
    expect([suspended(null), suspended({ close: 1 })]).toEqual([true, false]);
  });

  it("a net inflow's share of the day's amount, exactly", () => {
    // 1,234.56 of 10,000.00 CNY (fen): 12.3456% → 12.35; an outflow of 1 fen in 3 fen: -33.33%;
    // half a basis point exactly (1 of 20,000) rounds away from zero both ways.
    expect(netInflowRatio(123_456, 1_000_000)).toBe('12.35');
    expect(netInflowRatio(-1, 3)).toBe('-33.33');
    expect([netInflowRatio(1, 20_000), netInflowRatio(-1, 20_000)]).toEqual(['0.01', '-0.01']);
    // Past 2^53 in the product: 9,007,199,254,740,991 fen net of itself is 100.00.
    expect(netInflowRatio(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe('100.00');
    expect(netInflowRatio(0, 0)).toBeNull();
  });
});
