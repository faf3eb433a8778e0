/**
 * Shared shapes of the technical indicators (CONTRACT.md §2). Every indicator is a pure function
 * of a price series; prices are plain CNY numbers (see `seriesFromBars`), volume in shares.
 */

/** Parallel arrays, oldest bar first. */
export interface Series {
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

/** One bar of a `Series`, as fed to a resumable indicator's `step`. */
export interface Point {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The values of one point: only the keys that have enough history are present. */
export type Values = Record<string, number>;

/**
 * Resumable form of a recursive indicator. `state` is a plain JSON-serialisable object and is
 * never mutated: `step` returns the next state, so a caller can keep the state after any bar as
 * a checkpoint (e.g. stored per instrument every N bars) and later resume from it with only the
 * bars after the checkpoint. Folding `step` over a series from `initState()` equals `compute`.
 *
 * @example
 *   let st = ema.stream.initState();
 *   for (const p of points) { const r = ema.stream.step(st, p); st = r.state; use(r.values); }
 */
export interface Stream<S = unknown> {
  initState(): S;
  step(state: S, point: Point): { state: S; values: Values };
  /**
   * The state `step` returns, bit for bit, without the values (optional): what a fold that keeps
   * no values uses (the indicator states of every daily pack, derived/indicator-states.ts).
   */
  advance?(state: S, point: Point): S;
}

export interface Indicator {
  id: string;
  /** Keys that may appear in a point's values, in display order. */
  keys: string[];
  /**
   * Bars of history before a point that make its values exact; Infinity for recursive
   * indicators, whose values depend on the whole history from the first bar (use `stream`).
   */
  lookback: number;
  /** One Values object per input bar. */
  compute(s: Series): Values[];
  /** Present on the recursive indicators (ema, macd, kdj, rsi, obv). */
  stream?: Stream<any>;
}

/**
 * Runs a stream over a whole series (the `compute` of a recursive indicator), from `state`
 * (the initial one by default); `before(i, state)` sees the state before each bar, e.g. to keep
 * checkpoints.
 */
export function runStream<S>(
  stream: Stream<S>,
  s: Series,
  state: S = stream.initState(),
  before?: (i: number, state: S) => void,
): Values[] {
  const out: Values[] = [];
  // One point, refilled per bar: steps read it and keep only numbers.
  const p: Point = { open: 0, high: 0, low: 0, close: 0, volume: 0 };
  for (let i = 0; i < s.close.length; i++) {
    before?.(i, state);
    p.open = s.open[i];
    p.high = s.high[i];
    p.low = s.low[i];
    p.close = s.close[i];
    p.volume = s.volume[i];
    const r = stream.step(state, p);
    state = r.state;
    out.push(r.values);
  }
  return out;
}
