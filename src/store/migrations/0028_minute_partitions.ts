import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: `bars_1m` and `bars_1m_packs` partitioned by year (docs/scaling.md), `bars_1m` by
 * range of `ts` (a year from its 1 January 00:00 in market time, UTC+8: the partition of year Y
 * holds the bars whose trading day is in Y), `bars_1m_packs` by range of `date`; partitions
 * `<table>_y<YEAR>`, one for each year with rows. The rows move in this migration's transaction
 * (all or nothing): the table is renamed, the partitioned one made, every row copied by one
 * INSERT … SELECT (routed to its year), the primary key built after (one sorted build per
 * partition, not an insert into a B-tree per row), the old table dropped. Later years' partitions
 * are made by the writes that need them (store/dialects/postgres-partitions.ts). SQLite: nothing.
 * Frozen: never import application code here (the bounds below are a copy of that file's).
 */
const OFFSET = 8 * 3600;
const yearStart = (y: number) => Date.UTC(y, 0, 1) / 1000 - OFFSET;

interface Table {
  name: string;
  columns: string;
  key: string;
  column: string;
  /** SQL of a row's year. */
  year: string;
  bounds(y: number): [number, number];
}

const TABLES: Table[] = [
  {
    name: 'bars_1m',
    columns:
      'inst integer not null, ts bigint not null, date integer not null, open bigint not null, high bigint not null, ' +
      'low bigint not null, close bigint not null, volume bigint not null, amount bigint not null',
    key: 'inst, ts',
    column: 'ts',
    year: `extract(year from to_timestamp(ts + ${OFFSET}) at time zone 'UTC')::int`,
    bounds: (y) => [yearStart(y), yearStart(y + 1)],
  },
  {
    name: 'bars_1m_packs',
    columns: 'inst integer not null, date integer not null, n integer not null, data bytea not null',
    key: 'inst, date',
    column: 'date',
    year: 'date / 10000',
    bounds: (y) => [y * 10_000, (y + 1) * 10_000],
  },
];

async function partition(db: Kysely<any>, t: Table): Promise<void> {
  const old = `${t.name}_unpartitioned`;
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`alter table ${t.name} rename to ${old}`);
  await run(`alter index ${t.name}_pkey rename to ${old}_pkey`);
  await run(`create table ${t.name} (${t.columns}) partition by range (${t.column})`);
  const { rows } = await sql.raw<{ y: number }>(`select distinct ${t.year} as y from ${old} order by y`).execute(db);
  for (const { y } of rows) {
    const [from, to] = t.bounds(y);
    await run(`create table ${t.name}_y${y} partition of ${t.name} for values from (${from}) to (${to})`);
  }
  const cols = t.columns
    .split(', ')
    .map((c) => c.split(' ')[0])
    .join(', ');
  await run(`insert into ${t.name} (${cols}) select ${cols} from ${old}`);
  await run(`alter table ${t.name} add primary key (${t.key})`);
  await run(`drop table ${old}`);
  await run(`analyze ${t.name}`);
}

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const t of TABLES) await partition(db, t);
}
