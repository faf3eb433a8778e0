/**
 * Daily bars derived from 1m bars (docs/ingest.md, "Daily bars from 1m bars"). When `mds ingest`
 * writes 1m bars of an instrument and trading day that has no loaded daily bar, the day's daily
 * bar is derived from the day's 1m bars as stored (all of them, loaded by this command or
 * earlier), in the same transaction, by `aggregateDaily` (market/aggregate.ts): first open,
 * highest high, lowest low, last close, sums of volume and amount (unknown when a minute's amount
 * is unknown). A day with only some of its minutes yields the bar of the minutes stored.
 *
 * Derived bars are marked in `bars_1d_derived` (inst, date) so that they can be told from loaded
 * ones: a loaded daily bar always wins. Loading a daily bar removes the mark of its day (the
 * loaded row replaces the derived one by the ordinary upsert); 1m bars written for a day whose
 * daily bar was loaded leave it alone; 1m bars written for a day whose bar was derived derive it
 * again. Bars are written through `BulkSession.upsert` only, so the bar packs and pages follow.
 *
 * The day's minutes are usually the rows this command wrote: they are kept until the derivation
 * as bar pack records (store/packs.ts; off the heap, so the rows are not kept alive), and
 * the last record of each timestamp is used when the store holds as many 1m bars of the day as
 * there are timestamps (the stored bars then are those rows: bars are never deleted); otherwise
 * the day's bars are read back from the store.
 *
 * Being code's output, they carry a version and are derived again when it changes: they are a
 * derivation of registry.ts (derived-daily-rebuild.ts).
 *
 * A derivation first takes the pack lock that bar pack merges take (BulkSession.lockPacks, on
 * PostgreSQL a transaction advisory lock held to the commit): another command that wrote minutes of the same day and derived its bar
 * has then committed, and the reads here (read committed) see its minutes. Without it, two
 * commands loading different minutes of one day at once would each derive from their own, and
 * the later commit's bar would lack the other's minutes.
 */
import { aggregateDaily } from '../market/aggregate.js';
import type { Bar } from '../market/types.js';
import { marketEpoch } from '../lib/time.js';
import type { BulkSession, UpsertCounts, UpsertTarget } from '../store/types.js';
import { amountOf, storedAmount } from '../store/schema.js';
import { decodeBars, PendingPack, RECORD_BYTES } from '../store/packs.js';
import { minuteBarRows, minuteCounts } from '../store/tables/bars.js';
import { anyDerivedMark, loadedDays, unmarkDerived } from '../store/tables/derived-daily-marks.js';

export const MARKS: UpsertTarget = { table: 'bars_1d_derived', columns: ['inst', 'date'], key: ['inst', 'date'] };
/** 1m rows kept for derivation that make the session derive before going on (bounds memory). */
const PENDING_ROWS = 250_000;
/** Days per read of one instrument's bars, and per mark deletion. */
export const CHUNK = 256;
const BAR_FIELDS = ['ts', 'open', 'high', 'low', 'close', 'volume', 'amount'] as const;

/** The bar of `date` in a row read back (minuteBarRows: BAR_FIELDS, then the date; bigint columns may come as strings; amount decoded). */
const bar = (r: unknown[], date: number): Bar => ({
  ts: Number(r[0]),
  date,
  open: Number(r[1]),
  high: Number(r[2]),
  low: Number(r[3]),
  close: Number(r[4]),
  volume: Number(r[5]),
  amount: amountOf(Number(r[6])),
});

/**
 * The stored 1m bars of instrument `inst` on `days` (in increasing order), by day, each in ts
 * order (days without any are absent).
 */
export async function storedMinutes(s: BulkSession, inst: number, days: number[]): Promise<Map<number, Bar[]>> {
  const want = new Set(days),
    minutes = new Map<number, Bar[]>();
  for (const r of await minuteBarRows(s, inst, marketEpoch(days[0], 0), marketEpoch(days[days.length - 1], 1440))) {
    const d = Number(r[7]);
    if (!want.has(d)) continue;
    let m = minutes.get(d);
    if (!m) minutes.set(d, (m = []));
    m.push(bar(r, d));
  }
  return minutes;
}

/**
 * The daily bar row (values in `columns` order, as bars_1d stores them) that instrument `inst`'s
 * 1m bars `minutes` of day `date` derive (aggregateDaily).
 */
export function derivedRow(inst: number, date: number, minutes: readonly Bar[], columns: readonly string[]): number[] {
  const [b] = aggregateDaily(minutes);
  if (b.amountExact !== undefined) throw new RangeError(`derived daily bar ${inst}/${date}: amount passes 2^53 fen`);
  const named: Record<string, number> = {
    inst,
    date,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: b.volume,
    amount: storedAmount(b.amount),
  };
  return columns.map((c) => named[c]);
}

export const chunks = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

export class DerivedDaily {
  /** Daily bars written by derivation (counted as upserts count them). */
  readonly counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  /** Instrument → day → the 1m bars written since the last derivation, as pack records in the order written. */
  private pending = new Map<number, Map<number, PendingPack>>();
  private rows = 0;
  /** 1m rows kept that make the session derive before going on. */
  private readonly every: number;
  /** Where the fields of a pack record (BAR_FIELDS) are in the 1m rows written (bars_1m's target columns). */
  private fields: number[] = [];

  /**
   * `marked`: the store may hold derived bars (else loading daily bars has no marks to remove);
   * `daily`: how daily bars are written (ingest's bars_1d target).
   */
  private constructor(
    private marked: boolean,
    private readonly daily: UpsertTarget,
    every: number,
  ) {
    this.every = every;
  }

  /** `daily`: the target daily bars are written by; `every`: how many 1m rows are kept before deriving (tests make it small). */
  static async load(s: BulkSession, daily: UpsertTarget, every = PENDING_ROWS): Promise<DerivedDaily> {
    return new DerivedDaily(await anyDerivedMark(s), daily, every);
  }

  /**
   * Follows an upsert of `rows` into `target` in session `s`. 1m rows count whether they changed
   * anything or not: loading minutes stored before derivation existed (or whose bar is missing)
   * derives their days too; an unchanged day derives an equal bar, which is left alone.
   */
  async written(s: BulkSession, target: UpsertTarget, rows: unknown[][]): Promise<void> {
    if (target.table === 'bars_1d' && this.marked) await this.unmark(s, target, rows);
    else if (target.table === 'bars_1m') {
      this.note(target, rows);
      if (this.rows >= this.every) await this.derive(s);
    }
  }

  /** Keeps 1m rows by instrument and day (they come in runs of one instrument and day). */
  private note(target: UpsertTarget, rows: unknown[][]): void {
    const ii = target.columns.indexOf('inst'),
      di = target.columns.indexOf('date');
    this.fields = BAR_FIELDS.map((f) => target.columns.indexOf(f));
    let inst = NaN,
      date = NaN,
      days: Map<number, PendingPack> | undefined,
      day: PendingPack | undefined;
    for (const r of rows) {
      if (r[ii] !== inst) {
        inst = r[ii] as number;
        days = this.pending.get(inst);
        if (!days) this.pending.set(inst, (days = new Map()));
        date = NaN;
      }
      if (r[di] !== date) {
        date = r[di] as number;
        day = days!.get(date);
        if (!day) days!.set(date, (day = new PendingPack()));
      }
      day!.push(r, this.fields);
    }
    this.rows += rows.length;
  }

  /** Loaded daily rows: their days' bars are loaded now, no longer derived. */
  private async unmark(s: BulkSession, target: UpsertTarget, rows: unknown[][]): Promise<void> {
    const ii = target.columns.indexOf('inst'),
      di = target.columns.indexOf('date');
    const byInst = new Map<number, number[]>();
    for (const r of rows) {
      const inst = r[ii] as number;
      let dates = byInst.get(inst);
      if (!dates) byInst.set(inst, (dates = []));
      dates.push(r[di] as number);
    }
    for (const [inst, dates] of byInst) {
      for (const part of chunks(dates, CHUNK)) await unmarkDerived(s, inst, part);
    }
  }

  /**
   * Derives the daily bar of every pending day without a loaded one from the day's stored 1m
   * bars, writes it (an equal stored bar is left alone) and marks it derived.
   */
  async derive(s: BulkSession): Promise<void> {
    if (this.pending.size === 0) return;
    await s.lockPacks();
    const out: unknown[][] = [],
      marks: unknown[][] = [];
    const cols = this.daily.columns;
    for (const inst of [...this.pending.keys()].sort((a, b) => a - b)) {
      const pendingDays = this.pending.get(inst)!;
      for (const part of chunks(
        [...pendingDays.keys()].sort((a, b) => a - b),
        CHUNK,
      )) {
        // Days with a loaded daily bar keep it.
        const loaded = await loadedDays(s, inst, part);
        const days = part.filter((d) => !loaded.has(d));
        if (days.length === 0) continue;
        const stored = await minuteCounts(s, inst, marketEpoch(days[0], 0), marketEpoch(days[days.length - 1], 1440));
        const minutes = new Map<number, Bar[]>();
        const reread: number[] = [];
        for (const d of days) {
          // The records in ts order, the last written of each ts (as the upserts left the table).
          const recs = pendingDays.get(d)!.records(),
            n = recs.byteLength / RECORD_BYTES;
          if (n !== stored.get(d)) {
            reread.push(d);
            continue;
          }
          const m: Bar[] = [];
          decodeBars(m, recs, n, d, -Infinity, Infinity, Infinity);
          minutes.set(d, m);
        }
        if (reread.length) for (const [d, m] of await storedMinutes(s, inst, reread)) minutes.set(d, m);
        for (const d of days) {
          out.push(derivedRow(inst, d, minutes.get(d)!, cols));
          marks.push([inst, d]);
        }
      }
    }
    this.pending.clear();
    this.rows = 0;
    if (out.length === 0) return;
    const c = await s.upsert(this.daily, out);
    this.counts.inserted += c.inserted;
    this.counts.updated += c.updated;
    this.counts.unchanged += c.unchanged;
    await s.upsert(MARKS, marks);
    this.marked = true;
  }
}
