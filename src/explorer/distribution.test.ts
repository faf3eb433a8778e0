import { describe, expect, it } from 'vitest';
import { distribution } from './distribution.js';

const row = (pct_change: string | null, close = '10.00', limit_up: string | null = '11.00', limit_down: string | null = '9.00') => ({
  close,
  pct_change,
  limit_up,
  limit_down,
});

describe("a day's distribution of changes", () => {
  it('puts each equity in one bin, limits first', () => {
    const bins = distribution([
      row('9.98', '11.00'),
      row('-10.00', '9.00'),
      row('12.00', '11.20', null, null),
      row('-7.50'),
      row('-7.00'),
      row('-0.01'),
      row('0.00'),
      row('0.99'),
      row('1.00'),
      row('7.00'),
      row(null),
    ]);
    expect(Object.fromEntries(bins.filter((b) => b.count).map((b) => [b.label, b.count]))).toEqual({
      涨停: 1,
      跌停: 1,
      '>7': 2,
      '<-7': 1,
      '-7~-5': 1,
      '-1~0': 1,
      平: 1,
      '0~1': 1,
      '1~3': 1,
    });
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(10);
  });
});
