/** SQLite read snapshots (store/dialects/sqlite.ts ReadPool): up to 16 at once, then first come, first served. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { migrate, openStore } from '../src/derived/open.js';
import { recordVersion } from '../src/store/versions.js';
import type { ReadSession, Store } from '../src/store/types.js';
import { tmp } from './ingest-helpers.js';
import { StoreUnavailable } from '../src/store/health.js';

describe('SQLite read snapshots', () => {
  let store: Store;
  let writer: Store;
  const file = join(tmp('mds-snapshots-'), 'store.sqlite');
  beforeAll(async () => {
    store = openStore(file);
    await migrate(store);
    writer = openStore(file);
  });
  afterAll(async () => {
    await store?.close();
    await writer?.close();
  });

  const settled = async <T>(p: Promise<T>) => {
    let done = false;
    void p.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    return done;
  };

  it('holds 16 at once, the next waits for one to be released, and each reads its version whatever commits', async () => {
    const held: ReadSession[] = [];
    for (let i = 0; i < 16; i++) held.push(await store.snapshot());
    const v = held[0].version;
    expect(held.every((s) => s.version === v)).toBe(true);
    // A commit after they began: they still read the version before it.
    const next = await writer.bulkTransaction((s) => recordVersion(s, 'test', []));
    expect(next).toBe(v + 1);
    const latest = async (s: ReadSession) => Number((await s.selectRows('select max(version) from data_versions', []))[0][0]);
    expect(await Promise.all(held.map(latest))).toEqual(Array(16).fill(v));
    const waiting = store.snapshot();
    expect(await settled(waiting)).toBe(false);
    held.pop()!.release();
    const got = await waiting;
    expect(got.version).toBe(v + 1);
    expect(await latest(got)).toBe(v + 1);
    got.release();
    for (const s of held) s.release();
    // Released twice changes nothing; the pool serves again.
    held[0].release();
    const again = await store.snapshot();
    expect(again.version).toBe(v + 1);
    again.release();
  });

  it('fails as StoreUnavailable once the store is closed', async () => {
    const other = openStore(file);
    await other.close();
    await expect(other.snapshot()).rejects.toBeInstanceOf(StoreUnavailable);
  });
});
