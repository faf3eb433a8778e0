import { isFlat, toValues, windowed } from './rolling.js';
import { priceUnits } from './series.js';
import type { Indicator, Series } from './types.js';

/**
 * CCI (14): TYP = (H + L + C)/3; CCI = (TYP − MA(TYP,N)) / (0.015 · AVEDEV(TYP,N)), AVEDEV the
 * mean absolute deviation from the window's mean. Present from the 14th bar. A flat window (the
 * typical price the same on every bar) gives 0, as TA-Lib does. Flatness is decided exactly, on
 * H + L + C in price units (the decimals' integers): the doubles' mean deviation of a flat window
 * is often a residue of 1e-15, not 0, which made CCI ±66.6667 (the residue over itself).
 */
export function cciColumn(s: Series, n = 14) {
  const typ = s.close.map((c, i) => (s.high[i] + s.low[i] + c) / 3);
  const flat = windowed(
    s.close.map((c, i) => priceUnits(s.high[i] + s.low[i] + c)),
    n,
    (w) => (isFlat(w) ? 1 : 0),
  );
  const cci = windowed(typ, n, (w) => {
    const m = w.reduce((a, b) => a + b, 0) / n;
    const md = w.reduce((a, x) => a + Math.abs(x - m), 0) / n;
    return md === 0 ? 0 : (w[n - 1] - m) / (0.015 * md);
  });
  return cci.map((v, i) => (flat[i] === 1 ? 0 : v));
}
export const cci: Indicator = {
  id: 'cci',
  keys: ['cci'],
  lookback: 13,
  compute: (s) => toValues(s.close.length, { cci: cciColumn(s) }),
};
