import { ma as movingAverage, toValues } from './rolling.js';
import type { Indicator, Series } from './types.js';

/**
 * MA: simple moving averages of the close, MA(C,N) for N = 5, 10, 20, 30, 60.
 * maN is present from the N-th bar on (index N-1).
 */
export const MA_PERIODS = [5, 10, 20, 30, 60];

export const ma: Indicator = {
  id: 'ma',
  keys: MA_PERIODS.map((n) => `ma${n}`),
  lookback: Math.max(...MA_PERIODS) - 1,
  compute(s: Series) {
    return toValues(s.close.length, Object.fromEntries(MA_PERIODS.map((n) => [`ma${n}`, movingAverage(s.close, n)])));
  },
};
