/**
 * The tables partitioned by year on PostgreSQL (migration 0028, docs/scaling.md): `bars_1m`, by
 * range of `ts` (a year's bounds the epoch seconds of its 1 January 00:00 in market time, so
 * that the partition of year Y holds exactly the bars whose trading day is in Y), and
 * `bars_1m_packs`, by range of `date` (YYYYMMDD). Their partitions are named `<table>_y<YEAR>`
 * (`bars_1m_y2024`, `bars_1m_packs_y2024`).
 *
 * A write that touches a year without a partition makes both tables' partitions of that year,
 * in its own transaction (all or nothing: an ingest that fails leaves none). A partition is made
 * apart and then ATTACHed: ATTACH PARTITION locks the parent in SHARE UPDATE EXCLUSIVE mode,
 * which readers and writers do not wait for (CREATE TABLE … PARTITION OF would take ACCESS
 * EXCLUSIVE until the ingest commits, stopping every minute page meanwhile), and which two
 * attaches do: a writer that finds a year missing takes the pack lock (the one every pack merge
 * takes, so the two are always taken in one order), then that lock, and looks again. There is no
 * default partition: a row of a year without one fails its statement rather than land where a
 * later partition of its year could not be attached.
 */
import { MARKET_OFFSET_SECONDS } from '../../lib/time.js';

/** A partitioned table: the column of its range, a value's year, and a year's bounds [from, to). */
interface Partitioned {
  column: string;
  yearOf(v: number): number;
  bounds(year: number): [number, number];
}

/** Epoch seconds of 1 January of `year`, 00:00 market time. */
const yearStart = (year: number) => Date.UTC(year, 0, 1) / 1000 - MARKET_OFFSET_SECONDS;

export const PARTITIONED: Readonly<Record<string, Partitioned>> = {
  bars_1m: {
    column: 'ts',
    yearOf: (ts) => new Date((ts + MARKET_OFFSET_SECONDS) * 1000).getUTCFullYear(),
    bounds: (y) => [yearStart(y), yearStart(y + 1)],
  },
  bars_1m_packs: {
    column: 'date',
    yearOf: (date) => Math.floor(date / 10_000),
    bounds: (y) => [y * 10_000, (y + 1) * 10_000],
  },
};

/** The tables whose partitions of a year are made together (a year's bars and their packs). */
const FAMILY = Object.keys(PARTITIONED);

/** The partition of `table` holding year `year`. */
export const partitionName = (table: string, year: number) => `${table}_y${year}`;

/** What the partition code runs its statements through (a transaction's connection). */
export interface PartitionSql {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Takes the transaction's pack lock (BulkSession.lockPacks). */
  lockPacks(): Promise<void>;
}

/** The years of the rows `rows` of `table` (column `ix` holds the partition key), in no order. */
export function yearsOf(table: string, rows: readonly unknown[][], ix: number): Set<number> {
  const p = PARTITIONED[table];
  const years = new Set<number>();
  let lo = Infinity,
    hi = -Infinity;
  for (const r of rows) {
    const v = Number(r[ix]);
    // Rows come in runs of one year: only a value outside the last year's bounds is looked at.
    if (v >= lo && v < hi) continue;
    const y = p.yearOf(v);
    if (!Number.isInteger(y))
      throw new TypeError(`${table}: ${p.column} ${String(r[ix])} is not a ${p.column === 'ts' ? 'timestamp' : 'date'}`);
    years.add(y);
    [lo, hi] = p.bounds(y);
  }
  return years;
}

/** The partitions attached to the family's tables, by name. */
async function attached(s: PartitionSql): Promise<Set<string>> {
  const rows = await s.query<{ name: string }>(
    'select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent' +
      ' where p.relname = any(?::text[])',
    [FAMILY],
  );
  return new Set(rows.map((r) => r.name));
}

/**
 * A transaction's view of the year partitions: `ensure` makes sure that the year partitions of
 * rows about to be written exist, attached, for every table of the family, making those
 * missing in the transaction. Those seen are remembered, so a write to years seen costs nothing;
 * a store not partitioned (one not migrated past 0027) is left alone.
 */
export class YearPartitions {
  private readonly known = new Set<string>();
  private partitioned: boolean | undefined;

  constructor(private readonly s: PartitionSql) {}

  /** Whether `table` is partitioned here (known once a write to it has been through `ensure`). */
  has(table: string): boolean {
    return this.partitioned === true && PARTITIONED[table] !== undefined;
  }

  /** Makes sure that the partitions of the years of `rows` (values in `columns` order) written to `table` exist. */
  async ensure(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
    const p = PARTITIONED[table];
    if (!p || rows.length === 0 || this.partitioned === false) return;
    const ix = columns.indexOf(p.column);
    if (ix < 0) throw new Error(`${table}: writes must carry ${p.column} (the table is partitioned by it)`);
    await this.ensureYears(yearsOf(table, rows, ix));
  }

  /**
   * Makes the missing partitions of `years`. A table of a missing partition's name that is not
   * attached (a year detached to be archived) is an error that says so.
   */
  async ensureYears(years: Iterable<number>): Promise<void> {
    const wanted = [...years].flatMap((y) => FAMILY.map((t) => [t, y] as const)).filter(([t, y]) => !this.known.has(partitionName(t, y)));
    if (wanted.length === 0) return;
    if (this.partitioned === undefined) {
      const [{ n }] = await this.s.query<{ n: number }>(
        'select count(*)::int as n from pg_partitioned_table t join pg_class c on c.oid = t.partrelid where c.relname = any(?::text[])',
        [FAMILY],
      );
      this.partitioned = n > 0;
      if (!this.partitioned) return;
    }
    let there = await attached(this.s);
    if (wanted.some(([t, y]) => !there.has(partitionName(t, y)))) {
      await this.s.lockPacks();
      await this.s.query(`lock table ${FAMILY.join(', ')} in share update exclusive mode`);
      there = await attached(this.s);
      for (const [t, y] of wanted) if (!there.has(partitionName(t, y))) await makePartition(this.s, t, y);
    }
    for (const [t, y] of wanted) this.known.add(partitionName(t, y));
  }
}

/** Creates year `year`'s partition of `table` and attaches it (its primary key made by the attach). */
async function makePartition(s: PartitionSql, table: string, year: number): Promise<void> {
  const name = partitionName(table, year);
  const [{ exists }] = await s.query<{ exists: boolean }>('select to_regclass(?) is not null as exists', [name]);
  if (exists) {
    throw new Error(
      `${table}: the partition of ${year}, ${name}, exists but is not attached (detached to be archived?): ` +
        `attach it again (alter table ${table} attach partition ${name} for values from … to …, docs/scaling.md) before writing rows of ${year}`,
    );
  }
  const [from, to] = PARTITIONED[table].bounds(year);
  await s.query(`create table ${name} (like ${table} including defaults including constraints)`);
  await s.query(`alter table ${table} attach partition ${name} for values from (${from}) to (${to})`);
}
