import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { Catalog } from '../src/store/catalog.js';

/** The catalog's once-a-second check, on a clock the test moves (the suites move the app's: Harness.secondPasses). */
describe('catalog data version check', () => {
  let store: Store;
  beforeAll(async () => { store = openStore(':memory:'); await migrate(store); });
  afterAll(async () => { await store?.close(); });

  const setVersion = (v: string) => store.db.insertInto('meta').values({ key: 'data_version', value: v })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: v })).execute();

  it('reads the data version at most once per ttl of its clock, and reloads when it changed', async () => {
    let t = 1_000_000;
    let reads = 0;
    const catalog = new Catalog(store.db, 1000, async () => {
      reads++;
      return (await store.db.selectFrom('meta').select('value').where('key', '=', 'data_version').executeTakeFirst())?.value;
    }, () => t);
    await setVersion('a');
    expect(await catalog.dataVersion()).toBe('a');
    expect(reads).toBe(1);
    await setVersion('b');
    t += 999;
    expect(await catalog.dataVersion()).toBe('a');
    expect(reads).toBe(1);
    t += 1;
    expect(await catalog.dataVersion()).toBe('b');
    expect(reads).toBe(2);
    // An explicit reload reads it now, whatever the clock.
    await setVersion('c');
    expect((await catalog.snapshot(true)).version).toBe('c');
    expect(reads).toBe(3);
  });
});
