/** A small store holding the derivations' fixture (src/derived/fixture.ts) as bars: for the registry's and `mds check`'s tests. */
import { FIXTURE } from '../src/derived/fixture.js';
import { migrate, openStore } from '../src/derived/open.js';
import { decodePack } from '../src/store/packs.js';
import type { Store } from '../src/store/types.js';

/**
 * Opens the store at `url`, migrates it and writes the fixture's instruments and their daily
 * bars (through the store: packs, pages and states follow); returns it open.
 */
export async function fixtureStore(url: string): Promise<Store> {
  const store = openStore(url);
  await migrate(store);
  for (const f of FIXTURE) {
    const [code, market] = f.meta.id.split('.');
    await store.db
      .insertInto('instruments')
      .values({
        inst: f.inst,
        id: f.meta.id,
        kind: f.meta.kind as 'equity' | 'index' | 'fund',
        code,
        market,
        board: 'main',
        name: code,
        name_lc: code,
        name_en: null,
        list_date: 20000101,
        delist_date: null,
        total_shares: null,
        float_shares: null,
        fund_type: null,
        underlying: null,
        base_date: null,
        base_value: null,
      })
      .execute();
    const rows = f.packs.flatMap(([, n, data]) => decodePack(data, n).map(([date, ...bar]) => [f.inst, date, ...bar]));
    await store.bulkInsert('bars_1d', ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'], rows);
  }
  return store;
}
