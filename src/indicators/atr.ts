import { ma, toValues, type Column } from './rolling.js';
import type { Indicator, Series } from './types.js';

/**
 * ATR (Tongdaxin, 14): TR = MAX(H − L, |REF(C,1) − H|, |REF(C,1) − L|); ATR = MA(TR,14), a
 * simple mean (not Wilder's smoothing that TA-Lib's ATR uses). tr needs a previous close, so
 * it is present from the second bar; atr from the 15th (index 14).
 */
export function trueRange(s: Series): Column {
  return s.close.map((_, i) => {
    if (i === 0) return undefined;
    const pc = s.close[i - 1];
    return Math.max(s.high[i] - s.low[i], Math.abs(pc - s.high[i]), Math.abs(pc - s.low[i]));
  });
}

export const atr: Indicator = {
  id: 'atr',
  keys: ['tr', 'atr'],
  lookback: 14,
  compute(s) {
    const tr = trueRange(s);
    return toValues(s.close.length, { tr, atr: ma(tr, 14) });
  },
};
