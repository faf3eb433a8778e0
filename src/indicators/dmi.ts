import { trueRange } from './atr.js';
import { ma, movingSum, toValues, type Column } from './rolling.js';
import type { Indicator, Series } from './types.js';

/** Per-bar +DM and −DM (HD or LD where it is positive and the larger, else 0); from index 1. */
export function directionalMovement(s: Series): { plus: Column; minus: Column } {
  const hd = s.high.map((h, i) => (i === 0 ? undefined : h - s.high[i - 1]));
  const ld = s.low.map((l, i) => (i === 0 ? undefined : s.low[i - 1] - l));
  return {
    plus: hd.map((h, i) => (h === undefined ? undefined : h > 0 && h > (ld[i] as number) ? h : 0)),
    minus: ld.map((l, i) => (l === undefined ? undefined : l > 0 && l > (hd[i] as number) ? l : 0)),
  };
}

/**
 * DMI (Tongdaxin's classic formula, N = 14, M = 6):
 *   MTR := SUM(TR,N);  HD := H − REF(H,1);  LD := REF(L,1) − L;
 *   DMP := SUM(IF(HD>0 AND HD>LD, HD, 0), N);  DMM := SUM(IF(LD>0 AND LD>HD, LD, 0), N);
 *   PDI: DMP·100/MTR;  MDI: DMM·100/MTR;
 *   ADX: MA(ABS(MDI−PDI)/(MDI+PDI)·100, M);  ADXR: (ADX + REF(ADX,M))/2;
 * These are running SUMs, not Wilder's smoothing (TA-Lib / StockCharts ADX) nor the EXPMEMA
 * variant some later Tongdaxin builds ship, so DMI has a finite lookback and no state: pdi and
 * mdi are present from index 14 (14 bars of HD/LD need 15 bars), adx from index 19, adxr from
 * index 25. Degenerate windows: MTR = 0 (nothing moved) gives PDI = MDI = 0, and
 * PDI + MDI = 0 gives DX = 0 (no direction).
 */
export function dmiColumns(s: Series, n = 14, m = 6): Record<string, Column> {
  const { plus, minus } = directionalMovement(s);
  const mtr = movingSum(trueRange(s), n),
    dmp = movingSum(plus, n),
    dmm = movingSum(minus, n);
  const di = (x: Column): Column => x.map((v, i) => (v === undefined ? undefined : mtr[i] === 0 ? 0 : (v * 100) / (mtr[i] as number)));
  const pdi = di(dmp),
    mdi = di(dmm);
  const dx = pdi.map((p, i) => {
    if (p === undefined) return undefined;
    const q = mdi[i] as number;
    return p + q === 0 ? 0 : (Math.abs(q - p) / (q + p)) * 100;
  });
  const adx = ma(dx, m);
  const adxr = adx.map((a, i) => (a === undefined || i < m || adx[i - m] === undefined ? undefined : (a + (adx[i - m] as number)) / 2));
  return { pdi, mdi, adx, adxr };
}

export const dmi: Indicator = {
  id: 'dmi',
  keys: ['pdi', 'mdi', 'adx', 'adxr'],
  lookback: 25,
  compute: (s) => toValues(s.close.length, dmiColumns(s)),
};
