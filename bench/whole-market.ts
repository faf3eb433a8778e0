/**
 * The whole market: a Tongdaxin `vipdoc` folder (the reference is red-mine/stock @ 598147c, 8,146
 * daily files, 2015–2023; docs/ingest.md, "Whole market") loaded by `mds ingest --tdx` (the
 * command, in a process of its own: its time and peak RSS) into a new store, then the questions asked across it, beside the same questions on the demo market:
 * ingest rows/s, peak RSS, bytes a bar, a day's pool and cross-section at the first request
 * (a new app: nothing cached) and asked again, a year of breadth, and daily bar pages p50/p99
 * (sequential). In the same run the peer a quant would use instead, DuckDB over the same files
 * (bench/duckdb-peer.ts): its load, the same questions in SQL on the same days, and whether its
 * answers agree with the service's (skipped, saying why, when @duckdb/node-api cannot load).
 *
 *   npx tsx bench/whole-market.ts --tdx /path/to/vipdoc [--pg URL] [--t0002 DIR] [--no-evening] [--days 20] [--pages 200] [--json FILE]
 *
 * Also in the run: bench/ingest.ts's rate (1M 1m bars from CSV), which the folder's ingest is
 * compared with. --pg URL: the folder is loaded again into a new database made on that server
 * (`mds_whole_market_<pid>`, dropped at the end), its size that database's.
 * Without a folder (--tdx or MDS_TDX_VIPDOC) it says so and exits 0. Timings on a shared machine
 * are noisy: compare the whole-market figures with the demo's of the same run. --json writes the
 * table's figures and the peer's agreement.
 *
 * Then an evening's update on each store (bench/tdx-evening.ts; --no-evening skips it): the folder
 * with its last day cut off, beside the install's T0002 (--t0002 DIR, else the one beside the
 * folder, else none), loaded by the command into a new store, then the whole folder again (the
 * update, timed as a command), then the day's limit-up pool at its first request on a new app. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, openStore } from '../src/derived/open.js';
import { generateDemo } from '../src/demo/generate.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { KeyStore } from '../src/auth/keys.js';
import type { Store } from '../src/store/types.js';
import { DuckPeer, type PeerLoad } from './duckdb-peer.js';
import { evening, eveningRuns, type EveningFigures } from './tdx-evening.js';
import { t0002Of } from '../src/ingest/tdx-install.js';
import { benchIngest } from './ingest.js';
import pg from 'pg';

/** A new database on the server of `url` (the bench's own, dropped after): the whole folder goes into an empty store. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mds_whole_market_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const u = new URL(url);
  u.pathname = '/' + name;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** Runs `mds --database URL ...args` (dist/cli, built by npm run bench:market): its output, wall time and peak RSS. */
function mds(url: string, ...args: string[]): { stdout: string; stderr: string; wall: number; rssKb: number } {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [
      '--require',
      fileURLToPath(new URL('./peak-rss.cjs', import.meta.url)),
      fileURLToPath(new URL('../dist/cli/index.js', import.meta.url)),
      '--database',
      url,
      ...args,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const wall = ms(t) / 1000;
  if (r.status !== 0) throw new Error(`mds ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { stdout: r.stdout, stderr: r.stderr, wall, rssKb: Number(/peak-rss-kb (\d+)/.exec(r.stderr)?.[1] ?? 0) };
}

/** A PostgreSQL store's size: its database's. */
async function pgBytes(store: Store): Promise<number> {
  const [[n]] = await store.selectRows('select pg_database_size(current_database())', []);
  return Number(n);
}

const { values: o } = parseArgs({
  options: {
    tdx: { type: 'string', default: process.env.MDS_TDX_VIPDOC },
    pg: { type: 'string' },
    days: { type: 'string', default: '20' },
    pages: { type: 'string', default: '200' },
    json: { type: 'string' },
    t0002: { type: 'string' },
    'no-evening': { type: 'boolean', default: false },
  },
});

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const median = (xs: number[]) => pct(xs, 0.5);

const REPEATS = 5;
const iso = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`;

interface Figures {
  store: string;
  bars: number;
  /** The load: seconds and the database's bytes (null: not measured here, or not a file). */
  load: number | null;
  bytes: number | null;
  /** First request (or execution) on each day: median and max; then the same asked again, p50. */
  pool: number;
  poolMax: number;
  poolAgain: number;
  cross: number;
  crossAgain: number;
  breadth: number;
  breadthAgain: number;
  pageP50: number;
  pageP99: number;
}

/** What the service answered, for the peer to ask the same and be compared with. */
interface Asked {
  days: string[];
  /** Limit-up pool members per day (every page). */
  pools: Map<string, string[]>;
  /** The first cross-section page's ids per day. */
  cross: Map<string, string[]>;
  breadthFrom: string;
  /** Breadth rows: YYYYMMDD → [advancers, decliners, unchanged]. */
  breadth: Map<number, [number, number, number]>;
  pageIds: string[];
}

/** A new app over `store`, having answered one request (its catalogue loaded, its code warm), nothing of a day cached. */
async function warm(store: Store, headers: Record<string, string>) {
  const app = await buildApp({ config: loadConfig({ DATABASE_URL: 'bench', LOG_LEVEL: 'silent' }), store });
  const r = await app.inject({ url: '/api/v1/equities?page[size]=1', headers });
  if (r.statusCode !== 200) throw new Error(`warm-up: ${r.statusCode}`);
  return app;
}

type App = Awaited<ReturnType<typeof warm>>;

/** `url` asked: its time (ms) and JSON body; throws on a status other than 200. */
async function ask(app: App, url: string, headers: Record<string, string>, what: string): Promise<[number, any]> {
  const t = process.hrtime.bigint();
  const r = await app.inject({ url, headers });
  const took = ms(t);
  if (r.statusCode !== 200) throw new Error(`${what}: ${r.statusCode} ${r.body.slice(0, 200)}`);
  return [took, r.json()];
}

/** `url` asked REPEATS times more: the times. */
async function again(app: App, url: string, headers: Record<string, string>, what: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < REPEATS; i++) out.push((await ask(app, url, headers, what))[0]);
  return out;
}

/** The questions across the market, each at its first request on a new app (no day cached), then again. */
async function questions(store: Store, name: string): Promise<{ figures: Figures; asked: Asked }> {
  const key = (await new KeyStore(store.db).create('bench')).key;
  const headers = { 'x-api-key': key };
  const [[bars]] = (await store.selectRows('select count(*) from bars_1d', [])) as number[][];
  const dates = (await store.selectRows("select date from market_breadth where market = 'SH' order by date", [])).map((r) => Number(r[0]));
  const n = +o.days!;
  const picked = Array.from(
    { length: Math.min(n, dates.length) },
    (_, i) => dates[Math.floor((i * (dates.length - 1)) / Math.max(1, n - 1))],
  );
  const asked: Asked = {
    days: picked.map(iso),
    pools: new Map(),
    cross: new Map(),
    breadthFrom: iso(dates[Math.max(0, dates.length - 250)]),
    breadth: new Map(),
    pageIds: [],
  };
  const pools: number[] = [],
    cross: number[] = [],
    poolsAgain: number[] = [],
    crossAgain: number[] = [];
  for (const day of asked.days) {
    // A new app for each day: its pool and cross-section at the first request, then asked again (the day cached).
    const app = await warm(store, headers);
    const poolUrl = `/api/v1/equities/pools/limit_up?date=${day}&page[size]=1000`,
      crossUrl = `/api/v1/markets/SZ/bars?date=${day}`;
    const [tp, p] = await ask(app, poolUrl, headers, `pool ${day}`);
    const [tc, c] = await ask(app, crossUrl, headers, `cross-section ${day}`);
    pools.push(tp);
    cross.push(tc);
    poolsAgain.push(...(await again(app, poolUrl, headers, `pool ${day}`)));
    crossAgain.push(...(await again(app, crossUrl, headers, `cross-section ${day}`)));
    const members: string[] = p.data.map((m: { instrument_id: string }) => m.instrument_id);
    for (let next = p.meta.next_cursor; next;) {
      const [, more] = await ask(app, `${poolUrl}&page[after]=${encodeURIComponent(next)}`, headers, `pool ${day}`);
      members.push(...more.data.map((m: { instrument_id: string }) => m.instrument_id));
      next = more.meta.next_cursor;
    }
    asked.pools.set(day, members);
    asked.cross.set(
      day,
      c.data.map((b: { instrument_id: string }) => b.instrument_id),
    );
    await app.close();
  }
  const app = await warm(store, headers);
  const breadthUrl = `/api/v1/markets/SH/breadth?from=${asked.breadthFrom}&page[size]=1000`;
  const [breadth, b] = await ask(app, breadthUrl, headers, 'breadth');
  const breadthAgain = median(await again(app, breadthUrl, headers, 'breadth'));
  for (const r of b.data) asked.breadth.set(Number(r.trade_date.replaceAll('-', '')), [r.advancers, r.decliners, r.unchanged]);
  const ids = (await store.selectRows("select id from instruments where kind = 'equity' order by id", [])).map((r) => String(r[0]));
  const pages: number[] = [];
  for (let i = 0; i < +o.pages!; i++) {
    const id = ids[(i * 7919) % ids.length];
    asked.pageIds.push(id);
    const t = process.hrtime.bigint();
    const r = await app.inject({ url: `/api/v1/equities/${id}/bars?interval=1d&page[size]=100`, headers });
    pages.push(ms(t));
    if (r.statusCode !== 200) throw new Error(`page ${id}: ${r.statusCode}`);
  }
  await app.close();
  return {
    figures: {
      store: name,
      bars,
      load: null,
      bytes: null,
      pool: median(pools),
      poolMax: Math.max(...pools),
      poolAgain: median(poolsAgain),
      cross: median(cross),
      crossAgain: median(crossAgain),
      breadth,
      breadthAgain,
      pageP50: median(pages),
      pageP99: pct(pages, 0.99),
    },
    asked,
  };
}

/** What the DuckDB peer's answers differ in from the service's (empty: none). */
interface Agreement {
  bars: [number, number];
  poolDays: number;
  poolMembers: [number, number];
  poolDiffs: string[];
  crossDiffs: string[];
  breadthDiffs: string[];
}

/** The same questions asked of DuckDB over the same folder (bench/duckdb-peer.ts), compared with the service's answers. */
async function peer(
  duck: Exclude<Awaited<ReturnType<typeof DuckPeer.api>>, string>,
  file: string,
  asked: Asked,
  serviceBars: number,
): Promise<{ figures: Figures; agreement: Agreement; load: PeerLoad }> {
  const p = await DuckPeer.open(duck, o.tdx!, file);
  const l = p.load;
  console.log(
    `DuckDB ${l.version}: ${l.rows.toLocaleString('en-US')} daily bars of ${l.instruments.toLocaleString('en-US')} files in ${l.seconds.toFixed(1)} s ` +
      `(${Math.round(l.rows / l.seconds).toLocaleString('en-US')} rows/s: read and decoded in ${l.decode.toFixed(1)} s, appended a chunk at a time and checkpointed in ${l.append.toFixed(1)} s)` +
      (l.bytes === null ? '' : `, ${(l.bytes / 1e6).toFixed(0)} MB: ${Math.round(l.bytes / l.rows)} bytes a bar`),
  );
  const agreement: Agreement = {
    bars: [serviceBars, l.rows],
    poolDays: asked.days.length,
    poolMembers: [0, 0],
    poolDiffs: [],
    crossDiffs: [],
    breadthDiffs: [],
  };
  const diff = (a: string[], b: string[]) => [a.filter((x) => !b.includes(x)), b.filter((x) => !a.includes(x))];
  const pools: number[] = [],
    cross: number[] = [],
    poolsAgain: number[] = [],
    crossAgain: number[] = [];
  const time = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
    const t = process.hrtime.bigint();
    const r = await f();
    return [ms(t), r];
  };
  for (const day of asked.days) {
    const [tp, members] = await time(() => p.pool(day));
    const [tc, ids] = await time(() => p.cross('SZ', day));
    pools.push(tp);
    cross.push(tc);
    for (let i = 0; i < REPEATS; i++) poolsAgain.push((await time(() => p.pool(day)))[0]);
    for (let i = 0; i < REPEATS; i++) crossAgain.push((await time(() => p.cross('SZ', day)))[0]);
    const service = asked.pools.get(day)!;
    agreement.poolMembers[0] += service.length;
    agreement.poolMembers[1] += members.length;
    const [onlyService, onlyPeer] = diff(service, members);
    if (onlyService.length || onlyPeer.length)
      agreement.poolDiffs.push(
        `${day}: service ${service.length}, DuckDB ${members.length}` +
          `${onlyService.length ? `; only the service: ${onlyService.slice(0, 5).join(' ')}` : ''}${onlyPeer.length ? `; only DuckDB: ${onlyPeer.slice(0, 5).join(' ')}` : ''}`,
      );
    if (asked.cross.get(day)!.join() !== ids.join())
      agreement.crossDiffs.push(
        `${day}: ${diff(asked.cross.get(day)!, ids)
          .map((x) => x.slice(0, 3).join(' '))
          .join(' / ')}`,
      );
  }
  const [breadth, rows] = await time(() => p.breadth('SH', asked.breadthFrom));
  const breadthAgain: number[] = [];
  for (let i = 0; i < REPEATS; i++) breadthAgain.push((await time(() => p.breadth('SH', asked.breadthFrom)))[0]);
  const peerBreadth = new Map(rows.map(([d, ...r]) => [d, r.join('/')]));
  for (const [d, r] of asked.breadth)
    if (peerBreadth.get(d) !== r.join('/'))
      agreement.breadthDiffs.push(`${d}: service ${r.join('/')}, DuckDB ${peerBreadth.get(d) ?? 'none'}`);
  const pages: number[] = [];
  for (const id of asked.pageIds) pages.push((await time(() => p.page(id)))[0]);
  p.close();
  return {
    figures: {
      store: `DuckDB ${l.version} (peer)`,
      bars: l.rows,
      load: l.seconds,
      bytes: l.bytes,
      pool: median(pools),
      poolMax: Math.max(...pools),
      poolAgain: median(poolsAgain),
      cross: median(cross),
      crossAgain: median(crossAgain),
      breadth,
      breadthAgain: median(breadthAgain),
      pageP50: median(pages),
      pageP99: pct(pages, 0.99),
    },
    agreement,
    load: l,
  };
}

/**
 * An evening's update on each store (bench/tdx-evening.ts): the folder as it was the evening
 * before, beside the install's T0002 (--t0002, else the one beside the folder), loaded into a new
 * store; then the whole folder again, timed; then the day's limit-up pool at its first request.
 */
async function eveningBench(dir: string): Promise<EveningFigures[]> {
  const e = evening(o.tdx!, join(dir, 'evening'), o.t0002 ?? t0002Of(o.tdx!));
  console.log(`evening: ${e.cut.toLocaleString('en-US')} records of ${e.day} and after cut off the folder's files`);
  const fresh = o.pg ? await freshDatabase(o.pg) : null;
  try {
    const urls = [{ name: 'SQLite', url: join(dir, 'evening.sqlite') }, ...(fresh ? [{ name: 'PostgreSQL', url: fresh.url }] : [])];
    return await eveningRuns(e, urls, mds, async (url, day) => {
      const store = openStore(url);
      try {
        const headers = { 'x-api-key': (await new KeyStore(store.db).create('bench')).key };
        const app = await warm(store, headers);
        const [took] = await ask(app, `/api/v1/equities/pools/limit_up?date=${day}&page[size]=1000`, headers, `pool ${day}`);
        await app.close();
        return took;
      } finally {
        await store.close();
      }
    });
  } finally {
    await fresh?.drop();
  }
}

async function main() {
  if (!o.tdx || !existsSync(o.tdx)) {
    console.log(
      `whole-market bench skipped: no Tongdaxin folder (give --tdx PATH or MDS_TDX_VIPDOC; ${o.tdx ? `${o.tdx} does not exist` : 'none given'})`,
    );
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'mds-whole-market-'));
  const rows: Figures[] = [];
  let agreement: Agreement | null = null,
    load: PeerLoad | null = null,
    skipped: string | null = null;
  let eveningRows: EveningFigures[] = [];
  try {
    const demo = openStore(join(dir, 'demo.sqlite'));
    await migrate(demo);
    await generateDemo(demo);
    rows.push((await questions(demo, 'demo (SQLite)')).figures);
    await demo.close();
    let asked: Asked | null = null;
    // The rate the whole folder is compared with: bench/ingest.ts's (1m bars from CSV), in this run.
    const base = await benchIngest({ rows: 1_000_000, log: () => {} });
    console.log(
      `bench/ingest.ts in this run: ${Math.round(base.ingestRowsPerSec).toLocaleString('en-US')} rows/s (half: ${Math.round(base.ingestRowsPerSec / 2).toLocaleString('en-US')})`,
    );
    const fresh = o.pg ? await freshDatabase(o.pg) : null;
    for (const url of [join(dir, 'market.sqlite'), ...(fresh ? [fresh.url] : [])]) {
      // The command an operator runs, in a process of its own: `mds migrate`, then `mds ingest --tdx`.
      mds(url, 'migrate');
      const run = mds(url, 'ingest', '--tdx', o.tdx);
      const loaded = Number(/^bars_1d: (\d+) rows/m.exec(run.stdout)?.[1]);
      const seconds = Number(/^committed: \d+ rows in ([\d.]+) s/m.exec(run.stdout)?.[1]);
      if (!loaded || !seconds) throw new Error(`mds ingest --tdx: ${run.stdout}${run.stderr}`);
      const store = openStore(url);
      const bytes = url.startsWith('postgres') ? await pgBytes(store) : statSync(url).size;
      console.log(
        `${url.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}: \`mds ingest --tdx\` loaded ${loaded.toLocaleString('en-US')} daily bars in ${seconds.toFixed(1)} s ` +
          `(${Math.round(loaded / seconds).toLocaleString('en-US')} rows/s, ${(loaded / seconds / base.ingestRowsPerSec).toFixed(2)}× bench/ingest.ts; ${run.wall.toFixed(1)} s with the process's start), ` +
          `peak RSS ${Math.round(run.rssKb / 1024)} MB, ${(bytes / 1e9).toFixed(2)} GB: ${Math.round(bytes / loaded)} bytes a bar`,
      );
      const q = await questions(store, url.startsWith('postgres') ? 'whole market (PostgreSQL)' : 'whole market (SQLite)');
      rows.push({ ...q.figures, load: seconds, bytes });
      asked ??= q.asked;
      await store.close();
    }
    await fresh?.drop();
    // The peer a quant would use instead, asked the same questions on the same days (bench/duckdb-peer.ts).
    const duck = await DuckPeer.api();
    if (typeof duck === 'string') console.log(`DuckDB peer skipped: ${(skipped = duck)}`);
    else {
      const p = await peer(duck, join(dir, 'peer.duckdb'), asked!, rows[1].bars);
      rows.push(p.figures);
      ({ agreement, load } = p);
    }
    if (!o['no-evening']) eveningRows = await eveningBench(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const f1 = (v: number) => v.toFixed(1);
  console.log(
    '| store | daily bars | load s (rows/s) | bytes a bar | pool, first request (median, max) ms | pool again p50 ms | cross-section page: first, again p50 ms ' +
      '| 250 days of breadth: first, again p50 ms | bars page p50 / p99 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const f of rows) {
    console.log(
      `| ${f.store} | ${f.bars.toLocaleString('en-US')} | ${f.load === null ? '—' : `${f1(f.load)} (${Math.round(f.bars / f.load).toLocaleString('en-US')})`} ` +
        `| ${f.bytes === null ? '—' : Math.round(f.bytes / f.bars)} | ${f1(f.pool)}, ${f1(f.poolMax)} | ${f1(f.poolAgain)} | ${f1(f.cross)}, ${f1(f.crossAgain)} ` +
        `| ${f1(f.breadth)}, ${f1(f.breadthAgain)} | ${f.pageP50.toFixed(2)} / ${f.pageP99.toFixed(2)} |`,
    );
  }
  if (agreement) {
    const a = agreement;
    if (a.bars[0] !== a.bars[1])
      console.log(
        `DuckDB holds ${a.bars[1] - a.bars[0]} daily bars more than the service's ${a.bars[0].toLocaleString('en-US')}: ` +
          'the service skips bars on days its calendar has the market closed (`mds ingest --tdx` counts them)',
      );
    console.log(
      `DuckDB's limit-up pools beside the service's on the same ${a.poolDays} days: ${a.poolMembers[1]} members against ${a.poolMembers[0]}; ` +
        `${a.poolDiffs.length ? `${a.poolDiffs.length} days differ:\n  ${a.poolDiffs.join('\n  ')}` : 'the same members every day'}`,
    );
    console.log(
      `cross-sections (first 100 of SZ by id): ${a.crossDiffs.length ? `${a.crossDiffs.length} days differ:\n  ${a.crossDiffs.join('\n  ')}` : 'the same instruments every day'}`,
    );
    console.log(
      `breadth (advancers/decliners/unchanged of SH): ${a.breadthDiffs.length ? `${a.breadthDiffs.length} days differ:\n  ${a.breadthDiffs.slice(0, 10).join('\n  ')}` : 'the same every day'}`,
    );
  }
  if (eveningRows.length) {
    console.log(
      `\nAn evening's update (the folder with its last day cut off loaded, then the whole folder again; ${eveningRows[0].read}):`,
    );
    console.log(
      "| store | the evening before loaded, s | the update: s of the command (in its transaction) | peak RSS MB | the day's pool, first request ms |",
    );
    console.log('|---|---|---|---|---|');
    for (const e of eveningRows)
      console.log(
        `| ${e.store} | ${f1(e.before)} | ${e.update.toFixed(2)} (${e.inTransaction.toFixed(1)}) | ${e.rssMb} | ${f1(e.pool)} (${e.day}) |`,
      );
  }
  if (o.json)
    writeFileSync(
      o.json,
      JSON.stringify({ rows, duckdb: agreement ? { load, agreement } : { skipped }, evening: eveningRows }, null, 2) + '\n',
    );
}

await main();
