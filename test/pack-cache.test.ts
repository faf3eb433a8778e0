/**
 * Daily packs kept by year per data version (store/readers/pack-cache.ts), which a PostgreSQL
 * store's pages are written from: every window, page size and cursor gives the same bars as the
 * packs read per page, over three years (pages across New Year), an equity listed late (years
 * without bars before it), windows past the last bar and a far `to`; read once per year and
 * version; and through the app, the PostgreSQL store's pages equal SQLite's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketDataReader } from '../src/store/readers/market-data.js';
import { DailyPackCache } from '../src/store/readers/pack-cache.js';
import type { ReadSession } from '../src/store/types.js';
import { get, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';

const DEMO = { ...SMALL_DEMO, start: 20230103 };

describe.each(STORES)('daily packs kept by year ($name)', ({ url }) => {
  let h: Harness;
  let session: ReadSession;
  let ids: { inst: number; id: string }[];

  beforeAll(async () => {
    h = await harness(await url(), DEMO);
    session = await h.store.snapshot();
    const rows = await h.store.db
      .selectFrom('instruments')
      .select(['inst', 'id', 'list_date'])
      .where('kind', '=', 'equity')
      .orderBy('list_date', 'desc')
      .execute();
    // The latest listed (no bars in its first years of the window), and two of the oldest.
    ids = [rows[0], rows[rows.length - 1], rows[rows.length - 2]].map((r) => ({ inst: r.inst, id: r.id }));
  }, 180_000);
  afterAll(async () => {
    session?.release();
    await h?.close();
  });

  it('gives the bars the packs give, for every window, size and cursor', async () => {
    const plain = new MarketDataReader(session);
    const cache = new DailyPackCache(64 * 2 ** 20);
    const kept = new MarketDataReader(session, { version: () => session.version, cache });
    const froms = [0, 20230615, 20231220, 20241231, 20251101, 20300101];
    const tos = [99991231, 20240105, 20250630];
    let compared = 0;
    for (const { inst } of ids)
      for (const from of froms)
        for (const to of tos)
          for (const limit of [1, 7, 100, 500]) {
            const expected = await plain.dailyBars(inst, from, to, null, limit);
            expect(await kept.dailyBars(inst, from, to, null, limit)).toEqual(expected);
            // The next page, after the last bar of this one.
            if (expected.length) {
              const after = expected[expected.length - 1].date;
              expect(await kept.dailyBars(inst, from, to, after, limit)).toEqual(await plain.dailyBars(inst, from, to, after, limit));
            }
            compared++;
          }
    expect(compared).toBe(ids.length * froms.length * tos.length * 4);
    // Each (instrument, year) read once: misses are bounded by the years the windows touch.
    expect(cache.counts.misses).toBeLessThanOrEqual(ids.length * 8);
    expect(cache.counts.hits).toBeGreaterThan(compared);
  });
});

describe.skipIf(STORES.length < 2)('PostgreSQL pages from kept packs equal SQLite pages', () => {
  let sqlite: Harness;
  let postgres: Harness;
  beforeAll(async () => {
    [sqlite, postgres] = await Promise.all(STORES.map(async (s) => harness(await s.url(), DEMO)));
  }, 180_000);
  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  it('answers the same daily pages, walked and newest first', async () => {
    const id = (await get(sqlite, '/api/v1/equities?page[size]=1')).body.data[0].id;
    for (const q of ['from=2023-12-01&page[size]=37', 'order=desc&page[size]=100', 'from=2024-12-20&to=2025-01-10', 'date=2025-06-30']) {
      let path: string | null = `/api/v1/equities/${id}/bars?interval=1d&${q}`;
      for (let pages = 0; path !== null && pages < 40; pages++) {
        const [a, b]: Awaited<ReturnType<typeof get>>[] = await Promise.all([get(sqlite, path), get(postgres, path)]);
        expect(b.status).toBe(200);
        expect(b.body.data).toEqual(a.body.data);
        path = b.body.links.next;
      }
    }
  });
});
