/**
 * Bar packs: a packed read copy of `bars_1d` and `bars_1m` so that a page of bars reads a few
 * rows instead of one row per bar. A pack holds `n` records of one instrument in key order:
 * daily bars of one month (`bars_1d_packs.month`, YYYYMM), 1m bars of one trading day
 * (`bars_1m_packs.date`, the rows' `date` column). A record is seven little-endian float64
 * fields: the key (`date` for daily bars, `ts` for 1m bars), open, high, low, close, volume,
 * amount, integers in the base tables' units.
 *
 * Packs are derived data with one writer: `withBarPacks` wraps every store (`openStore`) and
 * rebuilds the packs that an upsert or bulk insert into a bar table touched, from the base rows.
 * Bars are never deleted, so a touched pack always has rows to rebuild from.
 */
import type { Bar } from '../market/types.js';
import { addDays, dateToDays, epochToMarketDate, marketEpoch } from '../lib/time.js';
import type { BulkSession, Store } from './store.js';

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

const view = (data: Uint8Array, n: number) => {
  if (data.byteLength !== n * RECORD_BYTES) throw new RangeError(`bar pack of ${n} records holds ${data.byteLength} bytes`);
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
};

/** The `n` records of a pack, as given to `encodePack`. */
export function decodePack(data: Uint8Array, n: number): number[][] {
  const dv = view(data, n);
  return Array.from({ length: n }, (_, i) => Array.from({ length: 7 }, (_, k) => dv.getFloat64(i * RECORD_BYTES + k * 8, true)));
}

/**
 * Appends to `out` the bars of a pack whose key lies in [lo, hi], while `out` holds fewer than
 * `limit`. Daily packs (`date` null): the key is the date and ts is 0; 1m packs: the key is ts
 * and the date is the pack's.
 */
export function decodeBars(out: Bar[], data: Uint8Array, n: number, date: number | null, lo: number, hi: number, limit: number): void {
  const dv = view(data, n);
  for (let i = 0, o = 0; i < n && out.length < limit; i++, o += RECORD_BYTES) {
    const key = dv.getFloat64(o, true);
    if (key < lo) continue;
    if (key > hi) return;
    out.push({
      ts: date === null ? 0 : key, date: date ?? key,
      open: dv.getFloat64(o + 8, true), high: dv.getFloat64(o + 16, true), low: dv.getFloat64(o + 24, true),
      close: dv.getFloat64(o + 32, true), volume: dv.getFloat64(o + 40, true), amount: dv.getFloat64(o + 48, true),
    });
  }
}

/** A packed bar table. */
interface PackedTable {
  base: 'bars_1d' | 'bars_1m';
  packs: 'bars_1d_packs' | 'bars_1m_packs';
  /** The pack key column. */
  key: 'month' | 'date';
  /** The pack key of a row's `date`, and of a record's key (its date, its ts). */
  keyOf(date: number): number;
  packOf(k: number): number;
  /** Keys to a linear scale, and the widest span of keys one read-back query covers. */
  ordinal(key: number): number;
  span: number;
  /** The base rows (a record, then `date`) of the packs first..last of an instrument, in key order. */
  rows(inst: number, first: number, last: number): [string, unknown[]];
  /** Base rows (inst, a record, date) in (inst, key) order after a position, at most `limit`. */
  scan(after: [number, number] | null, limit: number): [string, unknown[]];
}

/** The columns of a base row as a record followed by its date. */
const row = (key: string) => `${key}, open, high, low, close, volume, amount, date`;
const after = (key: string, pos: [number, number] | null) => (pos === null ? '' : `where (inst, ${key}) > (?, ?)`);

const DAILY: PackedTable = {
  base: 'bars_1d',
  packs: 'bars_1d_packs',
  key: 'month',
  keyOf: (date) => Math.floor(date / 100),
  packOf: (date) => Math.floor(date / 100),
  ordinal: (month) => Math.floor(month / 100) * 12 + (month % 100),
  span: 120,
  rows: (inst, first, last) => [`select ${row('date')} from bars_1d where inst = ? and date >= ? and date <= ? order by date`,
    [inst, first * 100, last * 100 + 99]],
  scan: (pos, limit) => [`select inst, ${row('date')} from bars_1d ${after('date', pos)} order by inst, date limit ?`,
    [...(pos ?? []), limit]],
};

const MINUTE: PackedTable = {
  base: 'bars_1m',
  packs: 'bars_1m_packs',
  key: 'date',
  keyOf: (date) => date,
  packOf: epochToMarketDate,
  ordinal: dateToDays,
  span: 16,
  // A 1m row's date is the market date of its ts (ingest derives it), so a day's rows are one ts range.
  rows: (inst, first, last) => [`select ${row('ts')} from bars_1m where inst = ? and ts >= ? and ts < ? order by ts`,
    [inst, marketEpoch(first, 0), marketEpoch(addDays(last, 1), 0)]],
  scan: (pos, limit) => [`select inst, ${row('ts')} from bars_1m ${after('ts', pos)} order by inst, ts limit ?`,
    [...(pos ?? []), limit]],
};

const PACKED = new Map<string, PackedTable>([['bars_1d', DAILY], ['bars_1m', MINUTE]]);

/** Pack keys touched by writes: table → instrument → keys. */
class Touched {
  readonly keys = new Map<PackedTable, Map<number, Set<number>>>();
  size = 0;

  /** Records the packs of `rows` (values in `columns` order) written to `table`, if packed. */
  add(table: string, columns: string[], rows: unknown[][]): void {
    const t = PACKED.get(table);
    if (!t || rows.length === 0) return;
    const ii = columns.indexOf('inst'), di = columns.indexOf('date');
    if (ii < 0 || di < 0) throw new Error(`${table}: writes must carry the inst and date columns (bar packs are keyed by them)`);
    let byInst = this.keys.get(t);
    if (!byInst) this.keys.set(t, byInst = new Map());
    for (const r of rows) {
      const inst = r[ii] as number, key = t.keyOf(r[di] as number);
      let set = byInst.get(inst);
      if (!set) byInst.set(inst, set = new Set());
      if (!set.has(key)) { set.add(key); this.size++; }
    }
  }
}

/** Pending packs that make a session rebuild before going on (bounds the memory of a large load). */
const PENDING_MAX = 20_000;
/** Packs per replacing insert (bound parameters stay far below both stores' limits). */
const WRITE_PACKS = 64;

/**
 * Rebuilds the packs `affected` (instrument → pack keys) of a packed table from its base rows
 * through `s`, replacing the stored packs: one range query per instrument and run of nearby
 * keys (at most `span` apart, which bounds the rows held). Packs are written by multi-row
 * `insert … on conflict do update` with bound Buffers (binary bytea on PostgreSQL, no COPY).
 */
async function repack(s: BulkSession, t: PackedTable, affected: Map<number, Set<number>>): Promise<void> {
  let out: unknown[][] = [];
  const write = (k: number) => `insert into ${t.packs} (inst, ${t.key}, n, data) values ${Array(k).fill('(?, ?, ?, ?)').join(', ')}`
    + ` on conflict (inst, ${t.key}) do update set n = excluded.n, data = excluded.data`;
  const flush = async () => {
    for (let i = 0; i < out.length; i += WRITE_PACKS) {
      const part = out.slice(i, i + WRITE_PACKS);
      await s.query(write(part.length), part.flat());
    }
    out = [];
  };
  for (const inst of [...affected.keys()].sort((a, b) => a - b)) {
    const keys = [...affected.get(inst)!].sort((a, b) => a - b);
    for (let i = 0; i < keys.length;) {
      let j = i + 1;
      while (j < keys.length && t.ordinal(keys[j]) - t.ordinal(keys[i]) < t.span) j++;
      const wanted = new Set(keys.slice(i, j));
      const rows = await s.queryRows(...t.rows(inst, keys[i], keys[j - 1])) as number[][];
      // Rows are records followed by their date (ignored by encodePack); a pack is a run of one key.
      for (let a = 0, b = 0; a < rows.length; a = b) {
        const key = t.keyOf(rows[a][7]);
        while (b < rows.length && t.keyOf(rows[b][7]) === key) b++;
        if (wanted.has(key)) out.push([inst, key, b - a, encodePack(rows.slice(a, b))]);
      }
      if (out.length >= WRITE_PACKS) await flush();
      i = j;
    }
  }
  await flush();
}

async function repackAll(s: BulkSession, touched: Touched): Promise<void> {
  for (const [t, byInst] of touched.keys) await repack(s, t, byInst);
  touched.keys.clear();
  touched.size = 0;
}

/**
 * Wraps a dialect store so that its writers keep the bar packs current: a `bulkTransaction`
 * records the packs its upserts into a bar table touch (when the upsert changed anything) and
 * rebuilds them through its own session after `fn` resolves, before the commit (a rollback drops
 * them with the bars); a `bulkInsert` into a bar table rebuilds its packs in a transaction of
 * its own (rows of one pack may arrive over several calls: packs are rebuilt from the table).
 * Bars must be written through these two calls, never by `BulkSession.query`.
 */
export function withBarPacks(store: Store): Store {
  return {
    dialect: store.dialect,
    db: store.db,
    select: <T>(sql: string, params: unknown[]) => store.select<T>(sql, params),
    selectRows: (sql, params) => store.selectRows(sql, params),
    async bulkInsert(table, columns, rows) {
      const touched = new Touched();
      touched.add(table, columns, rows);
      await store.bulkInsert(table, columns, rows);
      if (touched.size) await store.bulkTransaction((s) => repackAll(s, touched));
    },
    bulkTransaction(fn, opts) {
      return store.bulkTransaction(async (s) => {
        const touched = new Touched();
        const result = await fn({
          query: <R>(sql: string, params?: unknown[]) => s.query<R>(sql, params),
          queryRows: (sql, params) => s.queryRows(sql, params),
          async upsert(target, rows) {
            const c = await s.upsert(target, rows);
            if (c.inserted + c.updated > 0) touched.add(target.table, target.columns, rows);
            if (touched.size >= PENDING_MAX) await repackAll(s, touched);
            return c;
          },
        });
        await repackAll(s, touched);
        return result;
      }, opts);
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

/** What `checkBarPacks` found: packs and base rows compared, and the first problems. */
export interface BarPackCheck { packs: number; rows: number; problems: string[] }

interface Item { inst: number; pack: number; rec: number[] }

/**
 * Reads items in order in batches (`fetch` gives null past the end): `head()` is the next item
 * (null at the end), `next()` consumes it.
 */
class Cursor {
  private buf: Item[] = [];
  private i = 0;
  private end = false;
  constructor(private readonly fetch: () => Promise<Item[] | null>) {}
  async head(): Promise<Item | null> {
    while (this.i === this.buf.length && !this.end) {
      const items = await this.fetch();
      [this.buf, this.i, this.end] = [items ?? [], 0, items === null];
    }
    return this.end ? null : this.buf[this.i];
  }
  next(): void { this.i++; }
}

const cmp = (a: Item, b: Item) => a.inst - b.inst || a.pack - b.pack || a.rec[0] - b.rec[0];

/**
 * Checks, on one read snapshot, that the packs are exactly the base bars: every pack decodes to
 * its base rows in order, under the right key, and every base row is in a pack. For tests and
 * operators (bars written around `openStore` show up here).
 */
export function checkBarPacks(store: Store, maxProblems = 20): Promise<BarPackCheck> {
  return store.bulkTransaction(async (s) => {
    const res: BarPackCheck = { packs: 0, rows: 0, problems: [] };
    const problem = (p: string) => { if (res.problems.length < maxProblems) res.problems.push(p); };
    for (const t of PACKED.values()) {
      const { packs, key } = t;
      let rowPos: [number, number] | null = null;
      const base = new Cursor(async () => {
        const rows = await s.queryRows(...t.scan(rowPos, 10_000)) as number[][];
        if (!rows.length) return null;
        rowPos = [rows[rows.length - 1][0], rows[rows.length - 1][1]];
        res.rows += rows.length;
        return rows.map((r) => ({ inst: r[0], pack: t.keyOf(r[8]), rec: r.slice(1, 8) }));
      });
      let packPos: [number, number] | null = null;
      const packed = new Cursor(async () => {
        const rows = await s.query<{ inst: number; k: number; n: number; data: Uint8Array }>(
          `select inst, ${key} as k, n, data from ${packs} ${after(key, packPos)} order by inst, ${key} limit ?`, [...(packPos ?? []), 500]);
        if (!rows.length) return null;
        packPos = [rows[rows.length - 1].inst, rows[rows.length - 1].k];
        res.packs += rows.length;
        const items: Item[] = [];
        for (const p of rows) {
          let recs: number[][];
          try { recs = decodePack(p.data, p.n); } catch (e) { problem(`${packs} ${p.inst}/${p.k}: ${(e as Error).message}`); continue; }
          if (recs.length === 0) problem(`${packs} ${p.inst}/${p.k}: empty`);
          recs.forEach((rec, i) => {
            if (i > 0 && rec[0] <= recs[i - 1][0]) problem(`${packs} ${p.inst}/${p.k}: record ${i} out of order`);
            if (t.packOf(rec[0]) !== p.k) problem(`${packs} ${p.inst}/${p.k}: record ${rec[0]} belongs to another pack`);
            items.push({ inst: p.inst, pack: p.k, rec });
          });
        }
        return items;
      });
      for (;;) {
        const [a, b] = [await base.head(), await packed.head()];
        if (a === null && b === null) break;
        const c = a === null ? 1 : b === null ? -1 : cmp(a, b);
        if (c < 0) { problem(`${t.base} ${a!.inst}/${a!.rec[0]}: not in ${packs}`); base.next(); continue; }
        if (c > 0) { problem(`${packs} ${b!.inst}/${b!.pack}: record ${b!.rec[0]} has no ${t.base} row`); packed.next(); continue; }
        if (a!.rec.some((v, i) => v !== b!.rec[i])) problem(`${packs} ${b!.inst}/${b!.pack}: record ${b!.rec[0]} differs from its ${t.base} row`);
        base.next();
        packed.next();
      }
    }
    return res;
  }, { readOnly: true });
}
