import { runStream, type Indicator, type Stream } from './types.js';

/**
 * EMA (Tongdaxin): EMA(X,N) = (2·X + (N−1)·Y′)/(N+1), seeded with the first X, so ema12 and
 * ema26 are present from the first bar. Recursive: a value depends on every bar since the
 * first one (the weight of a bar k bars back is (N−1)/(N+1))^k), hence lookback Infinity and
 * a resumable `stream`. TA-Lib and Stock.Indicators seed with the SMA of the first N closes
 * instead; the two agree once the seed's weight has decayed (tested).
 */
export const EMA_PERIODS = [12, 26];

/** One EMA step; `prev` undefined means this is the first value (the seed). */
export function emaNext(prev: number | undefined, x: number, n: number): number {
  return prev === undefined ? x : (2 * x + (n - 1) * prev) / (n + 1);
}

export interface EmaState {
  e12?: number;
  e26?: number;
}

export const emaStream: Stream<EmaState> = {
  initState: () => ({}),
  step(st, p) {
    const state = emaStream.advance!(st, p);
    return { state, values: { ema12: state.e12!, ema26: state.e26! } };
  },
  advance: (st, p) => ({ e12: emaNext(st.e12, p.close, 12), e26: emaNext(st.e26, p.close, 26) }),
};

export const ema: Indicator = {
  id: 'ema',
  keys: ['ema12', 'ema26'],
  lookback: Infinity,
  compute: (s) => runStream(emaStream, s),
  stream: emaStream,
};
