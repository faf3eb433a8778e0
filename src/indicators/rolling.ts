/**
 * Window helpers in Tongdaxin's sense: a value over N bars exists only once N defined inputs
 * are available (MA(C,5) starts at the fifth bar). Windows are summed afresh each time (N ≤ 60),
 * so no running-sum drift accumulates over long histories.
 */
export type Column = (number | undefined)[];

/** Applies `f` to each full window of `n` defined values ending at i; undefined otherwise. */
export function windowed(x: Column, n: number, f: (w: number[]) => number): Column {
  const out: Column = new Array(x.length).fill(undefined);
  for (let i = n - 1; i < x.length; i++) {
    const w = x.slice(i - n + 1, i + 1);
    if (w.every((v) => v !== undefined)) out[i] = f(w as number[]);
  }
  return out;
}

export const sum = (w: number[]): number => w.reduce((a, b) => a + b, 0);
/** Every value of the window is the same number (the same decimal: seriesFromBars maps one decimal to one double). */
export const isFlat = (w: number[]): boolean => w.every((x) => x === w[0]);
/**
 * The window's mean; exactly its value when the window is flat (a sum of n equal doubles
 * divided by n may land an ulp off, so BIAS would be 1e-14 and a deviation from it non-zero).
 */
export const mean = (w: number[]): number => (isFlat(w) ? w[0] : sum(w) / w.length);

/** MA(X,N). */
export const ma = (x: Column, n: number): Column => windowed(x, n, mean);
/** SUM(X,N). */
export const movingSum = (x: Column, n: number): Column => windowed(x, n, sum);
/** HHV(X,N). */
export const hhv = (x: Column, n: number): Column => windowed(x, n, (w) => Math.max(...w));
/** LLV(X,N). */
export const llv = (x: Column, n: number): Column => windowed(x, n, (w) => Math.min(...w));

/** Copies the defined entries of each column into per-bar Values under the given keys. */
export function toValues(n: number, cols: Record<string, Column>): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  for (let i = 0; i < n; i++) {
    const v: Record<string, number> = {};
    for (const [k, c] of Object.entries(cols)) if (c[i] !== undefined) v[k] = c[i] as number;
    out.push(v);
  }
  return out;
}
