import { hhv, llv, toValues, type Column } from './rolling.js';
import type { Indicator, Series } from './types.js';

/**
 * WR (Tongdaxin, 6 and 10): WR(N) = 100·(HHV(H,N) − C)/(HHV(H,N) − LLV(L,N)), 0..100 (the
 * Williams %R of TA-Lib / StockCharts is its negative). wrN is present from the N-th bar.
 * A flat window (HHV = LLV) gives 50, as KDJ's RSV does (WR = 100 − RSV).
 */
export const WR_PERIODS = [6, 10];

export function williams(s: Series, n: number): Column {
  const hh = hhv(s.high, n),
    ll = llv(s.low, n);
  return s.close.map((c, i) => {
    const h = hh[i],
      l = ll[i];
    if (h === undefined || l === undefined) return undefined;
    return h === l ? 50 : (100 * (h - c)) / (h - l);
  });
}

export const wr: Indicator = {
  id: 'wr',
  keys: WR_PERIODS.map((n) => `wr${n}`),
  lookback: Math.max(...WR_PERIODS) - 1,
  compute: (s) => toValues(s.close.length, Object.fromEntries(WR_PERIODS.map((n) => [`wr${n}`, williams(s, n)]))),
};
