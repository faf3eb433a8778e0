import type { JsonBytes } from './json-bytes.js';

/**
 * Records collected for a page, written as JSON on demand: stored page text (page-text.ts),
 * 1m bar packs (store/packs.ts) or rows already made (RowSlices). The HTTP layer writes the
 * envelope around them.
 *
 * @example
 * const page = await reader.dailyPage(inst, 20250101, 20251231, null, 101);
 * page.write(w, Math.min(page.keys.length, 100)); // the records' JSON, joined by commas
 */
export interface Slices<K = number> {
  /** The records' keys, in order: stored keys (dates, timestamps), or the rows themselves. */
  readonly keys: readonly K[];
  /** Writes the JSON of the first `count` records, joined by commas, to `w`. */
  write(w: JsonBytes, count: number): void;
}

/** Rows already made, as Slices: the rows are the keys, each written by `writeRow`. */
export class RowSlices<Row> implements Slices<Row> {
  constructor(
    readonly keys: readonly Row[],
    private readonly writeRow: (w: JsonBytes, row: Row) => void,
  ) {}

  write(w: JsonBytes, count: number): void {
    for (let i = 0; i < count; i++) {
      if (i) w.byte(44);
      this.writeRow(w, this.keys[i]);
    }
  }
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
