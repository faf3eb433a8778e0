import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { dropPostgres, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';
import { tmp, writeMinuteBars } from './ingest-helpers.js';
import { migrate, openStore, type Store } from '../src/store/store.js';
import { openSqlite } from '../src/store/dialects/sqlite.js';
import { openPostgres } from '../src/store/dialects/postgres.js';
import * as m0001 from '../src/store/migrations/0001_core.js';
import * as m0002 from '../src/store/migrations/0002_fundamentals.js';
import { checkBarPacks } from '../src/store/bar-packs.js';
import { MarketDataReader } from '../src/store/queries/market-data.js';
import { generateDemo } from '../src/demo/generate.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/ingest/registry.js';
import { nextTradingDay, tradingDaysBetween } from '../src/market/calendar.js';
import { formatDate, marketEpoch } from '../src/lib/time.js';
import { formatScaled } from '../src/lib/decimal.js';

const BAR = 'open, high, low, close, volume, amount';
const px = (v: number) => formatScaled(v, 3, 2);
const DAILY_HEADER = 'instrument_id,trade_date,open,high,low,close,volume,amount';

/** Daily and 1m bars read from the base tables as the reader read them before packs. */
const baseDaily = (s: Store, inst: number, lo: number, to: number, limit: number) =>
  s.select<any>(`select date, ${BAR} from bars_1d where inst = ? and date >= ? and date <= ? order by date limit ?`, [inst, lo, to, limit])
    .then((rows) => rows.map((r) => ({ ts: 0, ...r })));
const baseMinute = (s: Store, inst: number, lo: number, to: number, limit: number) =>
  s.select<any>(`select ts, date, ${BAR} from bars_1m where inst = ? and ts >= ? and ts <= ? order by ts limit ?`, [inst, lo, to, limit]);

/** All packs of both tables in key order, one string each (compares stores before and after). */
const allPacks = async (s: Store) => (await Promise.all(['bars_1d_packs', 'bars_1m_packs'].map((t) =>
  s.selectRows(`select * from ${t} order by 1, 2`, [])))).flat().map((r) => `${r.slice(0, 3).join(' ')} ${(r[3] as Buffer).toString('hex')}`);

for (const store of STORES) {
  describe(`bar packs (${store.name})`, () => {
    let h: Harness;
    beforeAll(async () => { h = await harness(await store.url()); });
    afterAll(async () => { await h?.close(); });

    it('equal the bars after the demo build: every pack its rows, every row in a pack', async () => {
      const r = await checkBarPacks(h.store);
      expect(r.problems).toEqual([]);
      const count = async (t: 'bars_1d' | 'bars_1m') =>
        Number((await h.store.db.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      expect(r.rows).toBe(await count('bars_1d') + await count('bars_1m'));
      expect(r.packs).toBeGreaterThan(0);
    });

    /** Two long-listed equities, the last daily and 1m days, and the trading day after the data. */
    const setting = async () => {
      const eqs = await h.store.db.selectFrom('instruments').select(['inst', 'id']).where('kind', '=', 'equity')
        .where('list_date', '<', 20240101).where('delist_date', 'is', null).orderBy('inst').limit(2).execute();
      const lastDay = (t: 'bars_1d' | 'bars_1m') => h.store.db.selectFrom(t).select((eb) => eb.fn.max('date').as('d'))
        .executeTakeFirstOrThrow().then((r) => r.d as number);
      const [d, m] = [await lastDay('bars_1d'), await lastDay('bars_1m')];
      return { eqs, lastMinuteDay: m, next: nextTradingDay(d)! };
    };

    it('follow an ingest that inserts and updates bars of both intervals', async () => {
      const { eqs, lastMinuteDay, next } = await setting();
      const dir = tmp();
      // Updates: each equity's bars of one month get their close moved to the low (or high);
      // inserts: a bar on the next trading day.
      const lines = [DAILY_HEADER];
      for (const e of eqs) {
        const rows = await h.store.db.selectFrom('bars_1d').selectAll().where('inst', '=', e.inst)
          .where('date', '>=', 20250601).where('date', '<=', 20250630).execute();
        expect(rows.length).toBeGreaterThan(0);
        for (const b of rows) {
          const close = b.close === b.low ? b.high : b.low;
          lines.push(`${e.id},${formatDate(b.date)},${px(b.open)},${px(b.high)},${px(b.low)},${px(close)},${b.volume},${formatScaled(b.amount, 2, 2)}`);
        }
        lines.push(`${e.id},${formatDate(next)},10.00,10.50,9.90,10.20,123400,1258680.00`);
      }
      writeFileSync(join(dir, 'bars_1d.csv'), lines.join('\n') + '\n');
      await writeMinuteBars(join(dir, 'bars_1m.csv'), eqs.map((e) => e.id), [lastMinuteDay, next]);
      const r = await ingest(h.store, [{ path: join(dir, 'bars_1d.csv'), dataset: dataset('bars_1d')! },
        { path: join(dir, 'bars_1m.csv'), dataset: dataset('bars_1m')! }]);
      expect(r.errors).toEqual([]);
      for (const name of ['bars_1d', 'bars_1m']) {
        const d = r.datasets.find((x) => x.dataset === name)!;
        expect(d.inserted, name).toBeGreaterThan(0);
        expect(d.updated, name).toBeGreaterThan(0);
      }
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
      const reader = new MarketDataReader(h.store);
      const inst = eqs[0].inst;
      expect(await reader.dailyBars(inst, 20250601, next, null, 101)).toEqual(await baseDaily(h.store, inst, 20250601, next, 101));
      const [lo, hi] = [marketEpoch(lastMinuteDay, 0), marketEpoch(next, 1440)];
      expect(await reader.minuteBars(inst, lo, hi, null, 1000)).toEqual(await baseMinute(h.store, inst, lo, hi, 1000));
    });

    it('are unchanged by an ingest that is rolled back', async () => {
      const { eqs, next } = await setting();
      const before = await allPacks(h.store);
      const dir = tmp();
      const after = nextTradingDay(next)!;
      // New daily bars (written first, in the transaction), new 1m bars and, last, one bad 1m
      // row: the whole command rolls back.
      writeFileSync(join(dir, 'bars_1d.csv'), [DAILY_HEADER, ...eqs.map((e) => `${e.id},${formatDate(after)},10.00,10.50,9.90,10.20,123400,1258680.00`)].join('\n') + '\n');
      await writeMinuteBars(join(dir, 'bars_1m.csv'), eqs.map((e) => e.id), [after]);
      appendFileSync(join(dir, 'bars_1m.csv'), `${eqs[0].id},${formatDate(after)}T09:31:00+08:00,10.00,10.50,9.90,10.2345,100,1000.00\n`);
      const r = await ingest(h.store, [{ path: join(dir, 'bars_1d.csv'), dataset: dataset('bars_1d')! },
        { path: join(dir, 'bars_1m.csv'), dataset: dataset('bars_1m')! }]);
      expect(r.errors).toEqual([expect.stringContaining('10.2345')]);
      expect(r.files.map((f) => f.rows)).toEqual([2, 483]);
      expect(await allPacks(h.store)).toEqual(before);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });
  });

  describe(`the packed bar reader (${store.name})`, () => {
    let h: Harness;
    beforeAll(async () => { h = await harness(await store.url(), null); });
    afterAll(async () => { await h?.close(); });

    it('reads across suspensions longer than its first pack read, as the base tables do', async () => {
      // Daily: one bar a month for two years (24 packs of one bar, more than the 8 packs read
      // first for 101 bars), a year suspended, then every trading day; written in two calls
      // that split a month.
      const every = tradingDaysBetween(20250301, 20251231);
      const sparse = tradingDaysBetween(20220101, 20231231).filter((d, i, a) => i === 0 || Math.floor(a[i - 1] / 100) !== Math.floor(d / 100));
      const days = [...sparse, ...every];
      const bar = (d: number, i: number) => [1, d, 10_000 + i, 10_100 + i, 9_900 + i, 10_050 + i, 2 ** 33 + i, 2 ** 45 + i];
      const rows = days.map(bar);
      const cut = sparse.length + 30;
      expect(Math.floor(days[cut - 1] / 100)).toBe(Math.floor(days[cut] / 100));
      const cols = ['inst', 'date', ...BAR.split(', ')];
      await h.store.bulkInsert('bars_1d', cols, rows.slice(0, cut));
      await h.store.bulkInsert('bars_1d', cols, rows.slice(cut));
      // 1m: ten days with one bar (the opening auction), then three whole days.
      const mdays = tradingDaysBetween(20250701, 20250731);
      const minutes = [570, ...Array.from({ length: 120 }, (_, i) => 571 + i), ...Array.from({ length: 120 }, (_, i) => 781 + i)];
      const mrows = mdays.flatMap((d, k) => (k < 10 ? [570] : k < 13 ? minutes : []).map((m, i) =>
        [1, marketEpoch(d, m), d, 5_000 + i, 5_010 + i, 4_990 + i, 5_000 + i, 100 * i, 2 ** 40 + i]));
      await h.store.bulkInsert('bars_1m', ['inst', 'ts', 'date', ...BAR.split(', ')], mrows);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);

      const reader = new MarketDataReader(h.store);
      const daily: [number, number, number | null, number][] = [
        [20220101, 20261231, null, 101], [20220101, 20261231, null, 1000], [20220101, 20251231, 20231115, 5],
        [20230615, 20250320, null, 101], [20230615, 20250320, 20250303, 101], [20240101, 20250228, null, 101],
        [20250310, 20250310, null, 1], [20250311, 20250310, null, 10], [10101, 99991231, null, 1e9],
      ];
      for (const [from, to, after, limit] of daily) {
        const lo = after !== null && after >= from ? after + 1 : from;
        expect(await reader.dailyBars(1, from, to, after, limit), `${from}..${to} after ${after}`).toEqual(await baseDaily(h.store, 1, lo, to, limit));
      }
      expect(await reader.dailyBars(1, 20220101, 20261231, null, 101)).toHaveLength(101);
      const t0 = marketEpoch(mdays[0], 0), t1 = marketEpoch(mdays[12], 900);
      const minute: [number, number, number | null, number][] = [
        [t0, t1, null, 300], [t0, t1, null, 241], [t0, t1, marketEpoch(mdays[3], 570), 12], [t0 + 1, t1 - 60, null, 1000],
        [marketEpoch(mdays[11], 600), marketEpoch(mdays[11], 601), null, 100], [-62135596800, 253402300799, null, 1e9],
      ];
      for (const [from, to, after, limit] of minute) {
        const lo = after !== null && after >= from ? after + 1 : from;
        expect(await reader.minuteBars(1, from, to, after, limit), `${from}..${to} after ${after}`).toEqual(await baseMinute(h.store, 1, lo, to, limit));
      }
      expect(await reader.minuteBars(1, t0, t1, null, 300)).toHaveLength(300);
    });
  });

  describe(`migration 0003 (${store.name})`, () => {
    it('backfills packs from the bars of a store written before it', async () => {
      const url = await store.url();
      // The store as the code before 0003 left it: the dialect store itself, schema 0001..0002.
      const old = url.startsWith('postgres') ? openPostgres(url) : openSqlite(url);
      try {
        const upTo = (db: Kysely<any>) => {
          const steps: Record<string, Migration> = {
            '0001_core': { up: (d) => m0001.up(d, old.dialect) },
            '0002_fundamentals': { up: (d) => m0002.up(d, old.dialect) },
          };
          return new Migrator({ db, provider: { getMigrations: async () => steps } }).migrateToLatest();
        };
        expect((await upTo(old.db)).error).toBeUndefined();
        await generateDemo(old, SMALL_DEMO);
        // More 1m bars than one backfill batch (10,000).
        const n = await old.db.selectFrom('bars_1m').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        expect(Number(n.n)).toBeGreaterThan(10_000);
        expect(await migrate(old)).toEqual(['0003_bar_packs']);
        const r = await checkBarPacks(old);
        expect(r.problems).toEqual([]);
        expect(r.packs).toBeGreaterThan(0);
        const reader = new MarketDataReader(old);
        expect(await reader.dailyBars(3, 20250101, 20251231, null, 101)).toEqual(await baseDaily(old, 3, 20250101, 20251231, 101));
      } finally {
        await old.close();
        if (url.startsWith('postgres')) await dropPostgres(url);
      }
    });
  });
}

describe('bar pack maintenance', () => {
  it('is part of every store that openStore opens', async () => {
    const s = openStore(':memory:');
    await migrate(s);
    await s.bulkInsert('bars_1d', ['inst', 'date', ...BAR.split(', ')], [[1, 20250102, 1, 1, 1, 1, 1, 1]]);
    expect((await checkBarPacks(s)).packs).toBe(1);
    await expect(s.bulkInsert('bars_1m', ['inst', 'ts', ...BAR.split(', ')], [[1, marketEpoch(20250102, 600), 1, 1, 1, 1, 1, 1]]))
      .rejects.toThrow(/inst and date/);
    await s.close();
  });
});
