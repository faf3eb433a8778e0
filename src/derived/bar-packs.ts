/**
 * Bar packs (store/packs.ts, the format) are derived data with one writer: `withBarPacks` wraps
 * every store (derived/open.ts `openStore`) and merges the bars that an upsert or bulk insert
 * writes into their stored packs (by key: a written bar replaces the record of its key, or adds
 * one), then has the data derived from the packs written again (the derivations of registry.ts
 * with a `write`: indicator states, precomputed indicator pages), in the same
 * transaction. The merge is exact because the store keeps the invariant that every pack equals
 * its base rows (bars are written only through the wrapped store, and the migration backfilled
 * the packs from the bars), so the base rows are never read back; `checkBarPacks` verifies the
 * invariant, and every derivation. Bars are never deleted.
 */
import { epochToMarketDate } from '../lib/time.js';
import type { BulkSession, Store, UpsertChanges } from '../store/types.js';
import { dailyPackKey, decodePack, mergePacks, PendingPack, RECORD_BYTES } from '../store/packs.js';
import { sessionWith } from '../store/session.js';
import { barsAfter, type BarTable } from '../store/tables/bars.js';
import { packsAfter, storedPacks, writePacks, type PackTable } from '../store/tables/bar-packs.js';
import { DERIVATIONS } from './registry.js';
import { versionsText, type Derivation } from './derivation.js';
import { trackMadeDays } from './made-days.js';

/** A packed bar table. */
interface PackedTable {
  base: BarTable;
  packs: PackTable;
  /** The base column of a record's key. */
  recordKey: 'date' | 'ts';
  /** The pack key of a row's `date`, and of a record's key (its date, its ts). */
  keyOf(date: number): number;
  packOf(k: number): number;
}

const DAILY: PackedTable = {
  base: 'bars_1d',
  packs: 'bars_1d_packs',
  recordKey: 'date',
  keyOf: dailyPackKey,
  packOf: dailyPackKey,
};

const MINUTE: PackedTable = {
  base: 'bars_1m',
  packs: 'bars_1m_packs',
  recordKey: 'ts',
  keyOf: (date) => date,
  // A 1m row's date is the market date of its ts (ingest derives it).
  packOf: epochToMarketDate,
};

const PACKED = new Map<string, PackedTable>([
  ['bars_1d', DAILY],
  ['bars_1m', MINUTE],
]);

/** How the rows of one write carry a pack's fields: column indices. */
interface Layout {
  inst: number;
  date: number;
  fields: number[];
}

/**
 * Bars written in one transaction and not yet merged into their packs, per table, instrument
 * and pack key, each pack's records in the order written.
 */

class Pending {
  readonly tables = new Map<PackedTable, Map<number, Map<number, PendingPack>>>();
  packs = 0;
  records = 0;

  /** The layout of writes of `columns` to `table`, or null when the table is not packed. */
  static layout(table: string, columns: string[]): [PackedTable, Layout] | null {
    const t = PACKED.get(table);
    if (!t) return null;
    const ix = (c: string) => columns.indexOf(c);
    const fields = [t.recordKey, 'open', 'high', 'low', 'close', 'volume', 'amount'].map(ix);
    if (ix('inst') < 0 || ix('date') < 0 || fields.includes(-1)) {
      throw new Error(`${table}: writes must carry the inst and date columns (bar packs are keyed by them) and every field of a bar`);
    }
    return [t, { inst: ix('inst'), date: ix('date'), fields }];
  }

  /** Records `rows` (values in `columns` order) written to `table`, if packed. */
  add(table: string, columns: string[], rows: unknown[][]): void {
    const l = Pending.layout(table, columns);
    if (!l || rows.length === 0) return;
    const [t, { inst: ii, date: di, fields }] = l;
    let byInst = this.tables.get(t);
    if (!byInst) this.tables.set(t, (byInst = new Map()));
    // Rows come in runs of one pack: remember the last one.
    let lastInst = NaN,
      lastKey = NaN,
      pack: PendingPack | undefined;
    for (const r of rows) {
      const inst = r[ii] as number,
        key = t.keyOf(r[di] as number);
      if (inst !== lastInst || key !== lastKey) {
        if (!Number.isSafeInteger(inst) || !Number.isSafeInteger(key)) throw new TypeError(`${table}: inst and date must be integers`);
        let packs = byInst.get(inst);
        if (!packs) byInst.set(inst, (packs = new Map()));
        pack = packs.get(key);
        if (!pack) {
          packs.set(key, (pack = new PendingPack()));
          this.packs++;
        }
        [lastInst, lastKey] = [inst, key];
      }
      pack!.push(r, fields);
    }
    this.records += rows.length;
  }

  /**
   * Merges the pending records into their stored packs through `s`, then forgets them. The first
   * merge of a transaction takes the session's pack lock first (BulkSession.lockPacks; a
   * PostgreSQL advisory lock): two writers merging into the same pack would otherwise each merge into
   * the pack as it stood before the other's commit, and the later commit would drop the other's
   * bars. Merges of concurrent writes thus run one after the other (SQLite has one writer anyway).
   */
  async flush(s: BulkSession): Promise<void> {
    if (this.packs === 0) return;
    await s.lockPacks();
    for (const [t, byInst] of this.tables) await merge(s, t, byInst);
    this.tables.clear();
    this.packs = 0;
    this.records = 0;
  }
}

/**
 * Pending packs, or records, that make a session merge before going on: bounds the memory of a
 * large load (250,000 records are 14 MB, about a thousand days of 1m bars).
 */
export interface PendingLimits {
  packs: number;
  records: number;
}
const PENDING: PendingLimits = { packs: 20_000, records: 250_000 };
/** Packs per read (`in` list) and per replacing insert (bound parameters stay far below both stores' limits). */
const READ_PACKS = 256;
const WRITE_PACKS = 64;

/**
 * Writes the packs of `pending` (instrument → pack key → records written) of a packed table
 * through `s`: each merged into its stored pack (read in batches, `inst = ? and key in (…)`),
 * or, when there is none yet, the new records alone. Packs are written by multi-row
 * `insert … on conflict do update` with bound Buffers (binary bytea on PostgreSQL, no COPY).
 */
async function merge(s: BulkSession, t: PackedTable, pending: Map<number, Map<number, PendingPack>>): Promise<void> {
  let out: unknown[][] = [];
  const flush = async () => {
    for (let i = 0; i < out.length; i += WRITE_PACKS) await writePacks(s, t.packs, out.slice(i, i + WRITE_PACKS));
    // And what is derived from them (registry.ts), in the same transaction.
    for (const d of DERIVATIONS) await d.write?.(s, t.packs, out);
    out = [];
  };
  for (const inst of [...pending.keys()].sort((a, b) => a - b)) {
    const packs = pending.get(inst)!;
    const keys = [...packs.keys()].sort((a, b) => a - b);
    for (let i = 0; i < keys.length; i += READ_PACKS) {
      const part = keys.slice(i, i + READ_PACKS);
      const stored = await storedPacks(s, t.packs, inst, part);
      for (const k of part) {
        const p = packs.get(k)!,
          recs = p.records(),
          old = stored.get(k);
        const data = old ? mergePacks(old[1], old[0], recs, recs.byteLength / RECORD_BYTES) : recs;
        out.push([inst, k, data.byteLength / RECORD_BYTES, data]);
      }
      if (out.length >= WRITE_PACKS) await flush();
    }
  }
  await flush();
}

/**
 * The earliest date that a transaction's writes can change, per derivation with a `remake`
 * (derivation.ts): the least date of the rows written to one of its `remakeAfter` tables.
 */
class RemakeFrom {
  private readonly from = new Map<Derivation, { from: number; tables: Map<string, number> }>();

  add(table: string, columns: string[], rows: unknown[][]): void {
    for (const d of DERIVATIONS) {
      const col = d.remakeAfter?.[table];
      if (col === undefined || !rows.length) continue;
      const ix = col === null ? -1 : columns.indexOf(col);
      let least = ix < 0 ? 0 : Infinity;
      if (ix >= 0) for (const r of rows) least = Math.min(least, Number(r[ix]));
      const seen = this.from.get(d) ?? { from: Infinity, tables: new Map<string, number>() };
      seen.from = Math.min(seen.from, least);
      seen.tables.set(table, Math.min(seen.tables.get(table) ?? Infinity, least));
      this.from.set(d, seen);
    }
  }

  get size(): number {
    return this.from.size;
  }

  /** Whether writes to `table` make a derivation's days again. */
  static marks(table: string): boolean {
    return DERIVATIONS.some((d) => d.remakeAfter?.[table] !== undefined);
  }

  /** Has each derivation forget its version instead (migration makes it again). */
  async forget(s: BulkSession): Promise<void> {
    for (const d of this.from.keys()) await d.forget!(s);
    this.from.clear();
  }

  /** Has each derivation make again what the writes changed, under the pack lock. */
  async run(s: BulkSession): Promise<void> {
    for (const [d, { from, tables }] of this.from) {
      await s.lockPacks();
      await d.remake!(s, from, tables);
    }
    this.from.clear();
  }
}

/**
 * Wraps a dialect store so that its writers keep the bar packs current. Packs are maintained by
 * merging: the bars a write carries are merged, by key, into the stored pack (a bar replaces the
 * record of its key or adds one); base rows are never read back. That is exact because every
 * pack equals its base rows before the write (the invariant this wrapper keeps: bars are written
 * only through its two writers, and migration 0003 backfilled the packs), and a write changes
 * exactly the base rows of the keys it carries. `checkBarPacks` verifies the invariant (bars
 * written around the wrapper show up there).
 * - A `bulkTransaction` records, per pack, the rows of its upserts into a bar table (when an
 *   upsert changed anything) in the order written, and merges them through its own session
 *   after `fn` resolves, before the commit (a rollback drops them with the bars), or earlier
 *   once `limits` are reached (a later merge of the same pack merges into what the earlier one
 *   wrote). Upserts apply rows in order, a later row of a key replacing an earlier one (an equal
 *   row is left alone, and equals the record already there), and so does the merge: of the
 *   records written to a key, the last wins.
 * - Rows of a session's `insert` are merged alike; a `bulkInsert` is one transaction of its own
 *   (rows, packs and what is derived from them commit together: no snapshot sees rows without
 *   their packs; rows of one pack may arrive over several calls).
 * - With `deferDerived`, data derived by date (derived/market-days.ts) is forgotten instead of
 *   made (the demo makes it whole before its commit: demo/generate.ts).
 * Bar values must be integers below 2^53 (the stores' units; checked before anything is packed):
 * a pack holds the values as written, which is how both stores keep them.
 */
export function withBarPacks(store: Store, limits: PendingLimits = PENDING): Store {
  return {
    dialect: store.dialect,
    readCost: store.readCost,
    db: store.db,
    health: store.health,
    select: <T>(sql: string, params: unknown[]) => store.select<T>(sql, params),
    selectRows: (sql, params) => store.selectRows(sql, params),
    snapshot: (want) => store.snapshot(want),
    ...(store.replicas ? { replicas: () => store.replicas!() } : {}),
    ...(store.primary ? { primary: () => store.primary!() } : {}),
    ...(store.watchVersions ? { watchVersions: (on: (v: number) => void) => store.watchVersions!(on) } : {}),
    ...(store.backup ? { backup: (file: string) => store.backup!(file) } : {}),
    bulkInsert(table, columns, rows, opts) {
      // One transaction: the rows, their packs and what is derived from them commit together.
      return this.bulkTransaction((s) => s.insert(table, columns, rows), { deferDerived: opts?.deferDerived });
    },
    bulkTransaction(fn, opts) {
      return store.bulkTransaction(async (s) => {
        const pending = new Pending();
        const remakes = new RemakeFrom();
        /** Merges what is pending, and makes (or, deferred, forgets) what is derived by date. */
        const settle = async () => {
          await pending.flush(s);
          await (opts?.deferDerived ? remakes.forget(s) : remakes.run(s));
        };
        /**
         * Records rows written to `table` (checked first: a write that cannot be packed fails before it writes
         * anything); `write` gives the rows that changed (all of them, when it cannot tell), or none.
         */
        const written = async (table: string, columns: string[], rows: unknown[][], write: () => Promise<unknown[][]>) => {
          Pending.layout(table, columns);
          const changed = await write();
          if (changed.length) {
            pending.add(table, columns, rows);
            remakes.add(table, columns, changed);
          }
          if (pending.packs >= limits.packs || pending.records >= limits.records) await pending.flush(s);
        };
        const session = sessionWith(s, {
          settle,
          async upsert(target, rows, opts) {
            let c: UpsertChanges = { inserted: 0, updated: 0, unchanged: 0 };
            // Of a table (not bars) whose writes make days again, only the rows that changed mark them: a row
            // loaded again unchanged (a gbbq read again for one changed row) makes nothing again.
            const ask = opts?.changed || (!PACKED.has(target.table) && RemakeFrom.marks(target.table));
            await written(target.table, target.columns, rows, async () => {
              c = await s.upsert(target, rows, ask ? { changed: true } : undefined);
              if (c.inserted + c.updated === 0) return [];
              return c.changed ? c.changed.map((i) => rows[i]) : rows;
            });
            return c;
          },
          async insert(table, columns, rows) {
            await written(table, columns, rows, async () => {
              await s.insert(table, columns, rows);
              return rows;
            });
          },
        });
        // The days made in the transaction, for a step that asks about them before the commit (ingest's limit check).
        trackMadeDays(s, session);
        const result = await fn(session);
        await settle();
        return result;
      }, opts);
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

/** What `checkBarPacks` found of one derivation: its stored and code versions, and what it compared (in `unit`s). */
export interface DerivationCheck {
  stored: string | null;
  version: string;
  compared: number;
  unit: string;
}

/**
 * What `checkBarPacks` found: packs and base rows compared, each derivation (by name, registry
 * order), the problems found and the first of them.
 */
export interface BarPackCheck {
  packs: number;
  rows: number;
  derived: Record<string, DerivationCheck>;
  found: number;
  problems: string[];
}

interface Item {
  inst: number;
  pack: number;
  rec: number[];
}

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
  next(): void {
    this.i++;
  }
}

const cmp = (a: Item, b: Item) => a.inst - b.inst || a.pack - b.pack || a.rec[0] - b.rec[0];

/**
 * Checks, on one read snapshot, that the packs are exactly the base bars: every pack decodes to
 * its base rows in order, under the right key, and every base row is in a pack; and that every
 * derivation of registry.ts holds the code's version and what the code makes now (its `check`).
 * For tests and operators (`mds check`; bars written around `openStore` show up here).
 */
export function checkBarPacks(store: Store, maxProblems = 20): Promise<BarPackCheck> {
  return store.bulkTransaction(
    async (s) => {
      const res: BarPackCheck = { packs: 0, rows: 0, derived: {}, found: 0, problems: [] };
      const problem = (p: string) => {
        if (res.found++ < maxProblems) res.problems.push(p);
      };
      for (const t of PACKED.values()) {
        const { packs } = t;
        let rowPos: [number, number] | null = null;
        const base = new Cursor(async () => {
          const rows = (await barsAfter(s, t.base, rowPos, 10_000)) as number[][];
          if (!rows.length) return null;
          rowPos = [rows[rows.length - 1][0], rows[rows.length - 1][1]];
          res.rows += rows.length;
          return rows.map((r) => ({ inst: r[0], pack: t.keyOf(r[8]), rec: r.slice(1, 8) }));
        });
        let packPos: [number, number] | null = null;
        const packed = new Cursor(async () => {
          const rows = await packsAfter(s, packs, packPos, 500);
          if (!rows.length) return null;
          packPos = [rows[rows.length - 1].inst, rows[rows.length - 1].k];
          res.packs += rows.length;
          const items: Item[] = [];
          for (const p of rows) {
            let recs: number[][];
            try {
              recs = decodePack(p.data, p.n);
            } catch (e) {
              problem(`${packs} ${p.inst}/${p.k}: ${(e as Error).message}`);
              continue;
            }
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
          if (c < 0) {
            problem(`${t.base} ${a!.inst}/${a!.rec[0]}: not in ${packs}`);
            base.next();
            continue;
          }
          if (c > 0) {
            problem(`${packs} ${b!.inst}/${b!.pack}: record ${b!.rec[0]} has no ${t.base} row`);
            packed.next();
            continue;
          }
          if (a!.rec.some((v, i) => v !== b!.rec[i]))
            problem(`${packs} ${b!.inst}/${b!.pack}: record ${b!.rec[0]} differs from its ${t.base} row`);
          base.next();
          packed.next();
        }
      }
      for (const d of DERIVATIONS) {
        const [stored, version] = [await d.stored(s), d.version()];
        if (stored !== version) problem(`${d.name}: ${versionsText(stored, version)} (mds migrate rebuilds it)`);
        res.derived[d.name] = { stored, version, compared: await d.check(s, problem), unit: d.unit };
      }
      return res;
    },
    { readOnly: true },
  );
}
