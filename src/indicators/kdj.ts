import { runStream, type Indicator, type Stream, type Values } from './types.js';

/**
 * KDJ (Tongdaxin, 9/3/3):
 *   RSV = 100·(C − LLV(L,9)) / (HHV(H,9) − LLV(L,9))
 *   K = SMA(RSV,3,1) = (RSV + 2·K′)/3;  D = SMA(K,3,1) = (K + 2·D′)/3;  J = 3K − 2D
 * K′ and D′ start at 50. RSV needs a full 9-bar window, so k, d, j are present from the ninth
 * bar (index 8), where K = (RSV + 2·50)/3. A flat window (HHV = LLV, e.g. a long suspension)
 * has no defined RSV; it is taken as 50, the neutral value, so the recursion goes on.
 * Recursive (lookback Infinity); `stream` carries the last 8 highs/lows and K, D.
 */
export interface KdjState {
  highs: number[];
  lows: number[];
  k: number;
  d: number;
}

/** RSV of a window whose highest high is `hh` and lowest low `ll`; 50 when the window is flat. */
const rsv = (hh: number, ll: number, close: number): number => (hh === ll ? 50 : (100 * (close - ll)) / (hh - ll));

export function kdjStream(n = 9, m1 = 3, m2 = 3): Stream<KdjState> {
  const stream: Stream<KdjState> = {
    initState: () => ({ highs: [], lows: [], k: 50, d: 50 }),
    step(st, p): { state: KdjState; values: Values } {
      const state = stream.advance!(st, p);
      // Values from the first full window of n bars on.
      return { state, values: st.highs.length + 1 < n ? {} : { k: state.k, d: state.d, j: 3 * state.k - 2 * state.d } };
    },
    // The window's extremes taken in a loop (max and min do not depend on order); the state keeps
    // the n−1 bars the next window needs.
    advance(st, p) {
      const m = st.highs.length;
      if (m + 1 < n) return { highs: [...st.highs, p.high], lows: [...st.lows, p.low], k: st.k, d: st.d };
      let hh = p.high,
        ll = p.low;
      for (let i = m - (n - 1); i < m; i++) {
        if (st.highs[i] > hh) hh = st.highs[i];
        if (st.lows[i] < ll) ll = st.lows[i];
      }
      const k = (rsv(hh, ll, p.close) + (m1 - 1) * st.k) / m1;
      const d = (k + (m2 - 1) * st.d) / m2;
      const highs = st.highs.slice(m - (n - 2)),
        lows = st.lows.slice(m - (n - 2));
      highs.push(p.high);
      lows.push(p.low);
      return { highs, lows, k, d };
    },
  };
  return stream;
}

const stream = kdjStream();

export const kdj: Indicator = {
  id: 'kdj',
  keys: ['k', 'd', 'j'],
  lookback: Infinity,
  compute: (s) => runStream(stream, s),
  stream,
};
