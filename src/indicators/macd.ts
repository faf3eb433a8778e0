import { emaNext } from './ema.js';
import { runStream, type Indicator, type Stream } from './types.js';

/**
 * MACD (Tongdaxin, 12/26/9): DIF = EMA(C,12) − EMA(C,26); DEA = EMA(DIF,9);
 * MACD = 2·(DIF − DEA). Every EMA is seeded with its first input (DIF starts at 0, so does
 * DEA), hence all three keys are present from the first bar. Recursive (lookback Infinity).
 */
export interface MacdState {
  e12?: number;
  e26?: number;
  dea?: number;
}

export const macdStream: Stream<MacdState> = {
  initState: () => ({}),
  step(st, p) {
    const state = macdStream.advance!(st, p);
    const dif = state.e12! - state.e26!,
      dea = state.dea!;
    return { state, values: { dif, dea, macd: 2 * (dif - dea) } };
  },
  advance(st, p) {
    const e12 = emaNext(st.e12, p.close, 12),
      e26 = emaNext(st.e26, p.close, 26);
    return { e12, e26, dea: emaNext(st.dea, e12 - e26, 9) };
  },
};

export const macd: Indicator = {
  id: 'macd',
  keys: ['dif', 'dea', 'macd'],
  lookback: Infinity,
  compute: (s) => runStream(macdStream, s),
  stream: macdStream,
};
