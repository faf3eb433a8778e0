import { PRICE_SCALE } from '../lib/decimal.js';
import type { Bar } from '../market/types.js';
import type { Point, Series, Stream, Values } from './types.js';

const UNIT = 10 ** PRICE_SCALE;

/**
 * A Series price, or a sum of a few, back in price units (1/1000 CNY): the exact integer of the
 * decimals it was made from (seriesFromBars), whatever residue float arithmetic left in the sum.
 * priceUnits(10.37 + 10.37 + 10.37) === 31110.
 */
export const priceUnits = (cny: number): number => Math.round(cny * UNIT);

/**
 * Bars (prices in 1/1000 CNY, oldest first) as an indicator Series in plain CNY numbers.
 * Indicators are computed on the bars the client asked for, i.e. after adjustment
 * (`adjustBars`) when an adjustment is requested.
 */
export function seriesFromBars(bars: readonly Bar[]): Series {
  return {
    open: bars.map((b) => b.open / UNIT),
    high: bars.map((b) => b.high / UNIT),
    low: bars.map((b) => b.low / UNIT),
    close: bars.map((b) => b.close / UNIT),
    volume: bars.map((b) => b.volume),
  };
}

/**
 * Folds `stream` over bars (prices in 1/1000 CNY) from `state`, each point exactly as
 * seriesFromBars gives it (runStream over seriesFromBars(bars) yields the same values), without
 * making the series; pushes each bar's values to `out` when given, and returns the state after
 * the last bar. An indicator page folds the bars before it (its head) for the state only.
 */
export function foldBars<S>(stream: Stream<S>, bars: readonly Bar[], state: S, out: Values[] | null): S {
  return foldEach(
    stream,
    bars.length,
    (p, i) => {
      const b = bars[i];
      setPoint(p, b.open, b.high, b.low, b.close, b.volume);
    },
    state,
    out,
  );
}

/** Sets `p` to a bar's fields (prices in 1/1000 CNY) as seriesFromBars makes its point: prices in CNY. */
export function setPoint(p: Point, open: number, high: number, low: number, close: number, volume: number): void {
  p.open = open / UNIT;
  p.high = high / UNIT;
  p.low = low / UNIT;
  p.close = close / UNIT;
  p.volume = volume;
}

/**
 * As foldBars, over `n` bars whose `i`th `fill` writes into the point (prices in 1/1000 CNY
 * divided by 1000, as foldBars does): a packed month folds without a Bar made of its records.
 */
export function foldEach<S>(stream: Stream<S>, n: number, fill: (p: Point, i: number) => void, state: S, out: Values[] | null): S {
  const p: Point = { open: 0, high: 0, low: 0, close: 0, volume: 0 };
  const advance = out === null ? stream.advance : undefined;
  for (let i = 0; i < n; i++) {
    fill(p, i);
    if (advance) {
      state = advance(state, p);
      continue;
    }
    const r = stream.step(state, p);
    state = r.state;
    if (out !== null) out.push(r.values);
  }
  return state;
}
