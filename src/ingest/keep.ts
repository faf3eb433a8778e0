/**
 * Columns a file leaves out keep their stored values (docs/ingest.md, "Idempotent"): an optional
 * column absent from a CSV header, or a field absent from an NDJSON record (an explicit `null` or
 * empty field is "no value" and is stored), leaves a stored row's value as it is. Before a batch
 * is upserted, each of its rows with absent columns takes those columns' values from the last
 * earlier row of its key in the batch, else from the stored row (read by key; the transaction's
 * own writes included), else keeps the column's empty value (a new key). The rows upserted are
 * then whole, so whatever follows them (bar packs, pages, indicator states, daily bars derived
 * from 1m bars, the counts) sees exactly the rows the table holds.
 */
import type { BulkSession } from '../store/types.js';
import type { Dataset } from '../datasets/dataset.js';
import { rowsOfKeys } from '../store/tables/keyed-rows.js';

/** Fills, in place, the columns `absent` lists (by row index) of `rows` as the stored rows of their keys have them. */
export async function keepStored(
  s: BulkSession,
  ds: Dataset,
  rows: unknown[][],
  absent: ReadonlyMap<number, readonly number[]>,
): Promise<void> {
  if (absent.size === 0) return;
  const keyIx = ds.key.map((k) => ds.ix[k]);
  const keyOf = (r: unknown[]) => (keyIx.length === 1 ? String(r[keyIx[0]]) : keyIx.map((i) => r[i]).join('\u0000'));
  const cols = [...new Set([...absent.values()].flat())].sort((a, b) => a - b);
  const seen = new Set<string>();
  const read = new Map<string, unknown[]>();
  rows.forEach((r, i) => {
    const k = keyOf(r);
    if (absent.has(i) && !seen.has(k))
      read.set(
        k,
        keyIx.map((j) => r[j]),
      );
    seen.add(k);
  });
  const stored = await storedValues(s, ds, keyIx, cols, [...read.values()], keyOf);
  const last = new Map<string, unknown[]>();
  rows.forEach((r, i) => {
    const k = keyOf(r);
    const missing = absent.get(i);
    if (missing) {
      const prev = last.get(k);
      const from = prev ?? stored.get(k);
      if (from) for (const c of missing) r[c] = from[c];
    }
    last.set(k, r);
  });
}

/** The stored rows of `keys` (key values in `keyIx` order) as sparse rows holding the `cols` (file column indices), by key. */
async function storedValues(
  s: BulkSession,
  ds: Dataset,
  keyIx: number[],
  cols: number[],
  keys: unknown[][],
  keyOf: (r: unknown[]) => string,
): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  const column = (i: number) => ds.columns[i].column;
  for (const v of await rowsOfKeys(s, ds.table, keyIx.map(column), cols.map(column), keys)) {
    const row: unknown[] = [];
    keyIx.forEach((i, j) => {
      row[i] = v[j];
    });
    cols.forEach((c, j) => {
      row[c] = v[keyIx.length + j];
    });
    out.set(keyOf(row), row);
  }
  return out;
}
