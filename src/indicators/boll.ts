import { isFlat, ma, mean, toValues, windowed } from './rolling.js';
import type { Indicator, Series } from './types.js';

/**
 * BOLL (20, 2): MID = MA(C,20); UPPER/LOWER = MID ± 2·σ, σ the population standard deviation
 * of the same 20 closes (CONTRACT.md §2; TA-Lib BBANDS and StockCharts use it too, whereas
 * Tongdaxin's own BOLL formula calls STD, the sample deviation). Present from the 20th bar.
 * Twenty equal closes give σ = 0 exactly (upper = mid = lower = the close), not a residue.
 */
export function populationStd(w: number[]): number {
  if (isFlat(w)) return 0;
  const m = mean(w);
  return Math.sqrt(w.reduce((a, x) => a + (x - m) * (x - m), 0) / w.length);
}

export function bollinger(s: Series, n = 20, k = 2) {
  const mid = ma(s.close, n),
    sd = windowed(s.close, n, populationStd);
  const upper = mid.map((m, i) => (m === undefined ? undefined : m + k * (sd[i] as number)));
  const lower = mid.map((m, i) => (m === undefined ? undefined : m - k * (sd[i] as number)));
  return toValues(s.close.length, { mid, upper, lower });
}

export const boll: Indicator = {
  id: 'boll',
  keys: ['mid', 'upper', 'lower'],
  lookback: 19,
  compute: (s) => bollinger(s),
};
