import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, PG_URL, freshPostgres, type Harness } from './helpers.js';

/** The same demo seed answers byte for byte the same on SQLite and PostgreSQL. */
describe.skipIf(!PG_URL)('SQLite and PostgreSQL give identical responses', () => {
  let a: Harness, b: Harness;
  beforeAll(async () => {
    a = await harness(':memory:');
    b = await harness(await freshPostgres());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('matches on every served operation', async () => {
    const kb = b.key; // each store issued its own key
    const eqs = (await get(a, '/api/v1/equities?page[size]=1000')).body.data.map((e: any) => e.id);
    const funds = (await get(a, '/api/v1/funds?page[size]=1000')).body.data.map((e: any) => e.id);
    const paths = [
      '/api/v1/markets',
      '/api/v1/markets/SH',
      '/api/v1/markets/BJ/trading-days?page[size]=1000',
      '/api/v1/classifications/sectors?page[size]=1000',
      '/api/v1/classifications/primary-industries',
      '/api/v1/equities?page[size]=1000',
      '/api/v1/equities?name=st',
      '/api/v1/indices?page[size]=50',
      '/api/v1/funds',
      '/api/v1/equities/pools',
      '/api/v1/indices/000001.SH/bars?interval=1d&page[size]=1000',
      '/api/v1/indices/000300.SH/quotes?page[size]=300',
      ...eqs
        .slice(0, 12)
        .flatMap((id: string) => [
          `/api/v1/equities/${id}`,
          `/api/v1/equities/${id}/bars?interval=1d&page[size]=1000`,
          `/api/v1/equities/${id}/bars?interval=1w&page[size]=7`,
          `/api/v1/equities/${id}/bars?interval=15m&page[size]=1000`,
          `/api/v1/equities/${id}/quotes?page[size]=500`,
          `/api/v1/equities/${id}/trades?page[size]=1000`,
        ]),
      ...funds.slice(0, 3).map((id: string) => `/api/v1/funds/${id}/quotes?page[size]=100`),
    ];
    for (const p of paths) {
      const ra = await get(a, p);
      const rb = await get(b, p, { 'x-api-key': kb });
      expect(ra.status, p).toBe(200);
      expect(rb.payload, p).toBe(ra.payload);
      if (ra.body.meta?.next_cursor) {
        const n = `${p}${p.includes('?') ? '&' : '?'}page[after]=${ra.body.meta.next_cursor}`;
        expect((await get(b, n, { 'x-api-key': kb })).payload, n).toBe((await get(a, n)).payload);
      }
    }
  });
});
