/**
 * `npm run bench`: builds a benchmark store, starts the server and two reference handlers in
 * their own processes, drives each with autocannon on loopback (bounded in time), prints a table
 * and writes bench/results/latest.json.
 * Options: --equities N (default 600) --seconds S per scenario (default 8) --connections C (default 32)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { migrate, openStore } from '../src/store/store.js';
import { generateDemo } from '../src/demo/generate.js';
import { KeyStore } from '../src/auth/keys.js';

const { values } = parseArgs({ options: {
  equities: { type: 'string', default: '600' }, seconds: { type: 'string', default: '8' },
  connections: { type: 'string', default: '32' },
} });
const EQUITIES = Number(values.equities), SECONDS = Number(values.seconds), CONN = Number(values.connections);
const DIR = new URL('./.data/', import.meta.url).pathname;
const DB = `${DIR}bench-${EQUITIES}.sqlite`;
mkdirSync(DIR, { recursive: true });
mkdirSync(new URL('./results/', import.meta.url).pathname, { recursive: true });

async function prepare(): Promise<{ key: string; ids: string[]; days: number[] }> {
  const fresh = !existsSync(DB);
  const store = openStore(DB);
  await migrate(store);
  if (fresh) {
    const t = Date.now();
    await generateDemo(store, { seed: 42, equities: EQUITIES });
    console.error(`built ${DB} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const key = (await new KeyStore(store.db).create('bench')).key;
  const ids = (await store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').execute()).map((r) => r.id);
  const days = (await store.db.selectFrom('bars_1m').select('date').distinct().orderBy('date').execute()).map((r) => r.date);
  const bars = await store.db.selectFrom('bars_1d').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  console.error(`store: ${ids.length} equities, ${bars.n} daily bars`);
  await store.close();
  return { key, ids, days };
}

function waitReady(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const poll = () => fetch(`http://127.0.0.1:${port}/api/v1/system/readiness`).then((r) => (r.ok ? resolve() : retry()), retry);
    const retry = () => (Date.now() - t0 > 60_000 ? reject(new Error('server did not start')) : setTimeout(poll, 200));
    poll();
  });
}

const rssOf = async (pid: number) => {
  const { readFile } = await import('node:fs/promises');
  const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
};

interface Row { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number; rssMb: number }

async function load(name: string, port: number, pid: number, path: () => string, headers: Record<string, string>): Promise<Row> {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`, connections: CONN, duration: SECONDS, headers,
    requests: [{ setupRequest: (req: any) => ({ ...req, path: path() }) }],
  });
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, rssMb: await rssOf(pid) };
}

const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
const randomFrom = () => `${2023 + Math.floor(Math.random() * 3)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;

async function main() {
  const { key, ids, days } = await prepare();
  const port = 18080, naivePort = 18081, staticPort = 18082;
  const procs: ChildProcess[] = [];
  const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
  process.on('exit', stop);
  const server = spawn(process.execPath, ['dist/server.js'], {
    env: { ...process.env, DATABASE_URL: DB, PORT: String(port), LOG_LEVEL: 'warn', DEMO: '0' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(server);
  await waitReady(port);
  const h = { 'x-api-key': key };
  const barsPath = () => `/api/v1/equities/${pick(ids)}/bars?interval=1d&from=${randomFrom()}&page[size]=100`;
  const sample = await (await fetch(`http://127.0.0.1:${port}/api/v1/equities/${ids[0]}/bars?interval=1d&page[size]=100`, { headers: h })).text();
  const staticFile = `${DIR}static.json`;
  writeFileSync(staticFile, sample);
  const tsx = ['--import', 'tsx'];
  const naive = fork('bench/reference.ts', ['naive', DB, String(naivePort)], { execArgv: tsx, stdio: 'ignore' });
  const stat = fork('bench/reference.ts', ['static', DB, String(staticPort), staticFile], { execArgv: tsx, stdio: 'ignore' });
  procs.push(naive, stat);
  await Promise.all([naive, stat].map((p) => new Promise((r) => p.once('message', r))));

  const rows: Row[] = [];
  rows.push(await load('static bytes (reference)', staticPort, stat.pid!, () => '/x', {}));
  rows.push(await load('naive bars 1d (reference)', naivePort, naive.pid!, barsPath, {}));
  rows.push(await load('bars 1d, 100/page', port, server.pid!, barsPath, h));
  rows.push(await load('bars 1m, 100/page', port, server.pid!, () => `/api/v1/equities/${pick(ids)}/bars?interval=1m&date=${fmt(pick(days))}`, h));
  rows.push(await load('bars 30m, a day', port, server.pid!, () => `/api/v1/equities/${pick(ids)}/bars?interval=30m&date=${fmt(pick(days))}`, h));
  rows.push(await load('list equities, filtered', port, server.pid!, () => `/api/v1/equities?market=${pick(['SH', 'SZ'])}&board=main&page[size]=50`, h));
  stop();

  const naiveRps = rows[1].rps, staticRps = rows[0].rps;
  const table = rows.map((r) => ({ ...r, 'x naive': +(r.rps / naiveRps).toFixed(2), 'x static': +(r.rps / staticRps).toFixed(2) }));
  console.table(table);
  const out = { date: new Date().toISOString(), equities: EQUITIES, seconds: SECONDS, connections: CONN, rows: table };
  writeFileSync(new URL('./results/latest.json', import.meta.url), JSON.stringify(out, null, 2));
  process.exit(0);
}
const fmt = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6, 8)}`;

main().catch((e) => { console.error(e); process.exit(1); });
