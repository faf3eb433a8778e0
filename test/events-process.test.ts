/**
 * GET /api/v1/events against `mds serve` processes (issue 39, item 4): one subscriber, which
 * reconnects with Last-Event-ID whenever its stream ends (test/sse-client.ts), sees every
 * committed version exactly once (ids 1 apart from the first, none twice) across a reconnect of
 * its own, the death of the worker that holds its stream (WORKERS=2: SIGKILL) and a restart of the
 * server (SIGTERM, commits while it is down), on SQLite and PostgreSQL; and through a streaming
 * replica (a private primary and replica: MDS_PRIVATE_PG_PORTS keeps them to a range of ports),
 * where a version is told of only once the replica has replayed it (replay paused: the event waits;
 * resumed: it comes) and a read issued after an event sees at least its version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { harness, STORES, type Harness } from './helpers.js';
import { exited, sleep } from './ingest-helpers.js';
import { probe, serve, type Served } from './serve-helpers.js';
import { subscribe } from './sse-client.js';
import { NO_PRIVATE_PG, privatePostgres, type PrivatePostgres } from './private-postgres.js';
import { currentVersion, recordVersion } from '../src/store/versions.js';
import { openStore, migrate } from '../src/derived/open.js';
import { KeyStore } from '../src/auth/keys.js';
import type { Store } from '../src/store/types.js';

if (NO_PRIVATE_PG) console.warn(`events-process.test: ${NO_PRIVATE_PG}; skipping the replica test`);

/** Fast polls and heartbeats: the events come sooner, nothing else changes. */
const EVENTS_ENV = { EVENT_POLL_MS: '50', EVENT_HEARTBEAT_MS: '500' };

/** Commits a data version of one row of bars of 600519.SH; returns it. */
const commit = (store: Store) =>
  store.bulkTransaction((s) =>
    recordVersion(s, 'test events', [{ dataset: 'bars_1d', rows: 1, instruments: ['600519.SH'], from: 20261120, to: 20261120 }]),
  );

/** The consecutive versions after `v0` through `v0 + n`. */
const run = (v0: number, n: number) => Array.from({ length: n }, (_, i) => v0 + i + 1);

/** The process that holds the server side of the connection from local port `clientPort` to `serverPort` (`ss`), other than `not`. */
function holder(serverPort: number, clientPort: number, not: number): number | undefined {
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( sport = :${serverPort} and dport = :${clientPort} )`]).toString();
  return [...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])).find((p) => p !== not);
}

describe.each(STORES)('a subscriber of `mds serve` (WORKERS=2) on $name', ({ url }) => {
  let h: Harness;
  let srv: Served | undefined;
  beforeAll(async () => {
    h = await harness(await url(), null);
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
    await h?.close();
  });

  it('sees every version exactly once across a reconnect, a worker killed and a server restart', async () => {
    srv = await serve({ DATABASE_URL: h.url, WORKERS: '2', ...EVENTS_ENV });
    const port = new URL(srv.base).port;
    const v0 = await currentVersion((q, p) => h.store.selectRows(q, p));
    const sub = subscribe(() => `${srv!.base}/api/v1/events?after=${v0}`, { 'x-api-key': h.key });
    try {
      expect(await sub.waitOpen()).toBe(true);
      await commit(h.store);
      await commit(h.store);
      expect(await sub.waitVersion(v0 + 2)).toBe(true);

      // Its own reconnect: the stream closed by the client, a version committed meanwhile.
      await sub.current()!.close();
      await commit(h.store);
      expect(await sub.waitVersion(v0 + 3)).toBe(true);
      expect(sub.counts.streams).toBe(2);

      // The worker holding the stream killed: the subscriber reconnects to the other (or its replacement).
      expect(await sub.waitOpen()).toBe(true);
      let streams = sub.counts.streams;
      const victim = holder(Number(port), sub.current()!.localPort, srv.child.pid!);
      expect(victim, 'no worker holds the stream').toBeDefined();
      process.kill(victim!, 'SIGKILL');
      await commit(h.store);
      await commit(h.store);
      expect(await sub.waitVersion(v0 + 5)).toBe(true);
      expect(srv.stderr()).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\)`));
      expect(sub.counts.streams).toBeGreaterThan(streams);
      streams = sub.counts.streams;

      // The server stopped (SIGTERM ends the streams), two versions committed while it is down, then started again.
      srv.child.kill('SIGTERM');
      expect(await exited(srv.child)).toEqual({ code: 0, signal: null });
      await commit(h.store);
      await commit(h.store);
      srv = await serve({ DATABASE_URL: h.url, WORKERS: '2', PORT: port, ...EVENTS_ENV });
      expect(await sub.waitVersion(v0 + 7)).toBe(true);
      expect(sub.counts.streams).toBeGreaterThan(streams);
      await commit(h.store);
      expect(await sub.waitVersion(v0 + 8)).toBe(true);
      // Exactly once, in order: no gap, no repeat.
      expect(sub.versions()).toEqual(run(v0, 8));
    } finally {
      await sub.close();
    }
  }, 120_000);
});

describe.skipIf(NO_PRIVATE_PG !== null)('a subscriber through a streaming replica', () => {
  let primary: PrivatePostgres;
  let replica: PrivatePostgres;
  let writer: Store;
  let srv: Served;
  let key: string;
  let standby: pg.Client;
  beforeAll(async () => {
    primary = privatePostgres({ settings: ['synchronous_commit=on'] });
    writer = openStore(primary.url);
    await migrate(writer);
    ({ key } = await new KeyStore(writer.db).create('events'));
    replica = privatePostgres({ replicaOf: primary, settings: ['max_standby_streaming_delay=0', 'hot_standby_feedback=off'] });
    standby = new pg.Client({ connectionString: replica.url });
    await standby.connect();
    srv = await serve({ DATABASE_URL: primary.url, DATABASE_REPLICA_URLS: replica.url, ...EVENTS_ENV });
  }, 180_000);
  afterAll(async () => {
    await srv?.stop();
    await standby?.end();
    await writer?.close();
    replica?.remove();
    primary?.remove();
  });

  /** The version of /changes's first record after `v - 1`, and the answer's Data-Version: a read after the event of `v`. */
  const readAfter = async (v: number) => {
    const r = await probe(`${srv.base}/api/v1/changes?after=${v - 1}&page[size]=1`, key);
    return { status: r.status, version: r.body?.data?.[0]?.version, dataVersion: Number(r.dataVersion) };
  };

  it('tells of a version once the replica has replayed it, and a read after its event sees it', async () => {
    const v0 = await currentVersion((q, p) => writer.selectRows(q, p));
    const sub = subscribe(() => `${srv.base}/api/v1/events?after=${v0}`, { 'x-api-key': key });
    try {
      expect(await sub.waitOpen()).toBe(true);
      await commit(writer);
      expect(await sub.waitVersion(v0 + 1)).toBe(true);
      expect(await readAfter(v0 + 1)).toMatchObject({ status: 200, version: v0 + 1 });

      // Replay paused: the server serves the new version (from the primary), the stream waits for the replica.
      await standby.query('select pg_wal_replay_pause()');
      // A pause is requested, then taken at the next record: wait until it is (bounded).
      const paused = async () => (await standby.query('select pg_get_wal_replay_pause_state() as s')).rows[0].s === 'paused';
      for (let i = 0; i < 100 && !(await paused()); i++) await sleep(50);
      expect(await paused()).toBe(true);
      await commit(writer);
      const served = await readAfter(v0 + 2);
      expect(served).toMatchObject({ status: 200, version: v0 + 2, dataVersion: v0 + 2 });
      const replayed = async () => Number((await standby.query('select max(version) as v from data_versions')).rows[0].v);
      expect(await replayed()).toBe(v0 + 1);
      // Forty of the server's polls (EVENT_POLL_MS=50) find the replica at v0 + 1: no event.
      await sleep(2000);
      expect(sub.versions()).toEqual([v0 + 1]);

      await standby.query('select pg_wal_replay_resume()');
      expect(await sub.waitVersion(v0 + 2)).toBe(true);
      expect(await replayed()).toBeGreaterThanOrEqual(v0 + 2);
      const after = await readAfter(v0 + 2);
      expect(after.version).toBe(v0 + 2);
      expect(after.dataVersion).toBeGreaterThanOrEqual(v0 + 2);
      for (let i = 0; i < 3; i++) await commit(writer);
      expect(await sub.waitVersion(v0 + 5)).toBe(true);
      expect(sub.versions()).toEqual(run(v0, 5));
      expect(sub.counts.streams).toBe(1);
    } finally {
      await sub.close();
    }
  }, 120_000);
});
