/**
 * Page latency of a ten-year whole-market 1-minute store against a one-year one (docs/scaling.md),
 * on PostgreSQL. A 1m page reads one or two day packs by primary key (bars_1m_packs: instrument,
 * date), so what grows with the years is the table and its index; this builds both sizes of that
 * table and times the same pages on each.
 *
 * Simulated, and how: `--fillers` instruments (5,300: the whole market's equities) get a pack row
 * for every weekday of the years (13 M rows over ten years), each holding one record (56 bytes:
 * the index and the row count are those of the real store; the heap is smaller, which no page
 * read touches); `--measured` equities get real day packs (241 records each) for every weekday,
 * and their pages are timed through the service (one worker, sequential requests, random days
 * over the whole span: a 240-bar page from a day's first bar), in two turns per store: p50 the
 * mean of the turns', p99 the larger.
 *
 *   npx tsx bench/minute-scale.ts --pg postgres://postgres@127.0.0.1:5432/postgres [--years 10] [--fillers 5300] [--requests 2000] [--unpartitioned]
 *
 * `--unpartitioned`: a third store, the many-year one's copy with its packs in one plain table
 * (as before migration 0028), timed in the same turns.
 *
 * The packs are partitioned by year (migration 0028): each year's partition is made first, as an
 * ingest would, and the sizes are summed over the partitions.
 *
 * Makes two databases on that server (mds_minute_scale_1y, mds_minute_scale_<years>y), dropped at
 * the end unless --keep. Needs `npm run build` (it serves dist/).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate, openStore } from '../src/derived/open.js';
import { KeyStore } from '../src/auth/keys.js';
import { encodePack } from '../src/store/packs.js';
import { MINUTE_LABELS } from '../src/market/sessions.js';
import { marketEpoch } from '../src/lib/time.js';
import { YearPartitions, type PartitionSql } from '../src/store/dialects/postgres-partitions.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { serveStore } from './serve.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { values: o } = parseArgs({
  options: {
    pg: { type: 'string' },
    years: { type: 'string', default: '10' },
    fillers: { type: 'string', default: '5300' },
    measured: { type: 'string', default: '4' },
    requests: { type: 'string', default: '2000' },
    keep: { type: 'boolean', default: false },
    unpartitioned: { type: 'boolean', default: false },
  },
});
if (!o.pg) throw new Error('--pg URL: the PostgreSQL server to build the two stores on');
const YEARS = Number(o.years);
const LAST_YEAR = 2025;

const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: o.pg });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
};
const dbUrl = (name: string) => {
  const u = new URL(o.pg!);
  u.pathname = `/${name}`;
  return u.toString();
};

/** Weekdays of the years, as YYYYMMDD. */
function weekdays(years: number): number[] {
  const out: number[] = [];
  for (let t = Date.UTC(LAST_YEAR - years + 1, 0, 1); t < Date.UTC(LAST_YEAR + 1, 0, 1); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    out.push(d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate());
  }
  return out;
}

/** A day pack of 241 1m bars for `date` (a random walk around 10). */
function dayPack(date: number): Buffer {
  let px = 1000;
  return encodePack(
    MINUTE_LABELS.map((m) => {
      px = Math.max(1, px + Math.round((Math.random() - 0.5) * 4));
      return [marketEpoch(date, m), px, px + 1, px - 1, px, 10000, px * 10000];
    }),
  );
}

async function build(
  name: string,
  years: number,
): Promise<{ url: string; key: string; ids: string[]; days: number[]; rows: number; bytes: string }> {
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = dbUrl(name);
  const store = openStore(url);
  const t = Date.now();
  try {
    await migrate(store);
    const measured = Number(o.measured);
    const ids = Array.from({ length: measured }, (_, i) => `${600000 + i}.SH`);
    const dir = mkdtempSync(join(tmpdir(), 'mds-minute-scale-'));
    const file = join(dir, 'instruments.csv');
    writeFileSync(
      file,
      ['instrument_id,kind,board,name,list_date', ...ids.map((id, i) => `${id},equity,main,测试${i},2000-01-04`)].join('\n') + '\n',
    );
    const r = await ingest(store, [{ path: file, dataset: dataset('instruments')! }]);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const insts = (await store.db.selectFrom('instruments').select(['inst', 'id']).execute()).map((x) => x.inst);
    const days = weekdays(years);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      // Each year's partition of the packs (store/dialects/postgres-partitions.ts), as an ingest makes them.
      await c.query('begin');
      const dollars = (q: string) => {
        let k = 0;
        return q.replace(/\?/g, () => `$${++k}`);
      };
      const sqlOf: PartitionSql = { query: async (q, p) => (await c.query(dollars(q), p)).rows, lockPacks: async () => {} };
      await new YearPartitions(sqlOf).ensureYears(new Set(days.map((d) => Math.floor(d / 10_000))));
      await c.query('commit');
      // The measured equities' real day packs, a year of days per statement.
      for (const inst of insts)
        for (let i = 0; i < days.length; i += 250) {
          const chunk = days.slice(i, i + 250);
          const params: unknown[] = [];
          const values = chunk.map((d) => {
            params.push(inst, d, MINUTE_LABELS.length, dayPack(d));
            const n = params.length;
            return `($${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
          });
          await c.query(`insert into bars_1m_packs (inst, date, n, data) values ${values.join(',')}`, params);
        }
      // The rest of the market: one record a day each.
      const filler = encodePack([[0, 1, 1, 1, 1, 1, 1]]);
      await c.query(
        `insert into bars_1m_packs (inst, date, n, data)
         select 100000 + i, d, 1, $3::bytea
         from generate_series(1, $1::int) i, unnest($2::int[]) d`,
        [Number(o.fillers), days, filler],
      );
      await c.query('analyze bars_1m_packs');
      // Summed over the partitions (pg_partition_tree lists a table not partitioned alone).
      const size = await c.query(
        'select count(*)::int as rows,' +
          " pg_size_pretty((select sum(pg_total_relation_size(relid)) from pg_partition_tree('bars_1m_packs'))) as total," +
          " pg_size_pretty((select sum(pg_relation_size(relid)) from pg_partition_tree('bars_1m_packs_pkey'))) as pkey," +
          " (select count(*)::int from pg_partition_tree('bars_1m_packs') where isleaf) as parts from bars_1m_packs",
      );
      const { key } = await new KeyStore(store.db).create('minute-scale');
      console.error(
        `${name}: ${size.rows[0].rows} pack rows in ${size.rows[0].parts} partitions, ${size.rows[0].total} (index ${size.rows[0].pkey}), built in ${((Date.now() - t) / 1000).toFixed(0)} s`,
      );
      return { url, key, ids, days, rows: size.rows[0].rows, bytes: `${size.rows[0].total} (index ${size.rows[0].pkey})` };
    } finally {
      await c.end();
    }
  } finally {
    await store.close();
  }
}

/** p50 and p99 (ms) of `n` sequential 240-bar 1m pages on random days, through a server over `url`. */
async function time(s: Awaited<ReturnType<typeof build>>, n: number) {
  const server = await serveStore(s.url);
  const base = server.base;
  try {
    const ask = async () => {
      const id = s.ids[Math.floor(Math.random() * s.ids.length)];
      const d = String(s.days[Math.floor(Math.random() * s.days.length)]);
      const path = `/api/v1/equities/${id}/bars?interval=1m&from=${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}&page[size]=240`;
      const t = performance.now();
      const r = await fetch(`${base}${path}`, { headers: { 'x-api-key': s.key } });
      const body = (await r.json()) as { data: unknown[] };
      if (r.status !== 200 || body.data.length !== 240) throw new Error(`${path}: ${r.status}, ${body.data?.length} bars`);
      return performance.now() - t;
    };
    for (let i = 0; i < 200; i++) await ask();
    const ms: number[] = [];
    for (let i = 0; i < n; i++) ms.push(await ask());
    ms.sort((a, b) => a - b);
    return { p50: ms[Math.floor(n / 2)], p99: ms[Math.floor(n * 0.99)] };
  } finally {
    server.stop();
  }
}

/**
 * A copy of `s` (its database as template) whose packs are one plain table again, as before
 * migration 0028: the same rows, timed in the same turns (`--unpartitioned`).
 */
async function unpartitioned(s: Awaited<ReturnType<typeof build>>): Promise<Awaited<ReturnType<typeof build>>> {
  const name = `${new URL(s.url).pathname.slice(1)}_plain`;
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name} template ${new URL(s.url).pathname.slice(1)}`);
  const url = dbUrl(name);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const q of [
      'begin',
      'create table bars_1m_packs_plain (like bars_1m_packs)',
      'insert into bars_1m_packs_plain select * from bars_1m_packs order by inst, date',
      'drop table bars_1m_packs',
      'alter table bars_1m_packs_plain rename to bars_1m_packs',
      'alter table bars_1m_packs add primary key (inst, date)',
      'commit',
      'analyze bars_1m_packs',
    ])
      await c.query(q);
    const size = await c.query(
      "select pg_size_pretty(pg_total_relation_size('bars_1m_packs')) as total, pg_size_pretty(pg_relation_size('bars_1m_packs_pkey')) as pkey",
    );
    return { ...s, url, bytes: `${size.rows[0].total} (index ${size.rows[0].pkey})` };
  } finally {
    await c.end();
  }
}

const stores = [await build('mds_minute_scale_1y', 1), await build(`mds_minute_scale_${YEARS}y`, YEARS)];
if (o.unpartitioned) stores.push(await unpartitioned(stores[1]));
const n = Number(o.requests);
const timed = [];
// In turns, twice each: the machine's noise falls on both.
for (let round = 0; round < 2; round++) for (const s of stores) timed.push({ s, ...(await time(s, n / 2)) });
console.log(`| store | 1m pack rows | table and index | page p50 ms | page p99 ms |\n|---|---|---|---|---|`);
for (const [i, s] of stores.entries()) {
  const mine = timed.filter((t) => t.s === s);
  const p50 = mine.reduce((sum, t) => sum + t.p50, 0) / mine.length;
  const p99 = Math.max(...mine.map((t) => t.p99));
  console.log(
    `| ${i === 0 ? 'one year' : `${YEARS} years`}${i === 2 ? ', one table (unpartitioned)' : ''} | ${s.rows.toLocaleString('en')} | ${s.bytes} | ${p50.toFixed(2)} | ${p99.toFixed(2)} |`,
  );
}
if (!o.keep) for (const s of stores) await admin(`drop database if exists ${new URL(s.url).pathname.slice(1)} with (force)`);
