import { ma, toValues } from './rolling.js';
import type { Indicator } from './types.js';

/**
 * BIAS (6/12/24): 100·(C − MA(C,N))/MA(C,N). biasN is present from the N-th bar, and absent
 * where MA is 0 (possible only on forward-adjusted prices that went to zero).
 */
export const BIAS_PERIODS = [6, 12, 24];

export const bias: Indicator = {
  id: 'bias',
  keys: BIAS_PERIODS.map((n) => `bias${n}`),
  lookback: Math.max(...BIAS_PERIODS) - 1,
  compute(s) {
    const cols = BIAS_PERIODS.map((n) => {
      const m = ma(s.close, n);
      return [`bias${n}`, m.map((v, i) => (v === undefined || v === 0 ? undefined : (100 * (s.close[i] - v)) / v))];
    });
    return toValues(s.close.length, Object.fromEntries(cols));
  },
};
