import { MarketDataReader } from '../src/store/readers/market-data.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectPointDatesOfBars, get, harness, STORES, uncursored, withSnapshot, type Harness } from './helpers.js';
import { mds as cli } from './ingest-helpers.js';
import { migrate } from '../src/derived/open.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { INDICATOR_PAGES, precomputedIds, setPrecomputed } from '../src/derived/indicator-pages.js';
import { decodePage } from '../src/render/page-text.js';
import { INDICATOR_IDS, type IndicatorId } from '../src/indicators/registry.js';

/** The indicators the app's next request sees precomputed. */
const precomputedNow = (h: Harness) => withSnapshot(h, async (s) => s.catalog.precomputed);

const BAR_COLUMNS = ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'];

for (const store of STORES) {
  describe(`precomputed indicators (${store.name})`, () => {
    let h: Harness;
    let insts: { inst: number; id: string; kind: string }[];
    beforeAll(async () => {
      h = await harness(await store.url());
      const rows = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id', 'kind', 'list_date'])
        .where('kind', 'in', ['equity', 'index'])
        .orderBy('inst')
        .execute();
      // Two equities (one listed after the demo's first day, if any) and an index.
      const late = rows.find((r) => r.kind === 'equity' && r !== rows[3] && (r.list_date ?? 0) > 20250102) ?? rows[1];
      insts = [rows[3], late, rows.find((r) => r.kind === 'index')!];
    });
    afterAll(async () => {
      await h?.close();
    });

    const path = (i: { id: string; kind: string }, id: string, query: string) =>
      `/api/v1/${i.kind === 'index' ? 'indices' : 'equities'}/${i.id}/technical-indicators/${id}?interval=1d${query}`;

    /** Every page's raw body of walks over `ids` of the test instruments: whole series, windows, cursors. */
    const bodies = async (ids: readonly IndicatorId[]) => {
      const out: string[] = [];
      for (const i of insts) {
        for (const id of ids) {
          for (const q of [
            '&page[size]=1000',
            '&page[size]=37',
            '&from=2025-03-14T00:00:00Z&to=2025-08-02T00:00:00Z&page[size]=16',
            '&date=2025-06-03',
            '&from=2025-11-19T00:00:00Z&page[size]=5',
            '&from=2026-03-01T00:00:00Z',
          ]) {
            let url: string | null = path(i, id, q);
            while (url !== null) {
              const r = await get(h, url);
              expect(r.status, url).toBe(200);
              // Cursors name the data version read, which each change of the precomputed set moves on.
              out.push(uncursored(`${url}\n${r.payload}`));
              url = r.body.links.next;
            }
          }
        }
      }
      return out;
    };

    it('serve every indicator byte for byte as computed, from stored pages kept in step with ingest, until dropped', async () => {
      expect(await h.store.bulkTransaction(precomputedIds)).toEqual([]);
      const computed = await bodies(INDICATOR_IDS);
      expect(computed.length).toBeGreaterThan(3 * 12 * 8);
      // Points with values, and points before there is history enough for a value.
      expect(computed.some((b) => b.includes('"values":{"dif":"'))).toBe(true);
      expect(computed.some((b) => b.includes('"values":{}'))).toBe(true);

      const reads = vi.spyOn(MarketDataReader.prototype, 'indicatorPage');
      expect(await setPrecomputed(h.store, ['macd', 'kdj'])).toEqual({ before: [], after: ['macd', 'kdj'] });
      expect(await setPrecomputed(h.store, [...INDICATOR_IDS])).toEqual({ before: ['macd', 'kdj'], after: INDICATOR_IDS });
      expect([...(await precomputedNow(h))]).toEqual(INDICATOR_IDS);
      expect(await bodies(INDICATOR_IDS)).toEqual(computed);
      // Every walk's pages but those of windows with no bar came from the stored pages.
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(computed.length);
      const check = await checkBarPacks(h.store);
      expect(check.problems).toEqual([]);
      // Every month of every equity, index and fund.
      const packsOf = async (kinds: string[]) =>
        Number(
          (
            await h.store.selectRows(
              'select count(*) from bars_1d_packs p join instruments i on i.inst = p.inst' +
                ` where i.kind in (${kinds.map((k) => `'${k}'`).join(', ')})`,
              [],
            )
          )[0][0],
        );
      expect(await packsOf(['fund'])).toBeGreaterThan(0);
      expect(check.derived.indicator_pages.compared).toBe((await packsOf(['equity', 'index', 'fund'])) * INDICATOR_IDS.length);

      // A stored page is the points' JSON as the API serves it.
      const [page] = await h.store.selectRows("select data from indicator_pages where inst = ? and indicator = 'rsi' and month = 202507", [
        insts[0].inst,
      ]);
      const records = decodePage(String(page[0]));
      expect(records.length).toBeGreaterThan(18);
      const served = await get(h, path(insts[0], 'rsi', '&from=2025-07-01T00:00:00Z&page[size]=1'));
      expect(JSON.parse(records[0].json)).toEqual(served.body.data[0]);
      expect(records[0].key).toBe(20250701);

      // An ingest that rewrites a month in the middle renders that month and every later one again.
      const eq = insts[0];
      const before = await h.store.selectRows(
        "select month, data from indicator_pages where inst = ? and indicator = 'macd' order by month",
        [eq.inst],
      );
      const rows = await h.store.db
        .selectFrom('bars_1d')
        .selectAll()
        .where('inst', '=', eq.inst)
        .where('date', '>=', 20250601)
        .where('date', '<=', 20250631)
        .execute();
      expect(rows.length).toBeGreaterThan(15);
      await h.store.bulkTransaction((s) =>
        s.upsert(
          { table: 'bars_1d', columns: BAR_COLUMNS, key: ['inst', 'date'] },
          rows.map((b) => [b.inst, b.date, b.open, b.high, b.low, b.close === b.low ? b.high : b.low, b.volume, b.amount]),
        ),
      );
      const after = await h.store.selectRows(
        "select month, data from indicator_pages where inst = ? and indicator = 'macd' order by month",
        [eq.inst],
      );
      expect(after.map((r) => r[0])).toEqual(before.map((r) => r[0]));
      after.forEach((r, k) => {
        if (Number(r[0]) < 202506) expect(r[1], String(r[0])).toBe(before[k][1]);
        else expect(r[1], String(r[0])).not.toBe(before[k][1]);
      });
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
      const stored = await bodies(['macd', 'boll']);
      expect(await setPrecomputed(h.store, [])).toEqual({ before: INDICATOR_IDS, after: [] });
      expect([...(await precomputedNow(h))]).toEqual([]);
      expect(Number((await h.store.selectRows('select count(*) from indicator_pages', []))[0][0])).toBe(0);
      expect(await bodies(['macd', 'boll'])).toEqual(stored);
      expect(stored).not.toEqual(computed.filter((b) => /\/(macd|boll)\?/.test(b)));
    });

    it('are computed when the pages are gone before the catalog knows, and rendered again when their stored version is stale', async () => {
      await setPrecomputed(h.store, ['ema', 'obv']);
      const stored = await bodies(['ema']);
      // The pages of one indicator deleted behind the catalog's back, as a drop seen late.
      await h.store.bulkTransaction((s) => s.query("delete from indicator_pages where indicator = 'ema'"));
      expect(await bodies(['ema'])).toEqual(stored);
      expect((await checkBarPacks(h.store)).problems.some((p) => /indicator_pages \d+\/ema\/\d+: missing/.test(p))).toBe(true);
      await h.store.bulkTransaction((s) => s.query("update meta set value = '0:ema,obv' where key = 'indicator_pages'"));
      await migrate(h.store);
      const check = await checkBarPacks(h.store);
      expect(check.problems).toEqual([]);
      const count = async (id: string) =>
        Number((await h.store.selectRows('select count(*) from indicator_pages where indicator = ?', [id]))[0][0]);
      expect(await count('ema')).toBeGreaterThan(40 * 10);
      expect(await count('obv')).toBe(await count('ema'));
      expect(check.derived.indicator_pages.compared).toBe(2 * (await count('ema')));
      expect(await h.store.selectRows("select value from meta where key = 'indicator_pages'", [])).toEqual([
        [`${INDICATOR_PAGES.version()}:ema,obv`],
      ]);
      // The pages rendered again carry each point's trade_date, that of its bar (served from them).
      const [page] = await h.store.selectRows("select data from indicator_pages where inst = ? and indicator = 'obv' and month = 202507", [
        insts[0].inst,
      ]);
      const records = decodePage(String(page[0]));
      expect(records.map((r) => JSON.parse(r.json).trade_date)).toEqual(
        records.map((r) => `${String(r.key).slice(0, 4)}-${String(r.key).slice(4, 6)}-${String(r.key).slice(6)}`),
      );
      const reads = vi.spyOn(MarketDataReader.prototype, 'indicatorPage');
      for (const i of insts) {
        const base = `/api/v1/${i.kind === 'index' ? 'indices' : 'equities'}/${i.id}`;
        expect(await expectPointDatesOfBars(h, `${base}/bars?interval=1d`, `${base}/technical-indicators/obv?interval=1d`)).toBeGreaterThan(
          40,
        );
      }
      expect(reads).toHaveBeenCalled();
      reads.mockRestore();
      await setPrecomputed(h.store, []);
    });
  });
}

describe('mds indicators', () => {
  /** stdout of `mds --database db ...args` run in-process; a non-zero exit throws with stderr. */
  const mds = async (db: string, ...args: string[]) => {
    const r = await cli(db, ...args);
    if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
    return r.stdout;
  };

  it('lists, precomputes and drops indicators, and names the ones it does not know', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'mds-ind-')), 'ind.sqlite');
    const h = await harness(db);
    try {
      expect((await mds(db, 'indicators', 'list')).split('\n')[1]).toBe('ema\tema12,ema26\tcomputed');
      expect(await mds(db, 'indicators', 'precompute', 'macd', 'rsi')).toMatch(
        /^precomputed macd, rsi in .* s; precomputed now: macd, rsi\n?$/,
      );
      expect(await mds(db, 'indicators', 'precompute', 'kdj')).toMatch(/^precomputed kdj in .* s; precomputed now: macd, kdj, rsi\n?$/);
      expect(await mds(db, 'indicators', 'list')).toMatch(/\nmacd\tdif,dea,macd\tprecomputed\n/);
      expect((await checkBarPacks(h.store)).derived.indicator_pages.compared).toBeGreaterThan(3 * 40 * 10);
      expect(await mds(db, 'indicators', 'drop', 'macd')).toMatch(/^dropped macd in .* s; precomputed now: kdj, rsi\n?$/);
      await expect(mds(db, 'indicators', 'precompute', 'macd', 'sar')).rejects.toThrow(/unknown indicator sar \(one of ma, ema, /);
      expect(await mds(db, 'indicators', 'drop', 'all')).toMatch(/^dropped kdj, rsi in .* s; precomputed now: none\n?$/);
      expect((await checkBarPacks(h.store)).derived.indicator_pages.compared).toBe(0);
    } finally {
      await h.close();
    }
  });
});
