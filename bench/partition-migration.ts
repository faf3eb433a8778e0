/**
 * How long migration 0028 takes to partition an existing PostgreSQL store's 1m tables by year
 * (docs/scaling.md, "Partitions"): builds a store as migration 0027 left it, with `--instruments`
 * × `--days` (weekdays over `--years` years) × 241 1m bars and one day pack each (one record: the
 * migration copies a pack's bytes as they are, whatever they hold), then times `migrate`.
 *
 *   npx tsx bench/partition-migration.ts --pg postgres://postgres@127.0.0.1:5432/postgres [--instruments 100] [--years 3] [--days 50]
 *
 * Then `mds ingest`'s path on the same store before and after the migration (the upsert's merge
 * counts inserted rows otherwise on a partitioned table: RETURNING has no xmax there): `--ingest-equities`
 * equities × 20 trading days of 1m bars, new (a year of their own: 2022 before, 2021 after) and
 * loaded again unchanged, each timed.
 *
 * Makes the database mds_partition_migration on that server, dropped at the end unless --keep.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate, openStore } from '../src/derived/open.js';
import { ensureDerived } from '../src/derived/ensure.js';
import { migrateSchema } from '../src/store/migrate.js';
import { encodePack } from '../src/store/packs.js';
import { MINUTE_LABELS } from '../src/market/sessions.js';
import { formatTimestamp, marketEpoch } from '../src/lib/time.js';
import { marketTradingDays } from '../src/market/calendar.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import type { Store } from '../src/store/types.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { values: o } = parseArgs({
  options: {
    pg: { type: 'string' },
    instruments: { type: 'string', default: '100' },
    years: { type: 'string', default: '3' },
    days: { type: 'string', default: '50' },
    'ingest-equities': { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
if (!o.pg) throw new Error('--pg URL: the PostgreSQL server to build the store on');
const NAME = 'mds_partition_migration';

async function onServer<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The first `n` weekdays of each of the `years` years before 2026, as YYYYMMDD. */
function days(years: number, n: number): number[] {
  const out: number[] = [];
  for (let y = 2026 - years; y < 2026; y++)
    for (let t = Date.UTC(y, 0, 2), k = 0; k < n; t += 86_400_000) {
      const d = new Date(t);
      if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
      out.push(y * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate());
      k++;
    }
  return out;
}

/** A bars_1m file of 241 bars a day of `ids` on `days` (valid bars near 10.00); returns its rows. */
function writeMinuteBars(path: string, ids: string[], days: number[]): number {
  const lines = ['instrument_id,timestamp,open,high,low,close,volume,amount'];
  for (const id of ids)
    for (const d of days)
      for (const m of MINUTE_LABELS) {
        const c = 1000 + (lines.length % 50);
        lines.push(
          `${id},${formatTimestamp(marketEpoch(d, m))},10.00,${(c / 100 + 0.1).toFixed(2)},9.90,${(c / 100).toFixed(2)},100,1000.00`,
        );
      }
  writeFileSync(path, lines.join('\n') + '\n');
  return lines.length - 1;
}

/** Ingest timed on `store`: equities' 1m bars of 20 trading days of `year`, new, then the same file again. */
async function ingestRounds(store: Store, year: number): Promise<{ rows: number; fresh: number; again: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'mds-partition-ingest-'));
  const ids = Array.from({ length: Number(o['ingest-equities']) }, (_, i) => `${600000 + i}.SH`);
  const list = join(dir, 'instruments.csv');
  writeFileSync(
    list,
    ['instrument_id,kind,board,name,list_date', ...ids.map((id, i) => `${id},equity,main,测试${i},2000-01-04`)].join('\n') + '\n',
  );
  const file = join(dir, 'bars_1m.csv');
  const rows = writeMinuteBars(file, ids, marketTradingDays('SH', year * 10000 + 101, year * 10000 + 1231).slice(0, 20));
  const load = async (f: string, name: string) => {
    const t = Date.now();
    const r = await ingest(store, [{ path: f, dataset: dataset(name)! }]);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return (Date.now() - t) / 1000;
  };
  await load(list, 'instruments');
  return { rows, fresh: await load(file, 'bars_1m'), again: await load(file, 'bars_1m') };
}

await onServer(o.pg, async (c) => {
  await c.query(`drop database if exists ${NAME} with (force)`);
  await c.query(`create database ${NAME}`);
});
const u = new URL(o.pg);
u.pathname = `/${NAME}`;
const url = u.toString();
const store = openStore(url);
try {
  await migrateSchema(store, '0027_tdx_files');
  await ensureDerived(store);
  const dates = days(Number(o.years), Number(o.days));
  const minutes = dates.flatMap((d) => MINUTE_LABELS.map((m) => marketEpoch(d, m)));
  const t0 = Date.now();
  await onServer(url, async (c) => {
    // Rows straight into the tables (no ingest: the bars' values do not matter to the migration).
    await c.query(
      `insert into bars_1m (inst, ts, date, open, high, low, close, volume, amount)
       select i, ts, (to_char(to_timestamp(ts + 28800) at time zone 'UTC', 'YYYYMMDD'))::int, 1000, 1010, 990, 1000, 100, 100000
       from generate_series(1, $1::int) i, unnest($2::bigint[]) ts`,
      [Number(o.instruments), minutes],
    );
    await c.query(
      `insert into bars_1m_packs (inst, date, n, data) select i, d, 1, $3::bytea from generate_series(1, $1::int) i, unnest($2::int[]) d`,
      [Number(o.instruments), dates, encodePack([[0, 1, 1, 1, 1, 1, 1]])],
    );
    await c.query('analyze bars_1m, bars_1m_packs');
  });
  const counts = await onServer(url, async (c) => {
    const r = await c.query(
      "select (select count(*)::int from bars_1m) as bars, (select count(*)::int from bars_1m_packs) as packs, pg_size_pretty(pg_total_relation_size('bars_1m') + pg_total_relation_size('bars_1m_packs')) as size",
    );
    return r.rows[0] as { bars: number; packs: number; size: string };
  });
  console.error(
    `built ${counts.bars.toLocaleString('en')} 1m bars and ${counts.packs.toLocaleString('en')} packs (${counts.size}) in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  const ingests = await ingestRounds(store, 2022);
  const t1 = Date.now();
  const r = await migrate(store);
  const s = (Date.now() - t1) / 1000;
  const parts = await onServer(
    url,
    async (c) => (await c.query("select count(*)::int as n from pg_partition_tree('bars_1m') where isleaf")).rows[0].n as number,
  );
  console.log(
    `migrated (${r.applied.join(', ')}): ${counts.bars.toLocaleString('en')} 1m bars and ${counts.packs.toLocaleString('en')} packs ` +
      `into ${parts} year partitions each in ${s.toFixed(1)} s (${Math.round(counts.bars / s).toLocaleString('en')} bars a second)`,
  );
  const after = await ingestRounds(store, 2021);
  for (const [when, x] of [
    ['before (0027)', ingests],
    ['after (partitioned)', after],
  ] as const)
    console.log(
      `ingest ${when}: ${x.rows.toLocaleString('en')} new 1m bars ${x.fresh.toFixed(2)} s, again unchanged ${x.again.toFixed(2)} s`,
    );
} finally {
  await store.close();
  if (!o.keep) await onServer(o.pg, (c) => c.query(`drop database if exists ${NAME} with (force)`));
}
