/**
 * The bar pack format: a packed copy of `bars_1d` and `bars_1m` rows, so that a page of bars reads
 * a few rows instead of one row per bar. A pack holds `n` records of one instrument in key order:
 * daily bars of one month (`bars_1d_packs.month`, YYYYMM, `dailyPackKey`), 1m bars of one
 * trading day (`bars_1m_packs.date`, the rows' `date` column). A record is seven little-endian
 * float64 fields: the key (`date` for daily bars, `ts` for 1m bars), open, high, low, close, volume,
 * amount, integers in the base tables' units (an unknown amount is UNKNOWN_AMOUNT, −1, as in the
 * base tables: store/schema.ts; the readers here decode it to null). Packs are written by
 * derived/bar-packs.ts only.
 */
import type { Bar } from '../market/types.js';
import { amountOf } from './schema.js';

/** The key of the daily pack that holds date `date`: its month. dailyPackKey(20240315) -> 202403. */
export const dailyPackKey = (date: number) => Math.floor(date / 100);

/** The first date daily pack `month` can hold. dailyPackStart(202403) -> 20240301. */
export const dailyPackStart = (month: number) => month * 100 + 1;

/** Bytes of one packed record. */
export const RECORD_BYTES = 56;

/** Encodes records `[key, open, high, low, close, volume, amount]`, in key order, as a pack. */
export function encodePack(records: readonly (readonly number[])[]): Buffer {
  const buf = Buffer.allocUnsafe(records.length * RECORD_BYTES);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let o = 0;
  for (const r of records) for (let k = 0; k < 7; k++, o += 8) dv.setFloat64(o, r[k], true);
  return buf;
}

/** A DataView over a pack of `n` records (its length checked). */
export const packView = (data: Uint8Array, n: number) => {
  if (data.byteLength !== n * RECORD_BYTES) throw new RangeError(`bar pack of ${n} records holds ${data.byteLength} bytes`);
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
};

/**
 * Where a reader puts the packs it reads (MarketDataReader.dailyPage, minutePage): the stored
 * bytes of each pack with the key range wanted, until `keys` holds enough; what is made of them
 * (a page of JSON: query/pack-slices.ts) is the caller's.
 */
export interface PackSink {
  readonly keys: { readonly length: number };
  /** A pack of `n` records (of day `date`; null: a daily pack), of which those with lo <= key <= hi are wanted. */
  add(data: Uint8Array, n: number, date: number | null, lo: number, hi: number): void;
}

/** The `n` records of a pack, as given to `encodePack`. */
export function decodePack(data: Uint8Array, n: number): number[][] {
  const dv = packView(data, n);
  return Array.from({ length: n }, (_, i) => Array.from({ length: 7 }, (_, k) => dv.getFloat64(i * RECORD_BYTES + k * 8, true)));
}

/**
 * Appends to `out` the bars of a pack whose key lies in [lo, hi], while `out` holds fewer than
 * `limit`. Daily packs (`date` null): the key is the date and ts is 0; 1m packs: the key is ts
 * and the date is the pack's.
 */
export function decodeBars(out: Bar[], data: Uint8Array, n: number, date: number | null, lo: number, hi: number, limit: number): void {
  const dv = packView(data, n);
  for (let i = 0, o = 0; i < n && out.length < limit; i++, o += RECORD_BYTES) {
    const key = dv.getFloat64(o, true);
    if (key < lo) continue;
    if (key > hi) return;
    out.push({
      ts: date === null ? 0 : key,
      date: date ?? key,
      open: dv.getFloat64(o + 8, true),
      high: dv.getFloat64(o + 16, true),
      low: dv.getFloat64(o + 24, true),
      close: dv.getFloat64(o + 32, true),
      volume: dv.getFloat64(o + 40, true),
      amount: amountOf(dv.getFloat64(o + 48, true)),
    });
  }
}

/** The key (first field) of record `i` of a pack. */
const keyAt = (dv: DataView, i: number) => dv.getFloat64(i * RECORD_BYTES, true);
const dataView = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/**
 * The records of `a` and `b` (packs of `an` and `bn` records, each in strictly increasing key
 * order) as one pack in key order; where both hold a key, `b`'s record wins. Whole runs are
 * copied: records are never decoded.
 */
export function mergePacks(a: Uint8Array, an: number, b: Uint8Array, bn: number): Buffer {
  const va = packView(a, an),
    vb = packView(b, bn);
  const out = Buffer.allocUnsafe((an + bn) * RECORD_BYTES);
  let i = 0,
    j = 0,
    o = 0;
  const copy = (src: Uint8Array, from: number, to: number) => {
    out.set(src.subarray(from * RECORD_BYTES, to * RECORD_BYTES), o);
    o += (to - from) * RECORD_BYTES;
  };
  while (i < an && j < bn) {
    const ka = keyAt(va, i),
      kb = keyAt(vb, j);
    if (ka < kb) {
      const s = i;
      while (i < an && keyAt(va, i) < kb) i++;
      copy(a, s, i);
    } else {
      const s = j;
      while (j < bn && keyAt(vb, j) <= ka) j++;
      copy(b, s, j);
      if (keyAt(vb, j - 1) === ka) i++;
    }
  }
  if (i < an) copy(a, i, an);
  if (j < bn) copy(b, j, bn);
  return out.subarray(0, o);
}

/**
 * The records of a pack written in some order, as a pack in key order keeping the last record
 * of each key (as upserts applied in that order leave the rows). A stable sort of the indices.
 */
export function orderRecords(data: Uint8Array, n: number): Buffer {
  const dv = packView(data, n);
  const keys = Array.from({ length: n }, (_, i) => keyAt(dv, i));
  const idx = Array.from({ length: n }, (_, i) => i).sort((x, y) => keys[x] - keys[y] || x - y);
  const out = Buffer.allocUnsafe(n * RECORD_BYTES);
  let o = 0;
  for (let k = 0; k < n; k++) {
    if (k + 1 < n && keys[idx[k + 1]] === keys[idx[k]]) continue;
    out.set(data.subarray(idx[k] * RECORD_BYTES, (idx[k] + 1) * RECORD_BYTES), o);
    o += RECORD_BYTES;
  }
  return out.subarray(0, o);
}

/**
 * The records written to one pack in a transaction, encoded as they arrive (also the minutes
 * of a day kept for deriving its daily bar, derived/derived-daily.ts: off the JavaScript heap).
 */
export class PendingPack {
  private buf = Buffer.allocUnsafe(8 * RECORD_BYTES);
  private dv = dataView(this.buf);
  n = 0;
  /** Keys strictly increased so far: the records are a pack as they stand. */
  private ordered = true;

  /** Appends the record of `row`: the values at `fields` (key, open … amount). */
  push(row: unknown[], fields: readonly number[]): void {
    if ((this.n + 1) * RECORD_BYTES > this.buf.byteLength) {
      const grown = Buffer.allocUnsafe(this.buf.byteLength * 2);
      this.buf.copy(grown);
      [this.buf, this.dv] = [grown, dataView(grown)];
    }
    const o = this.n * RECORD_BYTES;
    for (let k = 0; k < 7; k++) {
      const v = row[fields[k]];
      if (!Number.isSafeInteger(v)) throw new TypeError(`bar values must be integers below 2^53 (bar packs copy them), got ${String(v)}`);
      // + 0: a -0 is stored as the integer 0.
      this.dv.setFloat64(o + k * 8, (v as number) + 0, true);
    }
    if (this.n > 0 && this.ordered && keyAt(this.dv, this.n) <= keyAt(this.dv, this.n - 1)) this.ordered = false;
    this.n++;
  }

  /** The records as a pack: in key order, the last of each key. */
  records(): Buffer {
    const data = this.buf.subarray(0, this.n * RECORD_BYTES);
    return this.ordered ? data : orderRecords(data, this.n);
  }
}
