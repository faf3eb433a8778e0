/**
 * A first load into a SQLite store (BulkOptions.firstLoad, store/dialects/sqlite-first-load.ts):
 * written in place under a rollback journal when no other connection has the file open, still
 * all or nothing, the file in WAL mode again after it; and `ingest` asks for it exactly when the
 * store holds no bars.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { harness, TINY_DEMO, type Harness } from './helpers.js';
import { snapshot, tmp } from './ingest-helpers.js';
import { exportDatasets } from '../src/ingest/export.js';
import { dataset, DATASETS } from '../src/datasets/registry.js';
import { ingest } from '../src/ingest/load.js';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';

const mode = async (store: Store) => String((await store.selectRows('pragma journal_mode', []))[0][0]);

async function emptyStore(): Promise<{ file: string; store: Store }> {
  const file = join(tmp('mds-first-load-'), 'store.sqlite');
  const store = openStore(file);
  await migrate(store);
  return { file, store };
}

describe('a first load into a SQLite store', () => {
  let demo: Harness;
  const dir = tmp();
  const opened: Store[] = [];
  beforeAll(async () => {
    demo = await harness(join(tmp(), 'demo.sqlite'), TINY_DEMO);
    await exportDatasets(demo.store, DATASETS, { dir });
  });
  afterAll(async () => {
    await demo?.close();
    for (const s of opened) await s.close();
  });

  it('runs under a rollback journal, then the file is in WAL mode again', async () => {
    const { store } = await emptyStore();
    opened.push(store);
    expect(await mode(store)).toBe('wal');
    const during = await store.bulkTransaction(async (s) => String((await s.queryRows('pragma journal_mode'))[0][0]), { firstLoad: true });
    expect(during).toBe('truncate');
    expect(await mode(store)).toBe('wal');
    // Without the option, in WAL mode.
    expect(await store.bulkTransaction(async (s) => String((await s.queryRows('pragma journal_mode'))[0][0]))).toBe('wal');
  });

  it('rolls back whole: nothing of a failed first load stays', async () => {
    const { store } = await emptyStore();
    opened.push(store);
    const before = await store.selectRows('select count(*) from markets', []);
    await expect(
      store.bulkTransaction(
        async (s) => {
          await s.query("insert into meta (key, value) values ('first-load-test', 'x')");
          throw new Error('stop');
        },
        { firstLoad: true },
      ),
    ).rejects.toThrow('stop');
    expect(await store.selectRows("select value from meta where key = 'first-load-test'", [])).toEqual([]);
    expect(await store.selectRows('select count(*) from markets', [])).toEqual(before);
    expect(await mode(store)).toBe('wal');
  });

  it('stays in WAL mode while another connection has the file open', async () => {
    const { file, store } = await emptyStore();
    opened.push(store);
    const other = new Database(file);
    try {
      other.prepare('select count(*) from meta').get();
      const during = await store.bulkTransaction(async (s) => String((await s.queryRows('pragma journal_mode'))[0][0]), {
        firstLoad: true,
      });
      expect(during).toBe('wal');
    } finally {
      other.close();
    }
  });

  it('ingest writes a store without bars that way, and loads the same rows as in WAL mode', async () => {
    const files = readdirSync(dir).map((f) => ({ path: join(dir, f), dataset: dataset(f.split('.')[0])! }));
    const seen: string[] = [];
    const { store } = await emptyStore();
    opened.push(store);
    const first = await ingest(store, files, {
      beforeCommit: async (s) => void seen.push(String((await s.queryRows('pragma journal_mode'))[0][0])),
    });
    expect(first.ok).toBe(true);
    // Again: the store holds bars now.
    await ingest(store, files, { beforeCommit: async (s) => void seen.push(String((await s.queryRows('pragma journal_mode'))[0][0])) });
    expect(seen).toEqual(['truncate', 'wal']);
    expect(await mode(store)).toBe('wal');
    expect(await snapshot(store)).toEqual(await snapshot(demo.store));
  });
});
