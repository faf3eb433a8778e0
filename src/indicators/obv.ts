import { runStream, type Indicator, type Stream } from './types.js';

/**
 * OBV, accumulated from the first bar: 0 on the first bar, then + volume on an up close,
 * − volume on a down close, unchanged on an unchanged close (Tongdaxin's
 * SUM(IF(C>REF(C,1),V,IF(C<REF(C,1),−V,0)),0); Stock.Indicators and StockCharts start at 0 the
 * same way, TA-Lib starts at the first bar's volume, a constant offset). Recursive.
 */
export interface ObvState {
  prevClose?: number;
  obv: number;
}

export const obvStream: Stream<ObvState> = {
  initState: () => ({ obv: 0 }),
  step(st, p) {
    const state = obvStream.advance!(st, p);
    return { state, values: { obv: state.obv } };
  },
  advance(st, p) {
    const prev = st.prevClose;
    return { prevClose: p.close, obv: prev === undefined ? 0 : st.obv + (p.close > prev ? p.volume : p.close < prev ? -p.volume : 0) };
  },
};

export const obv: Indicator = {
  id: 'obv',
  keys: ['obv'],
  lookback: Infinity,
  compute: (s) => runStream(obvStream, s),
  stream: obvStream,
};
