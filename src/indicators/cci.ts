import { toValues, windowed } from './rolling.js';
import type { Indicator, Series } from './types.js';

/**
 * CCI (14): TYP = (H + L + C)/3; CCI = (TYP − MA(TYP,N)) / (0.015 · AVEDEV(TYP,N)), AVEDEV the
 * mean absolute deviation from the window's mean. Present from the 14th bar. A window whose
 * mean deviation is 0 (TYP constant) gives 0, as TA-Lib does.
 */
export function cciColumn(s: Series, n = 14) {
  const typ = s.close.map((c, i) => (s.high[i] + s.low[i] + c) / 3);
  return windowed(typ, n, (w) => {
    const m = w.reduce((a, b) => a + b, 0) / n;
    const md = w.reduce((a, x) => a + Math.abs(x - m), 0) / n;
    return md === 0 ? 0 : (w[n - 1] - m) / (0.015 * md);
  });
}

export const cci: Indicator = {
  id: 'cci',
  keys: ['cci'],
  lookback: 13,
  compute: (s) => toValues(s.close.length, { cci: cciColumn(s) }),
};
