/**
 * `npm run bench:ha`: hosts' worth of processes on one machine (docs/scaling.md, "Several API
 * processes"). A private PostgreSQL primary with the demo market and a streaming replica of it
 * (test/private-postgres.ts: initdb under /tmp, other ports), two `mds serve` processes (the
 * built CLI, one worker each, DATABASE_URL the primary and DATABASE_REPLICA_URLS the replica, one
 * CURSOR_SECRET) behind Debian's haproxy with deploy/haproxy.cfg. One request loop
 * (bench/ha-load.ts: the bench's 64 keep-alive connections, a mix of the API's reads, bounded in
 * time and count) is run against one process directly and through haproxy, in turns (`--rounds`),
 * then through haproxy once more while server A is killed (SIGKILL) at 40% of the time and the
 * replica stopped (`pg_ctl stop -m fast`) at 60%. Reported: req/s of each, the ratio of haproxy's
 * to one process's in each round, and of the fault run every failed request by kind (goal 0),
 * req/s and latency between the faults, which server answered, and where server B's read
 * snapshots went (its metrics: the replica, then the primary).
 *
 *   --seconds S (20)  --connections C (64)  --max-requests N (1,000,000)  --rounds N (2)
 *   --equities N (220: the demo market's)  --config FILE (deploy/haproxy.cfg)  --json FILE (the figures, as printed)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { migrate, openStore } from '../src/derived/open.js';
import { generateDemo } from '../src/demo/generate.js';
import { KeyStore } from '../src/auth/keys.js';
import { NO_PRIVATE_PG, privatePostgres, type PrivatePostgres } from '../test/private-postgres.js';
import { freePort, waitReady } from './serve.js';
import { drive, percentile, type LoadOptions, type LoadResult } from './ha-load.js';

const { values: o } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    'max-requests': { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '2' },
    equities: { type: 'string', default: '220' },
    config: { type: 'string', default: new URL('../deploy/haproxy.cfg', import.meta.url).pathname },
    json: { type: 'string' },
  },
});
const LOAD: LoadOptions = { seconds: +o.seconds!, connections: +o.connections!, maxRequests: +o['max-requests']!, timeoutMs: 30_000 };
const HAPROXY = '/usr/sbin/haproxy';
const CONFIG = o.config!;
const log = (line: string) => console.error(line);

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(a: T[]) => a[rand(a.length)];
const iso = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6, 8)}`;

/** The demo market on the primary, a key, and the mix of reads: one path maker per kind, in turns. */
async function prepare(primary: PrivatePostgres) {
  const store = openStore(primary.url);
  try {
    await migrate(store);
    const t = Date.now();
    await generateDemo(store, { equities: +o.equities!, minuteDays: 5, tickDays: 1 });
    // As after any bulk load: statistics, and the visibility map and hint bits set once.
    await sql`vacuum analyze`.execute(store.db);
    log(`the demo market (${o.equities} equities) on the primary in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const key = (await new KeyStore(store.db).create('bench-ha')).key;
    const ids = (await store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').execute()).map((r) => r.id);
    const indices = (await store.db.selectFrom('instruments').select('id').where('kind', '=', 'index').execute()).map((r) => r.id);
    const days = (await store.db.selectFrom('bars_1m').select('date').where('inst', '=', 1).distinct().execute()).map((r) => iso(r.date));
    const from = () => `${2023 + rand(4)}-0${1 + rand(8)}-1${rand(9)}`;
    const kinds = [
      () => `/api/v1/equities/${pick(ids)}/bars?interval=1d&from=${from()}&page[size]=100`,
      () => `/api/v1/equities/${pick(ids)}/bars?interval=1m&date=${pick(days)}&page[size]=100`,
      () => `/api/v1/equities/${pick(ids)}/technical-indicators/macd?interval=1d&from=${from()}&page[size]=100`,
      () => `/api/v1/indices/${pick(indices)}/bars?interval=1d&from=${from()}&page[size]=100`,
      () => `/api/v1/equities?market=${pick(['SH', 'SZ'])}&board=main&page[size]=50`,
      () => `/api/v1/equities/${pick(ids)}/valuations?page[size]=100`,
      () => `/api/v1/markets/${pick(['SH', 'SZ'])}/bars?date=${pick(days)}&page[size]=100`,
    ];
    let n = 0;
    return { key, kinds, path: () => kinds[n++ % kinds.length]() };
  } finally {
    await store.close();
  }
}

/** `mds serve` (dist/, one worker) over the primary and the replica, once ready; its warnings counted by message. */
async function serve(primary: PrivatePostgres, replica: PrivatePostgres, procs: ChildProcess[]) {
  const [port, metrics] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['dist/cli/index.js', 'serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metrics),
      DEMO: '0',
      LOG_LEVEL: 'warn',
      WORKERS: '1',
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URLS: replica.url,
      CURSOR_SECRET: 'bench-ha',
      TRUST_PROXY: '127.0.0.1',
      PG_CONNECT_TIMEOUT_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  procs.push(child);
  const warnings: Record<string, number> = {};
  let rest = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const msg = /"msg":"([^"]{0,80})/.exec(l)?.[1] ?? l.slice(0, 80);
      warnings[msg] = (warnings[msg] ?? 0) + 1;
    }
  });
  await waitReady(port);
  return { port, base: `http://127.0.0.1:${port}`, metrics, child, warnings };
}

/** Read snapshots by source (mds_store_snapshots_total, labelled `primary` or the replica's URL): primary and replica. */
async function snapshots(metricsPort: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^mds_store_snapshots_total\{source="([^"]*)"\} (\d+)/gm)) {
    const source = m[1] === 'primary' ? 'primary' : 'replica';
    out[source] = (out[source] ?? 0) + Number(m[2]);
  }
  return out;
}

/**
 * haproxy with deploy/haproxy.cfg in front of `ports`, once both servers answer through it. What
 * it says of its servers is kept, and from its request log (option httplog: after the termination
 * state, `actconn/feconn/beconn/srv_conn/retries`, `+` when redispatched) the requests it resent.
 */
async function balancer(ports: number[], procs: ChildProcess[]) {
  const front = await freePort();
  const proxy = spawn(HAPROXY, ['-db', '-f', CONFIG], {
    env: { ...process.env, MDS_FRONT: `127.0.0.1:${front}`, MDS_A: `127.0.0.1:${ports[0]}`, MDS_B: `127.0.0.1:${ports[1]}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proxy);
  const said: string[] = [];
  /** Requests resent: how many, how many to another server, their whole time in haproxy (Ta, ms), a few of their lines. */
  const resent = { retried: 0, redispatched: 0, ms: [] as number[], lines: [] as string[] };
  for (const out of [proxy.stdout!, proxy.stderr!])
    out.on('data', (d: Buffer) => {
      for (const l of d.toString().split('\n')) {
        if (/Server |Health check|no server available/.test(l)) said.push(l);
        const retries = / [A-Za-z-]{4} \d+\/\d+\/\d+\/\d+\/(\+?)(\d+) /.exec(l);
        if (retries && (retries[1] === '+' || retries[2] !== '0')) {
          resent.retried++;
          if (retries[1] === '+') resent.redispatched++;
          resent.ms.push(Number(/ -?\d+\/-?\d+\/-?\d+\/-?\d+\/(\d+) \d{3} /.exec(l)?.[1] ?? NaN));
          if (resent.lines.length < 4) resent.lines.push(l);
        }
      }
    });
  const base = `http://127.0.0.1:${front}`;
  const seen = new Set<string | null>();
  for (let i = 0; i < 200 && seen.size < 2; i++) {
    const r = await fetch(`${base}/api/v1/system/readiness`).catch(() => null);
    if (r?.ok) seen.add(r.headers.get('x-backend-server'));
    else await new Promise((s) => setTimeout(s, 100));
  }
  if (seen.size < 2) throw new Error(`haproxy did not reach both servers: ${said.join('\n')}`);
  return { base, said, resent };
}

const line = (name: string, r: LoadResult) =>
  `${name}: ${r.requests} requests in ${r.seconds} s, ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, failed ${r.failed}` +
  (r.failed ? ` (${JSON.stringify(r.failures)})` : '') +
  ` by ${JSON.stringify(r.servers)}`;

type Server = Awaited<ReturnType<typeof serve>>;
type Proxy = Awaited<ReturnType<typeof balancer>>;

/** One process directly and haproxy in front of both, in turns (`--rounds`): the machine's drift shared by each pair. */
async function inTurns(direct: string, proxy: string, path: () => string, h: Record<string, string>) {
  const rounds: { direct: LoadResult; haproxy: LoadResult; ratio: number }[] = [];
  for (let i = 0; i < +o.rounds!; i++) {
    const one = await drive(direct, path, h, LOAD);
    log(line(`round ${i + 1}, one process directly`, one));
    const both = await drive(proxy, path, h, LOAD);
    log(line(`round ${i + 1}, two processes behind haproxy`, both));
    rounds.push({ direct: one, haproxy: both, ratio: +(both.rps / one.rps).toFixed(2) });
  }
  return rounds;
}

/** Through haproxy, server A killed at 40% of the time and the replica stopped at 60%: what clients, B and haproxy saw. */
async function withFaults(proxy: Proxy, a: Server, b: Server, replica: PrivatePostgres, path: () => string, h: Record<string, string>) {
  const before = await snapshots(b.metrics);
  const resentBefore = { ...proxy.resent, lines: proxy.resent.lines.length };
  let atReplicaStop: Record<string, number> = {};
  const faulted = await drive(proxy.base, path, h, LOAD, [
    { at: 0.4, name: 'server a killed', run: () => void a.child.kill('SIGKILL') },
    {
      at: 0.6,
      name: 'the replica stopped',
      run: async () => {
        atReplicaStop = await snapshots(b.metrics);
        await replica.stopAsync();
      },
    },
  ]);
  log(line('behind haproxy, server a killed at 40%, the replica stopped at 60%', faulted));
  const after = await snapshots(b.metrics);
  const delta = (x: Record<string, number>, y: Record<string, number>) =>
    Object.fromEntries(['replica', 'primary'].map((k) => [k, (y[k] ?? 0) - (x[k] ?? 0)]));
  const ms = proxy.resent.ms.slice(resentBefore.retried).sort((x, y) => x - y);
  return {
    faulted,
    serverBSnapshots: { beforeReplicaStop: delta(before, atReplicaStop), afterReplicaStop: delta(atReplicaStop, after) },
    serverBWarnings: b.warnings,
    haproxySaid: proxy.said,
    haproxyResent: {
      beforeTheFaultRun: resentBefore.retried,
      retried: proxy.resent.retried - resentBefore.retried,
      redispatched: proxy.resent.redispatched - resentBefore.redispatched,
      ms: { p50: percentile(ms, 50), max: percentile(ms, 100) },
      lines: proxy.resent.lines.slice(resentBefore.lines),
    },
  };
}

async function main() {
  if (NO_PRIVATE_PG) throw new Error(`bench:ha needs a private PostgreSQL cluster: ${NO_PRIVATE_PG}`);
  if (!existsSync(HAPROXY)) throw new Error(`bench:ha needs ${HAPROXY} (apt-get install haproxy)`);
  const procs: ChildProcess[] = [];
  const primary = privatePostgres({ settings: ['synchronous_commit=on'] });
  let replica: PrivatePostgres | null = null;
  try {
    const mix = await prepare(primary);
    replica = privatePostgres({ replicaOf: primary });
    const [a, b] = await Promise.all([serve(primary, replica, procs), serve(primary, replica, procs)]);
    const proxy = await balancer([a.port, b.port], procs);
    const h = { 'x-api-key': mix.key };
    for (const kind of mix.kinds) {
      const r = await fetch(`${proxy.base}${kind()}`, { headers: h });
      if (r.status !== 200) throw new Error(`${kind()}: ${r.status} ${await r.text()}`);
    }
    // Unmeasured first: JIT, caches and connections warm on both servers.
    await drive(proxy.base, mix.path, h, { ...LOAD, seconds: 3 });
    const rounds = await inTurns(a.base, proxy.base, mix.path, h);
    const report = { config: CONFIG, load: LOAD, rounds, ...(await withFaults(proxy, a, b, replica, mix.path, h)) };
    console.log(JSON.stringify(report, null, 2));
    if (o.json) writeFileSync(o.json, JSON.stringify(report, null, 2) + '\n');
  } finally {
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    replica?.remove();
    primary.remove();
  }
}

await main();
