/**
 * The primary down, its rules one by one, in process and deterministic (store/dialects/replicated.ts,
 * auth/keys.ts; test/failover.test.ts runs them against real servers): the "primary" is the store
 * seen through a wrapper that can refuse every query, the "replica" the same store through one
 * that can lag (its snapshots report an older version) or refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { KeyStore } from '../src/auth/keys.js';
import { openReplicated } from '../src/store/dialects/replicated.js';
import { openPostgres } from '../src/store/dialects/postgres.js';
import { StoreHealth, StoreUnavailable } from '../src/store/health.js';
import type { ReadSession, Store } from '../src/store/types.js';
import { recordVersion } from '../src/store/versions.js';
import { harness, STORES, TINY_DEMO, type Harness } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the primary down (in process)', () => {
  let h: Harness;
  let primaryUp = true;
  /** The replica: up or down, and when `behind` the last version it has replayed. */
  const replica: { up: boolean; behind: number | null } = { up: true, behind: null };
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    h = await harness(await STORES[0].url(), TINY_DEMO);
    const health = new StoreHealth();
    /** `run` as the primary answers it: refused while it is down, its health told either way. */
    const gate = async <T>(run: () => Promise<T>): Promise<T> => {
      if (!primaryUp) throw health.failed('ECONNREFUSED', null);
      const mark = health.mark;
      const r = await run();
      health.ok(mark);
      return r;
    };
    const primary: Store = {
      ...h.store,
      health,
      snapshot: (want) => gate(() => h.store.snapshot(want)),
      select: (sql, params) => gate(() => h.store.select(sql, params)),
      selectRows: (sql, params) => gate(() => h.store.selectRows(sql, params)),
      ping: () => gate(() => h.store.ping()),
    };
    const refuse = () => new StoreUnavailable('ECONNREFUSED');
    const lagging: Store = {
      ...h.store,
      selectRows: async (sql, params) => {
        if (!replica.up) throw refuse();
        return replica.behind !== null && /data_versions/.test(sql) ? [[replica.behind]] : h.store.selectRows(sql, params);
      },
      async snapshot(): Promise<ReadSession> {
        if (!replica.up) throw refuse();
        const s = await h.store.snapshot();
        return { ...s, version: replica.behind ?? s.version, release: () => s.release() };
      },
    };
    const store = openReplicated(primary, [{ url: 'postgres://replica.example:5432/mds', store: lagging }], {
      pollMs: 20,
      behindRestMs: 0,
    });
    app = await buildApp({ config: { ...loadConfig({}), databaseUrl: h.url }, store });
    await app.ready();
    await sleep(60);
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const path = '/api/v1/equities?page[size]=3';
  const get = async () => {
    const r = await app.inject({ url: path, headers: { 'x-api-key': h.key } });
    return { status: r.statusCode, version: Number(r.headers['data-version']), body: r.json() };
  };
  const ready = async () => {
    const r = await app.inject({ url: '/api/v1/system/readiness' });
    return { status: r.statusCode, body: r.json() };
  };
  /** The primary commits a new version (no request sees it); the checks learn it. */
  const commit = async () => {
    await h.store.bulkTransaction((s) => recordVersion(s, 'test', []));
    await sleep(60);
  };

  it("reads from the replica at this server's own floor, not at the primary's latest it never served", async () => {
    const served = await get();
    expect(served.status).toBe(200);
    // The replica stops replaying; the primary commits a version no request has read, then stops.
    replica.behind = served.version;
    await commit();
    primaryUp = false;
    const r = await get();
    expect([r.status, r.version]).toEqual([200, served.version]);
    expect(r.body).toEqual(served.body);
    expect(await ready()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        primary: 'down',
        writes_to: null,
        replicas: [{ url: 'postgres://replica.example:5432/mds', state: 'up', version: served.version, behind: 1, error: null }],
      },
    });
  });

  it('answers 503 rather than a version below one it served, and reads on once the replica has it', async () => {
    primaryUp = true;
    await sleep(60);
    // The primary answers the version the replica lacks: now this server has served it.
    const latest = await get();
    expect([latest.status, latest.version]).toEqual([200, (replica.behind ?? 0) + 1]);
    primaryUp = false;
    const r = await get();
    expect([r.status, r.body.errors?.[0]?.code]).toEqual([503, 'not_ready']);
    expect((await ready()).status).toBe(503);
    // Replayed: read from the replica again, and ready.
    replica.behind = null;
    await sleep(60);
    const again = await get();
    expect([again.status, again.version]).toEqual([200, latest.version]);
    expect((await ready()).body).toMatchObject({ status: 'ready', primary: 'down', replicas: [{ state: 'up', behind: 0 }] });
    primaryUp = true;
    await sleep(60);
    expect((await ready()).body).toMatchObject({ status: 'ready', primary: 'up' });
  });

  it('checks keys on a replica while the primary is down, else keeps the answers cached; a revocation applies once read', async () => {
    // A primary that refuses every connection (nothing listens on port 1).
    const dead = openPostgres('postgres://postgres@127.0.0.1:1/mds', { connectMs: 1000, statementMs: 1000, acquireMs: 1000 });
    let replicaAnswers = true;
    const keys = new KeyStore(dead.db, 50, {
      primaryDown: () => false,
      async onReplica(read) {
        if (!replicaAnswers) throw new StoreUnavailable('ECONNREFUSED');
        return read(h.store.db);
      },
    });
    try {
      const issuer = new KeyStore(h.store.db);
      const [kept, revoked, unseen] = await Promise.all(['kept', 'revoked', 'unseen'].map((n) => issuer.create(n)));
      // Read on the replica: live.
      expect(await keys.lookup(kept.key)).toMatchObject({ id: kept.id });
      expect(await keys.lookup(revoked.key)).toMatchObject({ id: revoked.id });
      // Revoked (on the primary, replayed): refused as soon as the cache lapses.
      await issuer.revoke(revoked.id);
      await sleep(60);
      expect(await keys.lookup(revoked.key)).toBeNull();
      // Neither the primary nor a replica answers: a key checked before stays usable past its TTL; one never seen cannot be checked.
      replicaAnswers = false;
      await sleep(60);
      expect(await keys.lookup(kept.key)).toMatchObject({ id: kept.id });
      expect(await keys.lookup(revoked.key)).toBeNull();
      await expect(keys.lookup(unseen.key)).rejects.toBeInstanceOf(StoreUnavailable);
      // The replica answers again: the unseen key is read there.
      replicaAnswers = true;
      expect(await keys.lookup(unseen.key)).toMatchObject({ id: unseen.id });
    } finally {
      await dead.close();
    }
  });
});
