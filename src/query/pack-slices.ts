import type { BarFieldsWriter } from '../render/bar-writers.js';
import type { JsonBytes } from '../render/json-bytes.js';
import { collectKeys, type Slices } from '../render/slices.js';
import { packView, RECORD_BYTES, type PackSink } from '../store/packs.js';
import { amountOf } from '../store/schema.js';

/**
 * Collects the records of packs, in key order, whose key lies in [lo, hi], up to `limit`;
 * `write` then writes the first ones as JSON straight from the packs (no Bar made of them):
 * 1m packs (keys are ts, the pack's date given) and daily packs (keys are dates, `date` null).
 */
export class PackSlices implements Slices, PackSink {
  /** The keys of the records collected. */
  readonly keys: number[] = [];
  private readonly runs: { dv: DataView; date: number | null; first: number; count: number }[] = [];

  constructor(
    private readonly limit: number,
    private readonly writeBar: BarFieldsWriter,
  ) {}

  /** Adds the records of a pack (of day `date`; null: a daily pack) with lo <= key <= hi while the collection is short. */
  add(data: Uint8Array, n: number, date: number | null, lo: number, hi: number): void {
    const dv = packView(data, n),
      before = this.keys.length;
    const first = collectKeys(this.keys, this.limit, n, (i) => dv.getFloat64(i * RECORD_BYTES, true), lo, hi);
    if (first >= 0) this.runs.push({ dv, date, first, count: this.keys.length - before });
  }

  /** The JSON of the first `count` records, joined by commas. */
  write(w: JsonBytes, count: number): void {
    const write = this.writeBar;
    let sep = false;
    for (const { dv, date, first, count: c } of this.runs) {
      for (let i = first, o = first * RECORD_BYTES; i < first + c && count > 0; i++, o += RECORD_BYTES, count--) {
        if (sep) w.byte(44);
        sep = true;
        const key = dv.getFloat64(o, true);
        write(
          w,
          key,
          date ?? key,
          dv.getFloat64(o + 8, true),
          dv.getFloat64(o + 16, true),
          dv.getFloat64(o + 24, true),
          dv.getFloat64(o + 32, true),
          dv.getFloat64(o + 40, true),
          amountOf(dv.getFloat64(o + 48, true)),
        );
      }
    }
  }
}
