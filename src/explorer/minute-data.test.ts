import { describe, expect, it } from 'vitest';
import { averageLine, lastDays, symmetricRange } from './minute-data.js';

const bar = (trade_date: string, volume: number, amount: string | null) => ({ timestamp: '', trade_date, close: '0', volume, amount });

describe('分时', () => {
  it("draws each day's average price as its running amount over its running volume", () => {
    const bars = [
      bar('2026-11-19', 180200, '258291472.00'),
      bar('2026-11-19', 96100, '137747035.00'),
      bar('2026-11-20', 0, '0.00'),
      bar('2026-11-20', 100, '1234.56'),
      bar('2026-11-20', 100, null),
      bar('2026-11-20', 100, '1.00'),
    ];
    // (258291472 + 137747035) / (180200 + 96100) = 1433.3641...
    expect(averageLine(bars, 2)).toEqual(['1433.36', '1433.36', null, '12.35', null, null]);
    expect(averageLine(bars.slice(0, 2), 3)).toEqual(['1433.360', '1433.364']);
  });
  it('keeps the last days', () => {
    const bars = ['2026-11-18', '2026-11-19', '2026-11-19', '2026-11-20'].map((d) => bar(d, 1, '1'));
    expect(lastDays(bars, 2).map((b) => b.trade_date)).toEqual(['2026-11-19', '2026-11-19', '2026-11-20']);
  });
  it('scales symmetrically around the previous close', () => {
    expect(symmetricRange([10.5, 9.8], 10)).toEqual({ minValue: 9.5, maxValue: 10.5 });
    expect(symmetricRange([], 10).maxValue).toBeCloseTo(10.02);
  });
});
