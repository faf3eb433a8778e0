import type { JsonBytes } from './json-bytes.js';

/**
 * Records collected for a page, written as JSON on demand: stored page text (page-text.ts),
 * 1m bar packs (store/packs.ts) or rows already made (http/collection.ts). The HTTP layer
 * writes the envelope around them.
 */
export interface Slices {
  /** The records' stored keys, in order. */
  readonly keys: number[];
  /** Writes the JSON of the first `count` records, joined by commas, to `w`. */
  write(w: JsonBytes, count: number): void;
}

/**
 * Pushes onto `keys` the keys of records 0..n-1 (`keyAt(i)`, ascending) with lo <= key <= hi,
 * while `keys` holds fewer than `limit`; returns the index of the first one pushed, or -1 (how
 * many: the growth of `keys`). The collecting step of PackSlices and PageSlices.
 */
export function collectKeys(keys: number[], limit: number, n: number, keyAt: (i: number) => number, lo: number, hi: number): number {
  let first = -1;
  for (let i = 0; i < n && keys.length < limit; i++) {
    const key = keyAt(i);
    if (key < lo) continue;
    if (key > hi) break;
    if (first < 0) first = i;
    keys.push(key);
  }
  return first;
}
