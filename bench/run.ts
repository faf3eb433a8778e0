/**
 * `npm run bench`: builds a benchmark store (cached in bench/.data), starts the server and two
 * reference handlers in their own processes, drives each from a separate process on loopback
 * (wrk -t1 when installed, else autocannon; bounded in time), prints a table of figures, their
 * ratios to the references and the targets, and writes bench/results/latest.json and
 * bench/results/<commit>-<equities>x<days>.json (kept in git, to compare commits with --compare).
 *
 *   --equities N (5000)  --days N (1000)  --minute-days N (5)  --seconds S (10)  --connections C (64)
 *   --workers N (2: the bars pages again with WORKERS=N)  --pg URL (the bars page on PostgreSQL)
 *   --scale (p50 at 1 M vs 50 M bars)  --compare FILE (an earlier results file: rps ratios to it)
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { precomputedIds, setPrecomputed } from '../src/derived/indicator-pages.js';
import { KeyStore } from '../src/auth/keys.js';
import { buildBenchStore } from './build-store.js';
import { benchIngest } from './ingest.js';
import { waitReady } from './serve.js';

const { values: o } = parseArgs({
  options: {
    equities: { type: 'string', default: '5000' },
    days: { type: 'string', default: '1000' },
    'minute-days': { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    workers: { type: 'string', default: '2' },
    pg: { type: 'string' },
    scale: { type: 'boolean', default: false },
    'ingest-rows': { type: 'string', default: '1000000' },
    compare: { type: 'string' },
  },
});
const size = { equities: +o.equities!, days: +o.days!, minuteDays: +o['minute-days']!, end: 20261120 };
const SECONDS = +o.seconds!,
  CONN = +o.connections!;
const DIR = new URL('./.data/', import.meta.url).pathname;
const DB = `${DIR}bench-${size.equities}x${size.days}-${size.minuteDays}.sqlite`;
mkdirSync(DIR, { recursive: true });
mkdirSync(new URL('./results/', import.meta.url).pathname, { recursive: true });

async function prepare(url: string, build: boolean) {
  const store: Store = openStore(url);
  if (build) {
    const t = Date.now();
    const c = await buildBenchStore(store, size);
    console.error(`built ${url}: ${JSON.stringify(c)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  // MACD precomputed (derived/indicator-pages.ts), as an operator would with `mds indicators
  // precompute macd`; KDJ is left computed, and both are measured.
  await migrate(store);
  const precomputed = await store.bulkTransaction(precomputedIds, { readOnly: true });
  if (!precomputed.includes('macd')) {
    const t = Date.now();
    await setPrecomputed(store, [...precomputed, 'macd']);
    console.error(`precomputed macd in ${url} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const key = (await new KeyStore(store.db).create('bench')).key;
  const ids = (await store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').execute()).map((r) => r.id);
  const days = (await store.db.selectFrom('bars_1m').select('date').where('inst', '=', 1).distinct().orderBy('date').execute()).map(
    (r) => r.date,
  );
  await store.close();
  return { key, ids, days };
}

/** Migrates a store and tells whether it holds no instruments yet. */
async function migrateAndCount(store: Store): Promise<boolean> {
  await migrate(store);
  const n = await store.db.selectFrom('instruments').select('inst').limit(1).execute();
  await store.close();
  return n.length === 0;
}

/** Resident memory of a process and its children (cluster workers), MiB. */
async function rss(pid: number): Promise<number> {
  const { readFile, readdir } = await import('node:fs/promises');
  const kb = async (p: number) => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${p}/status`, 'utf8').catch(() => ''))?.[1] ?? 0);
  let total = await kb(pid);
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = await readFile(`/proc/${d}/stat`, 'utf8').catch(() => '');
    if (stat.split(') ')[1]?.split(' ')[1] === String(pid)) total += await kb(+d);
  }
  return Math.round(total / 1024);
}

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  rssMb: number;
  runs?: Row[];
  group?: number;
}

const HAVE_WRK = spawnSync('wrk', ['--version']).error === undefined;

/** Drives one scenario: wrk (C, one thread) when installed, else autocannon (in this process). */
async function load(
  scenario: string,
  port: number,
  pid: number,
  path: () => string,
  headers: Record<string, string>,
  processes = 1,
): Promise<Row> {
  let row: Row;
  if (HAVE_WRK) {
    const file = `${DIR}paths.txt`;
    writeFileSync(file, Array.from({ length: 20_000 }, path).join('\n') + '\n');
    // One unmeasured second per serving process first: JIT, caches and connections warm for
    // every handler alike (each cluster worker compiles and caches on its own).
    spawnSync('wrk', [
      '-t1',
      `-c${CONN}`,
      `-d${processes}s`,
      '-s',
      'bench/wrk.lua',
      `http://127.0.0.1:${port}`,
      '--',
      file,
      headers['x-api-key'] ?? '',
      headers['if-none-match'] ?? '',
    ]);
    const r = spawnSync(
      'wrk',
      [
        '-t1',
        `-c${CONN}`,
        `-d${SECONDS}s`,
        '--timeout',
        '10s',
        '-s',
        'bench/wrk.lua',
        `http://127.0.0.1:${port}`,
        '--',
        file,
        headers['x-api-key'] ?? '',
        headers['if-none-match'] ?? '',
      ],
      { encoding: 'utf8' },
    );
    const j = JSON.parse(r.stdout.trim().split('\n').pop()!);
    row = {
      scenario,
      rps: Math.round(j.requests / (j.duration_us / 1e6)),
      p50: +j.p50.toFixed(2),
      p99: +j.p99.toFixed(2),
      errors: j.errors,
      non2xx: j.non2xx,
      rssMb: await rss(pid),
    };
  } else {
    const options = {
      url: `http://127.0.0.1:${port}`,
      connections: CONN,
      headers,
      requests: [{ setupRequest: (req: any) => ({ ...req, path: path() }) }],
    };
    // As with wrk: one unmeasured second per serving process first (JIT, caches, connections).
    await autocannon({ ...options, duration: processes });
    const r = await autocannon({ ...options, duration: SECONDS });
    row = {
      scenario,
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      rssMb: await rss(pid),
    };
  }
  console.error(JSON.stringify(row));
  return row;
}

const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
const fmt = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6, 8)}`;
const randomFrom = () => `${2023 + Math.floor(Math.random() * 3)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;

function startServer(url: string, port: number, procs: ChildProcess[], workers = 1): ChildProcess {
  const p = spawn(process.execPath, ['dist/app/server.js'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', DEMO: '0', WORKERS: String(workers) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(p);
  return p;
}

/** One scenario to load: its name, port, serving process, path maker, headers and serving processes (cluster workers). */
type Scenario = [name: string, port: number, pid: number, path: () => string, headers: Record<string, string>, processes?: number];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Loads the scenarios in turns, three rounds (`before` each run), and reports each one's median req/s, p50 and p99
 * over its three runs (errors summed, the largest RSS): the machine's speed drifts within a run
 * of the whole table, and moved single runs by more than the differences measured (ratios
 * between runs minutes apart carried that drift; a p99 caught one stall of the machine).
 */
let groups = 0;
async function inTurns(scenarios: Scenario[], before: () => Promise<void> = async () => {}): Promise<Row[]> {
  const runs: Row[][] = scenarios.map(() => []);
  const group = ++groups;
  for (let round = 0; round < 3; round++) {
    for (const [i, [name, port, pid, path, headers, processes]] of scenarios.entries()) {
      await before();
      runs[i].push(await load(name, port, pid, path, headers, processes));
    }
  }
  return runs.map((r) => ({
    scenario: r[0].scenario,
    rps: median(r.map((x) => x.rps)),
    p50: median(r.map((x) => x.p50)),
    p99: median(r.map((x) => x.p99)),
    errors: r.reduce((a, x) => a + x.errors, 0),
    non2xx: r.reduce((a, x) => a + x.non2xx, 0),
    rssMb: Math.max(...r.map((x) => x.rssMb)),
    runs: r,
    group,
  }));
}

/**
 * Throughput of `a` relative to `b`: of two scenarios measured in the same turns, the median of
 * the ratios of their runs in the same round (each pair a few seconds apart); otherwise the
 * ratio of their medians.
 */
function ratio(a: Row, b: Row): number {
  if (a.group === undefined || a.group !== b.group) return a.rps / b.rps;
  return median(a.runs!.map((x, i) => x.rps / b.runs![i].rps));
}

/**
 * --scale: the bars page p50 on a 1M-bar store and on a 50M-bar store (12,500 equities x 4,000
 * days, about 20 GB), each built once into bench/.data. Both servers run side by side and are
 * measured in turns (median p50: single runs moved by more than the difference measured).
 */
async function scaleRows(procs: ChildProcess[], port: number): Promise<Row[]> {
  const stores: { name: string; file: string; port: number; key: string; ids: string[]; srv?: ChildProcess }[] = [];
  for (const [equities, days] of [
    [1000, 1000],
    [12500, 4000],
  ]) {
    const file = `${DIR}scale-${equities}x${days}.sqlite`;
    const store = openStore(file);
    if (!existsSync(`${file}.done`)) {
      const t = Date.now();
      await buildBenchStore(store, { equities, days, minuteDays: 0, end: size.end });
      writeFileSync(`${file}.done`, String(Date.now() - t));
    }
    const key = (await new KeyStore(store.db).create('bench')).key;
    const ids = (await store.db.selectFrom('instruments').select('id').execute()).map((r) => r.id);
    await store.close();
    stores.push({ name: `bars 1d at ${((equities * days) / 1e6).toFixed(0)}M bars`, file, port: port + stores.length, key, ids });
  }
  for (const s of stores) {
    // Both stores start in the OS page cache, as the main store does (`warm`).
    await warm(s.file);
    s.srv = startServer(s.file, s.port, procs);
    await waitReady(s.port);
  }
  const rows = await inTurns(
    stores.map((s): Scenario => [
      s.name,
      s.port,
      s.srv!.pid!,
      () => `/api/v1/equities/${pick(s.ids)}/bars?interval=1d&from=${randomFrom()}&page[size]=100`,
      { 'x-api-key': s.key },
    ]),
    // Each store read through before each run, as the main store is: this VM drops its page
    // cache, and the 20 GB store then came from disk more and more as the rounds went on.
    async () => {
      for (const s of stores) await warm(s.file);
    },
  );
  for (const s of stores) await stop(s.srv!);
  return rows;
}

/** Reads a file once so that every handler measured starts with it in the OS page cache. */
async function warm(file: string): Promise<void> {
  const { open } = await import('node:fs/promises');
  const fh = await open(file, 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  while ((await fh.read(buf, 0, buf.length)).bytesRead > 0) {
    /* read through */
  }
  await fh.close();
}

async function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return;
  p.kill('SIGTERM');
  await new Promise((r) => p.once('exit', r));
}

type TableRow = Row & { 'x naive': number };

const NAIVE = 'naive bars 1d (reference)',
  NAIVE_BESIDE_WORKERS = 'naive bars 1d (reference, in turns with the workers)';

/** The speed targets of the benchmark (issue 6), judged on this run's figures. */
function evaluate(table: TableRow[], workers: number) {
  const row = (s: string) => table.find((r) => r.scenario === s);
  const out: { target: string; met: boolean; value: string }[] = [];
  const bars = [
    'bars 1d, 100/page',
    'bars 1m, 100/page',
    ...(workers > 1 ? [`bars 1d, WORKERS=${workers}`, `bars 1m, WORKERS=${workers}`] : []),
  ];
  for (const s of bars) {
    const r = row(s)!;
    out.push({ target: `${s} >= 2x naive`, met: r['x naive'] >= 2, value: `${r['x naive']}x` });
  }
  for (const r of table.filter((x) => !x.scenario.includes('(reference'))) {
    // Of a scenario run in turns, the median of its runs' p99/p50 (as for its other ratios).
    const tail = r.runs ? median(r.runs.map((x) => x.p99 / x.p50)) : r.p99 / r.p50;
    out.push({
      target: `${r.scenario}: p99 <= 3x p50`,
      met: tail <= 3,
      value: `${tail.toFixed(2)}x (median p99 ${r.p99} ms, p50 ${r.p50} ms)`,
    });
  }
  const b1d = row('bars 1d, 100/page')!;
  for (const s of ['indicator macd 1d, precomputed', 'indicator kdj 1d, computed']) {
    const indRatio = ratio(row(s)!, b1d);
    out.push({ target: `${s} >= 0.7x bars page`, met: indRatio >= 0.7, value: `${indRatio.toFixed(2)}x` });
  }
  const pg = row('bars 1d, PostgreSQL');
  if (pg) {
    const pgRatio = ratio(pg, b1d);
    out.push({ target: 'PostgreSQL >= 0.8x SQLite', met: pgRatio >= 0.8, value: `${pgRatio.toFixed(2)}x` });
  }
  const small = table.find((r) => r.scenario.startsWith('bars 1d at 1M')),
    big = table.find((r) => r.scenario.startsWith('bars 1d at 50M'));
  if (small && big) {
    // The median of the per-round ratios, as for the other ratios.
    const scale = median(big.runs!.map((x, i) => x.p50 / small.runs![i].p50));
    out.push({ target: 'p50 at 50M bars <= 1.2x p50 at 1M', met: scale <= 1.2, value: `${scale.toFixed(2)}x` });
  }
  const rss = Math.max(...table.filter((r) => !r.scenario.includes('(reference') && !r.scenario.includes('WORKERS=')).map((r) => r.rssMb));
  out.push({ target: 'RSS < 256 MB (one worker)', met: rss < 256, value: `${rss} MB` });
  return out;
}

async function main() {
  const { key, ids, days } = await prepare(DB, !existsSync(DB));
  await warm(DB);
  const procs: ChildProcess[] = [];
  const stopAll = () => procs.forEach((p) => p.kill('SIGTERM'));
  process.on('exit', stopAll);
  const port = 18080;
  const server = startServer(DB, port, procs);
  await waitReady(port);
  const h = { 'x-api-key': key };
  const barsPath = () => `/api/v1/equities/${pick(ids)}/bars?interval=1d&from=${randomFrom()}&page[size]=100`;
  const fixed = `/api/v1/equities/${ids[0]}/bars?interval=1d&from=2024-01-02&page[size]=100`;
  // Identity, as wrk asks: a compressed sample would carry the tag of its br representation.
  const sample = await fetch(`http://127.0.0.1:${port}${fixed}`, { headers: { ...h, 'accept-encoding': 'identity' } });
  const etag = sample.headers.get('etag')!;
  const revalidated = await fetch(`http://127.0.0.1:${port}${fixed}`, { headers: { ...h, 'if-none-match': etag } });
  if (revalidated.status !== 304) throw new Error(`If-None-Match ${etag} answered ${revalidated.status}, not 304`);
  writeFileSync(`${DIR}static.json`, await sample.text());
  const naive = fork('bench/reference.ts', ['naive', DB, '18081'], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  const stat = fork('bench/reference.ts', ['static', DB, '18082', `${DIR}static.json`], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  procs.push(naive, stat);
  await Promise.all([naive, stat].map((p) => new Promise((r) => p.once('message', r))));

  const minutePath = () => `/api/v1/equities/${pick(ids)}/bars?interval=1m&date=${fmt(pick(days))}&page[size]=100`;
  // Every scenario of one worker in turns, the references included: each figure is a median
  // of three runs spread over the same minutes as the others'.
  const single: Scenario[] = [
    ['static bytes (reference)', 18082, stat.pid!, () => '/x', {}],
    ['naive bars 1d (reference)', 18081, naive.pid!, barsPath, {}],
    ['bars 1d, 100/page', port, server.pid!, barsPath, h],
    ['bars 1m, 100/page', port, server.pid!, minutePath, h],
    ['bars 1d forward-adjusted', port, server.pid!, () => `${barsPath()}&adjustment=forward`, h],
    [
      'indicator macd 1d, precomputed',
      port,
      server.pid!,
      () => `/api/v1/equities/${pick(ids)}/technical-indicators/macd?interval=1d&from=${randomFrom()}&page[size]=100`,
      h,
    ],
    [
      'indicator kdj 1d, computed',
      port,
      server.pid!,
      () => `/api/v1/equities/${pick(ids)}/technical-indicators/kdj?interval=1d&from=${randomFrom()}&page[size]=100`,
      h,
    ],
    [
      'price limits, 100/page',
      port,
      server.pid!,
      () => `/api/v1/equities/${pick(ids)}/price-limits?from=${randomFrom()}&page[size]=100`,
      h,
    ],
    ['income statements page', port, server.pid!, () => `/api/v1/equities/${pick(ids)}/income-statements?page[size]=100`, h],
    ['list equities, filtered', port, server.pid!, () => `/api/v1/equities?market=${pick(['SH', 'SZ'])}&board=main&page[size]=50`, h],
    ['If-None-Match → 304', port, server.pid!, () => fixed, { ...h, 'if-none-match': etag }],
  ];
  if (o.pg) {
    const probe = openStore(o.pg);
    const empty = await migrateAndCount(probe);
    const pk = await prepare(o.pg, empty);
    if (empty) {
      // As after any bulk load into PostgreSQL: statistics, and the visibility map and hint
      // bits set once (otherwise the first reads of every fresh row write them).
      const s = openStore(o.pg);
      await sql`vacuum analyze`.execute(s.db);
      await s.close();
    }
    // The same instruments and windows as the SQLite page, in the same turns.
    const pgServer = startServer(o.pg, port + 10, procs);
    await waitReady(port + 10);
    single.push(['bars 1d, PostgreSQL', port + 10, pgServer.pid!, barsPath, { 'x-api-key': pk.key }]);
  }
  // The store read through before every run: this VM drops its page cache at several MB/s
  // even with most of its memory free, and the daily pages (half the file) were read from disk
  // more and more as a run of the whole table went on (0.7 s when the file is still cached).
  const rows = await inTurns(single, () => warm(DB));
  for (const p of procs.filter((x) => x !== naive)) await stop(p);
  const workers = +o.workers!;
  if (workers > 1) {
    const cluster = startServer(DB, port + 30, procs, workers);
    await waitReady(port + 30);
    // With the naive handler again, in the same turns, for their ratios.
    rows.push(
      ...(await inTurns(
        [
          [NAIVE_BESIDE_WORKERS, 18081, naive.pid!, barsPath, {}],
          [`bars 1d, WORKERS=${workers}`, port + 30, cluster.pid!, barsPath, h, workers],
          [`bars 1m, WORKERS=${workers}`, port + 30, cluster.pid!, minutePath, h, workers],
        ],
        () => warm(DB),
      )),
    );
    await stop(cluster);
  }
  await stop(naive);
  if (o.scale) rows.push(...(await scaleRows(procs, port + 20)));
  stopAll();

  const ingest = await benchIngest({ rows: +o['ingest-rows']!, log: (l) => console.error(l) });
  const ref = (name: string) => rows.find((r) => r.scenario === name);
  const staticRow = ref('static bytes (reference)')!;
  // Each row against the naive handler of its own turns where it had one.
  const naiveOf = (r: Row) =>
    rows.find((x) => (x.scenario === NAIVE || x.scenario === NAIVE_BESIDE_WORKERS) && x.group === r.group) ?? ref(NAIVE)!;
  const before = o.compare
    ? new Map<string, number>((JSON.parse(readFileSync(o.compare, 'utf8')).rows as Row[]).map((r) => [r.scenario, r.rps]))
    : null;
  const table = rows.map((r) => ({
    ...r,
    'x naive': +ratio(r, naiveOf(r)).toFixed(2),
    'x static': +ratio(r, staticRow).toFixed(2),
    ...(before ? { 'x before': before.has(r.scenario) ? +(r.rps / before.get(r.scenario)!).toFixed(2) : null } : {}),
  }));
  console.table(table.map(({ runs: _r, group: _g, ...r }) => r));
  console.log(
    `ingest of ${ingest.rows} 1m bars into SQLite: ${Math.round(ingest.ingestRowsPerSec)} rows/s; ` +
      `raw better-sqlite3 bulk insert of the same rows: ${Math.round(ingest.rawRowsPerSec)} rows/s; ratio ${ingest.ratio.toFixed(2)}`,
  );
  const targets = evaluate(table, workers);
  for (const t of targets) console.log(`${t.met ? 'met    ' : 'NOT met'}  ${t.target}: ${t.value}`);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout.trim() !== '';
  const out = {
    commit: commit + (dirty ? '-dirty' : ''),
    date: new Date().toISOString(),
    driver: HAVE_WRK ? 'wrk -t1' : 'autocannon',
    size,
    seconds: SECONDS,
    connections: CONN,
    workers,
    rows: table,
    targets,
    ingest,
  };
  const text = JSON.stringify(out, null, 2) + '\n';
  writeFileSync(new URL('./results/latest.json', import.meta.url), text);
  writeFileSync(new URL(`./results/${out.commit}-${size.equities}x${size.days}.json`, import.meta.url), text);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
