import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { Catalog } from '../src/store/catalog.js';
import { recordVersion } from '../src/store/versions.js';
import { harness, STORES, TINY_DEMO, type Harness } from './helpers.js';

/** The catalogs of the data versions requests read: one read per version, in that version's snapshot. */
describe.each(STORES)('catalog by data version ($name)', ({ url }) => {
  let h: Harness;
  let writer: Store;
  beforeAll(async () => {
    h = await harness(await url(), TINY_DEMO);
    writer = openStore(h.url);
  });
  afterAll(async () => {
    await writer?.close();
    await h?.close();
  });

  it("reads each version's catalog once, in a snapshot of it, whatever commits meanwhile", async () => {
    const catalog = new Catalog();
    const old = await h.store.snapshot();
    try {
      const id = (await old.db.selectFrom('instruments').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
      const name = (await old.db.selectFrom('instruments').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
      // A rename committed after the old snapshot began, as a new version.
      const v = await writer.bulkTransaction(async (s) => {
        await s.query('update instruments set name = ? where id = ?', [`${name} (renamed)`, id]);
        return recordVersion(s, 'test rename', [{ dataset: 'instruments', rows: 1, instruments: [id], from: null, to: null }]);
      });
      expect(v).toBe(old.version + 1);
      const a = await catalog.at(old);
      expect(a.version).toBe(old.version);
      expect(a.get(id)!.name).toBe(name);
      expect(await catalog.at(old)).toBe(a);
      const fresh = await h.store.snapshot();
      try {
        expect(fresh.version).toBe(v);
        const b = await catalog.at(fresh);
        expect(b.get(id)!.name).toBe(`${name} (renamed)`);
        // The old version's catalog is still the one a snapshot of it gets.
        expect((await catalog.at(old)).get(id)!.name).toBe(name);
      } finally {
        fresh.release();
      }
    } finally {
      old.release();
    }
  });
});
