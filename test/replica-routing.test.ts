/**
 * The replica routing rules (store/dialects/replicated.ts) and the retry of a request whose
 * replica fails under it (http-cache.ts dataTags), in process and deterministic: the "replica"
 * is the same store seen through a wrapper that can lag (its snapshots report an older
 * version), fail to open, or fail the first read of a snapshot as a hot standby cancelling it
 * ("conflict with recovery"). test/replicas.test.ts runs real streaming replication.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { openReplicated } from '../src/store/dialects/replicated.js';
import { StoreUnavailable } from '../src/store/health.js';
import type { ReadSession, Store } from '../src/store/types.js';
import { recordVersion } from '../src/store/versions.js';
import { harness, STORES, TINY_DEMO, type Harness } from './helpers.js';

type Mode = 'ok' | 'behind' | 'down' | 'conflict' | 'open-conflict';

/** `store` as a replica in `mode()` (`behind`: it has replayed no version after `frozen()`): its snapshots counted. */
function flakyReplica(
  store: Store,
  mode: () => Mode,
  frozen: () => number,
  counts: { opened: number; failed: number; openFailed?: boolean },
): Store {
  const conflict = () => new StoreUnavailable('40001 canceling statement due to conflict with recovery');
  return {
    ...store,
    selectRows: async (sql: string, params: unknown[]): Promise<unknown[][]> => {
      if (mode() === 'down') throw new StoreUnavailable('ECONNREFUSED');
      return mode() === 'behind' && /data_versions/.test(sql) ? [[frozen()]] : store.selectRows(sql, params);
    },
    async snapshot(): Promise<ReadSession> {
      if (mode() === 'down') throw new StoreUnavailable('ECONNREFUSED');
      // Replay cancelled the waiting transaction of the connection the snapshot would have begun on: once.
      if (mode() === 'open-conflict' && !counts.openFailed) {
        counts.openFailed = true;
        throw conflict();
      }
      const s = await store.snapshot();
      counts.opened++;
      const m = mode();
      let first = true;
      const failFirst =
        <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
        async (...a: A): Promise<R> => {
          if (m === 'conflict' && first) {
            first = false;
            counts.failed++;
            throw conflict();
          }
          return f(...a);
        };
      return {
        version: m === 'behind' ? frozen() : s.version,
        db: s.db,
        select: failFirst(s.select) as ReadSession['select'],
        selectRows: failFirst(s.selectRows),
        release: () => s.release(),
      };
    },
  };
}

describe('replica routing (in process)', () => {
  let h: Harness;
  let mode: Mode = 'ok';
  let frozen = 0;
  const counts: { opened: number; failed: number; openFailed?: boolean } = { opened: 0, failed: 0 };
  let app: Awaited<ReturnType<typeof buildApp>>;
  let replicated: Store;
  /** Snapshots opened on the primary. */
  let primaryOpened = 0;

  beforeAll(async () => {
    h = await harness(await STORES[0].url(), TINY_DEMO);
    const primary: Store = {
      ...h.store,
      snapshot: (want) => {
        primaryOpened++;
        return h.store.snapshot(want);
      },
    };
    replicated = openReplicated(
      primary,
      [
        {
          url: 'postgres://replica.example:5432/mds',
          store: flakyReplica(
            h.store,
            () => mode,
            () => frozen,
            counts,
          ),
        },
      ],
      // Checked every 20 ms; a replica found behind is not tried again until a check sees it caught up.
      { pollMs: 20, behindRestMs: 60_000 },
    );
    app = await buildApp({ config: { ...loadConfig({}), databaseUrl: h.url }, store: replicated });
    await app.ready();
    // The first checks have run: the primary's version and the replica's are known.
    await new Promise((r) => setTimeout(r, 60));
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const get = async (url: string) => {
    const r = await app.inject({ url, headers: { 'x-api-key': h.key } });
    return { status: r.statusCode, body: r.json(), version: Number(r.headers['data-version']) };
  };
  const path = '/api/v1/equities?page[size]=3';
  const ready = async () => (await app.inject({ url: '/api/v1/system/readiness' })).json();

  it('reads from a replica that has the latest version, and says so in readiness', async () => {
    mode = 'ok';
    const before = counts.opened;
    const expected = await h.app.inject({ url: path, headers: { 'x-api-key': h.key } });
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expected.json());
    expect(counts.opened).toBe(before + 1);
    expect(await ready()).toEqual({
      status: 'ready',
      primary: 'up',
      writes_to: null,
      replicas: [{ url: 'postgres://replica.example:5432/mds', state: 'up', version: r.version, behind: 0, error: null }],
    });
  });

  it('honours the version of an If-None-Match tag only when the tag is one it makes: a made-up one sends no read to the primary', async () => {
    mode = 'ok';
    const latest = await get(path);
    const tag = (await app.inject({ url: path, headers: { 'x-api-key': h.key } })).headers.etag as string;
    expect(tag).toMatch(new RegExp(`^"${latest.version}\\.[A-Za-z0-9_-]{22}"$`));
    const madeUp = [
      '"999999999999999.x"',
      '"999999999999999.AAAAAAAAAAAAAAAAAAAAAA"',
      // The hash of another version, or of another URL.
      tag.replace(`"${latest.version}.`, `"${latest.version + 1}.`),
      `W/"${latest.version + 5}.${tag.slice(tag.indexOf('.') + 1)}`,
      (await app.inject({ url: path.replace('size]=3', 'size]=4'), headers: { 'x-api-key': h.key } })).headers.etag as string,
    ];
    const [replica, primary] = [counts.opened, primaryOpened];
    for (const inm of madeUp) {
      const r = await app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': inm } });
      expect([r.statusCode, Number(r.headers['data-version'])], inm).toEqual([200, latest.version]);
      expect(r.json()).toEqual(latest.body);
    }
    // Every one read on the replica (which rests for a minute once found behind: it was never asked for more).
    expect(counts.opened).toBe(replica + madeUp.length);
    expect(primaryOpened).toBe(primary);
    // The tag itself: 304 from the replica.
    const same = await app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': tag } });
    expect(same.statusCode).toBe(304);
    expect([counts.opened, primaryOpened]).toEqual([replica + madeUp.length + 1, primary]);
  });

  /** The replica stops replaying; the primary commits a new version. */
  const fallBehind = async () => {
    frozen = (await get(path)).version;
    mode = 'behind';
    await h.store.bulkTransaction((s) => recordVersion(s, 'test', []));
    await new Promise((r) => setTimeout(r, 60));
  };

  it('does not use a replica behind the version asked for: the primary answers', async () => {
    await fallBehind();
    expect((await ready()).replicas[0]).toMatchObject({ state: 'up', behind: 1 });
    const r = await get(path);
    expect([r.status, r.version]).toEqual([200, frozen + 1]);
    // At most one snapshot tried and found behind (then the replica rests until a check finds it current).
    const tried = counts.opened;
    const again = await get(path);
    expect([again.status, again.version]).toEqual([200, r.version]);
    expect(counts.opened).toBe(tried);
  });

  it('reads what a replica has replayed when asked to (`replayed`: the event streams), the primary only when no replica answers', async () => {
    await fallBehind();
    const s = await replicated.snapshot({ replayed: true });
    expect([s.version, s.source]).toEqual([frozen, 'replica postgres://replica.example:5432/mds']);
    s.release();
    // A request still reads the primary's latest.
    expect((await get(path)).version).toBe(frozen + 1);
    mode = 'down';
    const p = await replicated.snapshot({ replayed: true });
    expect([p.version, p.source]).toEqual([frozen + 1, 'primary']);
    p.release();
    mode = 'ok';
    await new Promise((r) => setTimeout(r, 60));
  });

  it('skips a replica that is down, says so, and uses it again once it answers', async () => {
    mode = 'down';
    const r = await get(path);
    expect(r.status).toBe(200);
    await new Promise((r) => setTimeout(r, 60));
    expect((await ready()).replicas[0]).toMatchObject({ state: 'down', error: 'ECONNREFUSED' });
    const opened = counts.opened;
    expect((await get(path)).status).toBe(200);
    expect(counts.opened).toBe(opened);
    mode = 'ok';
    await new Promise((r) => setTimeout(r, 60));
    expect((await ready()).replicas[0]).toMatchObject({ state: 'up', behind: 0, error: null });
    expect((await get(path)).status).toBe(200);
    expect(counts.opened).toBe(opened + 1);
  });

  it('answers a request again from the primary when recovery cancels its read on the replica', async () => {
    mode = 'conflict';
    const failed = counts.failed;
    const id = (await get(path)).body.data[0].id;
    const urls = [
      `/api/v1/equities/${id}/bars?interval=1d&page[size]=5`,
      `/api/v1/equities/${id}/bars?interval=1w&adjustment=forward&page[size]=5`,
      `/api/v1/equities/${id}/technical-indicators/macd?interval=1d&page[size]=5`,
    ];
    for (const url of urls) {
      const expected = await h.app.inject({ url, headers: { 'x-api-key': h.key } });
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(expected.json());
    }
    expect(counts.failed).toBe(failed + urls.length);
    mode = 'ok';
  });

  it('opens again on the replica when replay cancelled the connection a snapshot would begin on: the replica stays up', async () => {
    mode = 'open-conflict';
    const opened = counts.opened;
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(counts.openFailed).toBe(true);
    expect(counts.opened).toBe(opened + 1);
    expect((await ready()).replicas[0]).toMatchObject({ state: 'up', error: null });
    mode = 'ok';
  });

  it('keeps a request whose tag this server made at a version the replica lacks on the primary (304)', async () => {
    mode = 'ok';
    await fallBehind();
    const fresh = await app.inject({ url: path, headers: { 'x-api-key': h.key } });
    expect(Number(fresh.headers['data-version'])).toBe(frozen + 1);
    const primary = primaryOpened;
    const r = await app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': fresh.headers.etag as string } });
    expect([r.statusCode, Number(r.headers['data-version'])]).toEqual([304, frozen + 1]);
    expect(primaryOpened).toBe(primary + 1);
    mode = 'ok';
  });

  it('keeps a page walk on the version of its cursor: a replica behind it is not used', async () => {
    mode = 'ok';
    const first = await get(path);
    // The replica stops at the cursor's version, the primary moves on; the next page is not read at an older version.
    await fallBehind();
    const next = await get(first.body.links.next);
    expect(next.status).toBe(200);
    expect(next.version).toBe(frozen + 1);
    mode = 'ok';
  });
});

describe.skipIf(!STORES.some((s) => s.name === 'postgres'))('PostgreSQL announces each committed version', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await STORES.find((s) => s.name === 'postgres')!.url(), null);
  });
  afterAll(() => h?.close());

  it('at its commit, to a listener that reconnects after its connection is killed', async () => {
    const seen: number[] = [];
    const stop = h.store.watchVersions!((v) => seen.push(v));
    /** Commits versions (one each 50 ms, at most 200) until one committed after `after` is heard; returns it. */
    const heard = async (after: number) => {
      const committed: number[] = [];
      for (let i = 0; i < 200; i++) {
        committed.push(await h.store.bulkTransaction((s) => recordVersion(s, 'test', [])));
        await new Promise((r) => setTimeout(r, 50));
        const v = committed.find((c) => c > after && seen.includes(c));
        if (v !== undefined) return v;
      }
      return null;
    };
    try {
      // Once listening, a commit is heard.
      const first = await heard(0);
      expect(first).not.toBe(null);
      // Its connection killed: it listens again, and hears the next commits.
      await h.store.bulkTransaction((s) =>
        s.query("select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen mds_data_version'"),
      );
      expect(await heard(first!)).not.toBe(null);
      // Each version heard once, in commit order.
      expect(seen).toEqual([...new Set(seen)].sort((x, y) => x - y));
    } finally {
      stop();
    }
  });
});
