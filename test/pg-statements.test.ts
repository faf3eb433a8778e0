/** PostgreSQL's named statements are bounded: a connection keeps at most MAX_NAMED whatever SQL it runs. */
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/derived/open.js';
import { MAX_NAMED } from '../src/store/dialects/postgres.js';
import { dropPostgres, freshPostgres, PG_URL } from './helpers.js';

describe.skipIf(!PG_URL)('PostgreSQL named statements', () => {
  it(`names the first ${MAX_NAMED} texts and runs the rest unnamed, with the same answers`, async () => {
    const url = await freshPostgres();
    const store = openStore(url);
    try {
      // One connection at a time: the reads go one after another, so they share one.
      for (let i = 0; i < MAX_NAMED + 50; i++) {
        expect(await store.selectRows(`select ?::int + ${i} as n`, [1])).toEqual([[1 + i]]);
      }
      const kept = await store.selectRows('select count(*)::int from pg_prepared_statements', []);
      expect(kept[0][0]).toBeLessThanOrEqual(MAX_NAMED);
      expect(kept[0][0]).toBeGreaterThan(MAX_NAMED / 2);
    } finally {
      await store.close();
      await dropPostgres(url);
    }
  });
});
