import { runStream, type Indicator, type Stream } from './types.js';

/**
 * RSI (Tongdaxin, 6/12/24): with d = C − REF(C,1),
 *   RSI(N) = SMA(MAX(d,0),N,1) / SMA(ABS(d),N,1) · 100,  SMA(X,N,1): Y = (X + (N−1)·Y′)/N,
 * each SMA seeded with its first input (Tongdaxin's SMA starts at the first defined X). d needs
 * a previous close, so the keys are present from the second bar (index 1). When nothing has
 * moved yet (both SMAs 0) RSI is taken as 50. Recursive (lookback Infinity). This is Wilder's
 * smoothing with a different seed than TA-Lib's / Stock.Indicators' (SMA of the first N
 * changes); they agree once the seed has decayed (tested).
 */
export const RSI_PERIODS = [6, 12, 24];

export interface RsiState {
  prevClose?: number;
  up: number[];
  abs: number[];
}

export function rsiStream(periods: number[] = RSI_PERIODS): Stream<RsiState> {
  const keys = periods.map((n) => `rsi${n}`);
  const stream: Stream<RsiState> = {
    initState: () => ({ up: [], abs: [] }),
    step(st, p) {
      const state = stream.advance!(st, p);
      const values: Record<string, number> = {};
      // The first bar has no change yet: no values.
      if (st.prevClose !== undefined)
        keys.forEach((k, i) => {
          values[k] = state.abs[i] === 0 ? 50 : (100 * state.up[i]) / state.abs[i];
        });
      return { state, values };
    },
    advance(st, p) {
      if (st.prevClose === undefined) return { prevClose: p.close, up: [], abs: [] };
      const d = p.close - st.prevClose;
      const first = st.up.length === 0;
      const up = new Array<number>(periods.length),
        abs = new Array<number>(periods.length);
      for (let i = 0; i < periods.length; i++) {
        const n = periods[i];
        up[i] = first ? Math.max(d, 0) : (Math.max(d, 0) + (n - 1) * st.up[i]) / n;
        abs[i] = first ? Math.abs(d) : (Math.abs(d) + (n - 1) * st.abs[i]) / n;
      }
      return { prevClose: p.close, up, abs };
    },
  };
  return stream;
}

const stream = rsiStream();

export const rsi: Indicator = {
  id: 'rsi',
  keys: RSI_PERIODS.map((n) => `rsi${n}`),
  lookback: Infinity,
  compute: (s) => runStream(stream, s),
  stream,
};
