/**
 * Store faults: PostgreSQL stopped or frozen, a SQLite file that cannot be read. Requests get
 * 503 not_ready with Retry-After (never 500, never a hang), readiness agrees, the outage is
 * logged once, and the service recovers without a restart. PostgreSQL faults run on a private
 * cluster (test/private-postgres.ts), never on a shared server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { generateDemo } from '../src/demo/generate.js';
import { KeyStore } from '../src/auth/keys.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { StoreUnavailable } from '../src/store/health.js';
import { NO_PRIVATE_PG, privatePostgres, type PrivatePostgres } from './private-postgres.js';
import { exited, sleep, tmp } from './ingest-helpers.js';
import { dropPostgres, harness, STORES, TINY_DEMO } from './helpers.js';
import { probe, serve, type Served } from './serve-helpers.js';

/** Resolves once `done()` holds, checked every 25 ms; throws after `limitMs` (a bound, not a timing). */
async function until(what: string, done: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  for (const end = Date.now() + limitMs; !(await done());) {
    if (Date.now() > end) throw new Error(`not within ${limitMs} ms: ${what}`);
    await sleep(25);
  }
}

const DEMO = { seed: 7, equities: 20, start: 20250102, end: 20250601, minuteDays: 1, tickDays: 1 };

/** Seeds a store with the demo and returns an API key and an equity id. */
async function seed(url: string): Promise<{ key: string; eq: string }> {
  const store = openStore(url);
  try {
    await migrate(store);
    await generateDemo(store, DEMO);
    const { key } = await new KeyStore(store.db).create('faults');
    const eq = (await store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').orderBy('id').executeTakeFirstOrThrow()).id;
    return { key, eq };
  } finally {
    await store.close();
  }
}

/** A 503 not_ready ErrorResponse with Retry-After and nothing of the failure in it. */
function expectNotReady(r: Awaited<ReturnType<typeof probe>>) {
  expect(r.status, r.text).toBe(503);
  expect(r.body.errors[0].code).toBe('not_ready');
  expect(Number(r.retryAfter)).toBeGreaterThan(0);
  expect(r.text).not.toMatch(/ECONN|SQLITE|timeout|at .*\.(ts|js)/);
}

describe.skipIf(NO_PRIVATE_PG !== null)('PostgreSQL faults (private cluster)', () => {
  let cluster: PrivatePostgres;
  let key: string, eq: string;
  let srv: Served;
  const bars = (i: number) => `${srv.base}/api/v1/equities/${eq}/bars?interval=1d&page[size]=${1 + (i % 50)}`;

  beforeAll(async () => {
    cluster = privatePostgres();
    ({ key, eq } = await seed(cluster.url));
    srv = await serve({ DATABASE_URL: cluster.url, PG_CONNECT_TIMEOUT_MS: '1000', PG_STATEMENT_TIMEOUT_MS: '1000', PG_POOL_ACQUIRE_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await srv?.stop();
    cluster?.remove();
  });

  it('a stopped server: 503 not_ready with Retry-After, readiness 503, health 200, one log line; recovers without a restart', async () => {
    expect((await probe(bars(0), key)).status).toBe(200);
    expect((await probe(`${srv.base}/api/v1/system/readiness`)).status).toBe(200);
    const before = srv.logs.length;
    cluster.stop();
    const t = Date.now();
    try {
      for (let round = 0; round < 4; round++) {
        const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => probe(bars(round * 10 + i), key)));
        for (const r of rs) expectNotReady(r);
      }
      expectNotReady(await probe(`${srv.base}/api/v1/system/readiness`));
      expect((await probe(`${srv.base}/api/v1/system/health`)).status).toBe(200);
    } finally {
      cluster.start();
    }
    const seconds = Math.ceil((Date.now() - t) / 1000);
    let ready = 0;
    for (let i = 0; i < 40 && ready !== 200; i++) {
      ready = (await probe(`${srv.base}/api/v1/system/readiness`)).status;
      if (ready !== 200) await sleep(250);
    }
    expect(ready).toBe(200);
    expect((await probe(bars(0), key)).status).toBe(200);
    const lines = srv.logs.slice(before);
    const down = lines.filter((l) => /store unavailable/.test(l.msg));
    expect(down.length).toBeGreaterThanOrEqual(1);
    expect(down.length).toBeLessThanOrEqual(seconds);
    expect(down[0].level).toBe(40);
    expect(lines.filter((l) => /store available again/.test(l.msg)).length).toBe(1);
    expect(lines.filter((l) => l.err?.stack || /unhandled/.test(l.msg))).toEqual([]);
  });

  it('a frozen server: requests and readiness answer 503 within the timeouts, never hang; recovers on thaw', async () => {
    expect((await probe(bars(0), key)).status).toBe(200);
    cluster.freeze();
    try {
      // More at once than the pool holds: some wait for a connection, some for an answer, some to connect.
      const rs = await Promise.all(Array.from({ length: 14 }, (_, i) => probe(bars(i + 1), key)));
      // Answered by the server's timeouts of 1 s: a hang would be aborted by the probe's 8 s bound and fail.
      for (const r of rs) expectNotReady(r);
      const ready = await probe(`${srv.base}/api/v1/system/readiness`);
      expectNotReady(ready);
      expect((await probe(`${srv.base}/api/v1/system/health`)).status).toBe(200);
    } finally {
      cluster.thaw();
    }
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await probe(bars(0), key)).status;
      if (status !== 200) await sleep(250);
    }
    expect(status).toBe(200);
  });

  it('SIGTERM while a request waits on a frozen server: the request is answered, then the server exits 0', async () => {
    // At debug level the server logs each request on arrival too.
    const one = await serve({ DATABASE_URL: cluster.url, LOG_LEVEL: 'debug', PG_CONNECT_TIMEOUT_MS: '1000', PG_STATEMENT_TIMEOUT_MS: '1000', PG_POOL_ACQUIRE_TIMEOUT_MS: '1000' });
    try {
      const url = `${one.base}/api/v1/equities/${eq}/bars?interval=1d&page[size]=7`;
      expect((await probe(url, key)).status).toBe(200);
      cluster.freeze();
      let inFlight: ReturnType<typeof probe>;
      try {
        inFlight = probe(url.replace('size]=7', 'size]=8'), key);
        // The server has the request (logged on arrival at debug level) and waits on the frozen store.
        await until('the request logged', () => one.logs.some((l) => String(l.req?.url ?? '').includes('size]=8')));
        one.child.kill('SIGTERM');
        expectNotReady(await inFlight);
      } finally {
        cluster.thaw();
      }
      const code = await Promise.race([exited(one.child), sleep(10_000).then(() => null)]);
      expect(code, one.stderr()).toEqual({ code: 0, signal: null });
    } finally {
      await one.stop();
    }
  });

  it('statement and pool-acquire timeouts fail as StoreUnavailable; bulk transactions (ingest) run without the statement timeout', async () => {
    const store = openStore(cluster.url, { connectMs: 1000, statementMs: 500, acquireMs: 500 });
    try {
      await expect(store.select('select pg_sleep(3)', [])).rejects.toBeInstanceOf(StoreUnavailable);
      expect(await store.bulkTransaction(async (s) => (await s.query<{ ok: number }>('select pg_sleep(1.5), 1 as ok'))[0].ok)).toBe(1);
      // Every connection busy in a long transaction: the next query waits 0.5 s for one, then fails.
      let done = false;
      const holders = Promise.all(Array.from({ length: 10 }, () => store.bulkTransaction((s) => s.query('select pg_sleep(3)'))))
        .finally(() => { done = true; });
      const watcher = new pg.Client({ connectionString: cluster.url });
      await watcher.connect();
      try {
        await until('10 connections in pg_sleep(3)', async () => (await watcher.query(
          "select count(*)::int as n from pg_stat_activity where state = 'active' and query = 'select pg_sleep(3)'")).rows[0].n === 10);
      } finally {
        await watcher.end();
      }
      const err = await store.select('select 1', []).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailable);
      expect((err as StoreUnavailable).reason).toMatch(/timeout exceeded when trying to connect/);
      expect(done).toBe(false);
      await holders;
      expect(await store.select<{ n: number }>('select 1 as n', [])).toEqual([{ n: 1 }]);
    } finally {
      await store.close();
    }
  });
});

describe('SQLite: a store file that cannot be read', () => {
  let store: Store;
  let key: string, eq: string;
  const file = join(tmp('mds-faults-'), 'store.sqlite');

  beforeAll(async () => { ({ key, eq } = await seed(file)); });
  afterAll(async () => { await store?.close(); });

  it('answers 503 not_ready with Retry-After while the file is unreadable, logs it once, readiness agrees, and recovers', async () => {
    store = openStore(file);
    const logged: string[] = [];
    store.health.log = (level, msg) => logged.push(`${level} ${msg}`);
    const app = await buildApp({ config: { ...loadConfig({}), databaseUrl: file }, store });
    await app.ready();
    const get = async (url: string, headers: Record<string, string> = { 'x-api-key': key }) => {
      const r = await app.inject({ method: 'GET', url, headers });
      return { status: r.statusCode, body: JSON.parse(r.payload), text: r.payload, retryAfter: (r.headers['retry-after'] as string | undefined) ?? null };
    };
    const bars = `/api/v1/equities/${eq}/bars?interval=1d`;
    expect((await get(bars)).status).toBe(200);
    // Everything in the file, little kept in memory: reads go to the file.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    await sql`pragma cache_size = 1`.execute(store.db);
    const original = readFileSync(file);
    writeFileSync(file, Buffer.alloc(original.length));
    try {
      for (let i = 0; i < 20; i++) expectNotReady(await get(`${bars}&page[size]=${i + 1}`));
      expectNotReady(await get('/api/v1/system/readiness', {}));
      expect((await get('/api/v1/system/health', {})).status).toBe(200);
    } finally {
      writeFileSync(file, original);
    }
    expect((await get('/api/v1/system/readiness', {})).status).toBe(200);
    expect((await get(bars)).status).toBe(200);
    expect(logged.filter((l) => /store unavailable: SQLITE_CORRUPT/.test(l))).toHaveLength(1);
    expect(logged.filter((l) => /^info store available again after .* s; \d+ queries failed meanwhile/.test(l))).toHaveLength(1);
    await app.close();
  });
});

/**
 * A store closed under a running app (a shutdown, or a test's teardown, while a request still
 * reads): under load, test/fuzz.test.ts once ran past its timeout, its teardown closed the
 * SQLite store under a request in flight, and the request's data-version read answered 500.
 */
describe.each(STORES)('a store closed while the app still answers ($name)', ({ url }) => {
  it('answers 503 not_ready, never 500', async () => {
    const h = await harness(await url(), TINY_DEMO);
    const eq = (await h.store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').orderBy('id').executeTakeFirstOrThrow()).id;
    const get = async (path: string) => {
      const r = await h.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': h.key } });
      return { status: r.statusCode, body: JSON.parse(r.payload), text: r.payload, retryAfter: (r.headers['retry-after'] as string | undefined) ?? null };
    };
    const bars = `/api/v1/equities/${eq}/bars?interval=1d`;
    expect((await get(bars)).status).toBe(200);
    await h.store.close();
    try {
      // Any query: the store's own (the data version, raw reads) and Kysely's.
      await expect(h.store.db.selectFrom('instruments').select('id').execute()).rejects.toBeInstanceOf(StoreUnavailable);
      // Fresh reads (the catalog's second passed), then pages and other operations.
      h.secondPasses();
      for (const path of [bars, `${bars}&page[size]=3`, `/api/v1/equities/${eq}/price-limits`, '/api/v1/equities', '/api/v1/markets/SH/trading-days']) {
        expectNotReady(await get(path));
      }
    } finally {
      await h.app.close();
      if (h.url.startsWith('postgres')) await dropPostgres(h.url);
    }
  });
});
