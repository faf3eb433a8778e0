import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, type Harness } from './helpers.js';
import { MarketDataReader } from '../src/store/readers/market-data.js';
import { readBars, readDailyPage, readMinutePage } from '../src/query/bars.js';
import { closeEpoch } from '../src/market/sessions.js';
import { Renderer } from '../src/render/json-bytes.js';
import { barFieldsWriter as fieldsWriterIn, barWriter as barWriterIn } from '../src/render/bar-writers.js';
import { WriterCache } from '../src/render/writer-cache.js';

const writers = new WriterCache();
const barWriter = (...a: Parameters<typeof barWriterIn> extends [unknown, ...infer R] ? R : never) => barWriterIn(writers, ...a);
const barFieldsWriter = (...a: Parameters<typeof fieldsWriterIn> extends [unknown, ...infer R] ? R : never) =>
  fieldsWriterIn(writers, ...a);
import type { Slices } from '../src/render/slices.js';
import type { Bar } from '../src/market/types.js';
import type { InstrumentKind } from '../src/market/kinds.js';

const renderer = new Renderer();

/** The first `count` records of `slices` as a JSON array. */
const array = (slices: Slices, count: number) => {
  const w = renderer.start();
  w.byte(91);
  slices.write(w, count);
  w.byte(93);
  return w.take().toString();
};

/** The JSON the API renders for a daily bar of an instrument. */
const barJson = (id: string, kind: InstrumentKind) => (b: Bar) => {
  const w = renderer.start();
  barWriter(id, kind, '1d', 'none')(w, b);
  return w.take().toString('latin1');
};
import { marketEpoch } from '../src/lib/time.js';

/** A small deterministic generator (mulberry32): the cases are the same on every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const store of STORES) {
  describe(`bar pages (${store.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(await store.url());
    });
    afterAll(async () => {
      await h?.close();
    });

    it('serve the JSON that rendering the bars gives, for any window, cursor and page size', async () => {
      const insts = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id', 'kind'])
        .where('kind', 'in', ['equity', 'index'])
        .execute();
      const reader = new MarketDataReader(h.store);
      const rand = rng(42);
      const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];
      let compared = 0;
      for (let c = 0; c < 300; c++) {
        const inst = pick(insts);
        // Windows anywhere in 2025 (the demo's range), of up to 200 days.
        const day = 20250102 + Math.floor(rand() * 11) * 100 + Math.floor(rand() * 28);
        const fromMs = marketEpoch(day, Math.floor(rand() * 1440)) * 1000;
        const toMs = fromMs + Math.floor(rand() * 200 * 86_400_000);
        const limit = 1 + Math.floor(rand() * 120);
        const all = await readBars(reader, inst.inst, '1d', { fromMs, toMs }, null, 1_000_000);
        // No cursor, or one after a bar of the window (or before it).
        const after = rand() < 0.4 || all.length === 0 ? null : all[Math.floor(rand() * all.length)].ts - (rand() < 0.2 ? 1 : 0);
        const bars = await readBars(reader, inst.inst, '1d', { fromMs, toMs }, after, limit);
        const count = Math.floor(rand() * (bars.length + 1));
        const json = barJson(inst.id, inst.kind);
        const slices = await readDailyPage(
          reader,
          inst.inst,
          { fromMs, toMs },
          after,
          limit,
          barFieldsWriter(inst.id, inst.kind, '1d', 'none'),
        );
        expect(slices.keys.map(closeEpoch), `${inst.id} ${fromMs}..${toMs} after ${after} limit ${limit}`).toEqual(bars.map((b) => b.ts));
        expect(array(slices, count)).toBe(`[${bars.slice(0, count).map(json).join(',')}]`);
        compared += bars.length;
      }
      expect(compared).toBeGreaterThan(3_000);
    });

    it('1m pages written from the packs equal the rendered bars, for any window, cursor and page size', async () => {
      const insts = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id', 'kind'])
        .where('kind', 'in', ['equity', 'index', 'fund'])
        .execute();
      const days = (await h.store.selectRows('select distinct date from bars_1m_packs order by date', [])).map((r) => Number(r[0]));
      expect(days.length).toBeGreaterThan(0);
      const reader = new MarketDataReader(h.store);
      const rand = rng(7);
      const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];
      let compared = 0;
      for (let c = 0; c < 200; c++) {
        const inst = pick(insts);
        // Windows of up to three days from any minute of a day with 1m bars.
        const fromMs = marketEpoch(pick(days), 9 * 60 + Math.floor(rand() * 400)) * 1000;
        const toMs = fromMs + Math.floor(rand() * 3 * 86_400_000);
        const limit = 1 + Math.floor(rand() * 300);
        const all = await readBars(reader, inst.inst, '1m', { fromMs, toMs }, null, 1_000_000);
        const after = rand() < 0.4 || all.length === 0 ? null : all[Math.floor(rand() * all.length)].ts - (rand() < 0.2 ? 1 : 0);
        const bars = await readBars(reader, inst.inst, '1m', { fromMs, toMs }, after, limit);
        const write = barFieldsWriter(inst.id, inst.kind, '1m', 'none');
        const slices = await readMinutePage(reader, inst.inst, { fromMs, toMs }, after, limit, write);
        expect(slices.keys, `${inst.id} ${fromMs}..${toMs} after ${after} limit ${limit}`).toEqual(bars.map((b) => b.ts));
        const count = Math.floor(rand() * (bars.length + 1));
        const json = (b: Bar) => {
          const w = renderer.start();
          barWriter(inst.id, inst.kind, '1m', 'none')(w, b);
          return w.take().toString('latin1');
        };
        expect(array(slices, count)).toBe(`[${bars.slice(0, count).map(json).join(',')}]`);
        compared += count;
      }
      expect(compared).toBeGreaterThan(2000);
    });

    it('answer the bars route: every page of a walk equals the rendered bars, and the cursor walks on', async () => {
      const eq = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id', 'kind'])
        .where('kind', '=', 'equity')
        .orderBy('inst')
        .executeTakeFirstOrThrow();
      const reader = new MarketDataReader(h.store);
      const win = { fromMs: marketEpoch(20250301, 0) * 1000, toMs: marketEpoch(20250630, 1440) * 1000 };
      const expected = (await readBars(reader, eq.inst, '1d', win, null, 1000)).map((b) => JSON.parse(barJson(eq.id, eq.kind)(b)));
      expect(expected.length).toBeGreaterThan(60);
      const rows: unknown[] = [];
      let url: string | null = `/api/v1/equities/${eq.id}/bars?interval=1d&from=2025-03-01&to=2025-06-30&page[size]=17`;
      while (url) {
        const r = await get(h, url);
        expect(r.status).toBe(200);
        rows.push(...r.body.data);
        url = r.body.links.next;
      }
      expect(rows).toEqual(expected);
    });

    it('are not stored: migration dropped their table and version', async () => {
      const tables =
        h.store.dialect === 'sqlite'
          ? await h.store.selectRows("select name from sqlite_master where name = 'bars_1d_pages'", [])
          : await h.store.selectRows("select tablename from pg_tables where tablename = 'bars_1d_pages'", []);
      expect(tables).toEqual([]);
      expect(await h.store.selectRows("select value from meta where key = 'bar_pages'", [])).toEqual([]);
    });
  });
}
