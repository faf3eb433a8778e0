import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { dropPostgres, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';
import { tmp, writeMinuteBars } from './ingest-helpers.js';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { openSqlite } from '../src/store/dialects/sqlite.js';
import { openPostgres } from '../src/store/dialects/postgres.js';
import * as m0001 from '../src/store/migrations/0001_core.js';
import * as m0002 from '../src/store/migrations/0002_fundamentals.js';
import * as m0018 from '../src/store/migrations/0018_margin_trading.js';
import * as m0019 from '../src/store/migrations/0019_suspensions.js';
import * as m0020 from '../src/store/migrations/0020_share_capital.js';
import * as m0029 from '../src/store/migrations/0029_index_weights.js';
import { checkBarPacks, withBarPacks, type PendingLimits } from '../src/derived/bar-packs.js';
import { decodePack } from '../src/store/packs.js';
import { MarketDataReader } from '../src/store/readers/market-data.js';
import { generateDemo } from '../src/demo/generate.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { nextTradingDay, tradingDaysBetween } from '../src/market/calendar.js';
import { formatDate, formatTimestamp, marketEpoch } from '../src/lib/time.js';
import { formatScaled } from '../src/lib/decimal.js';

const BAR = 'open, high, low, close, volume, amount';
const px = (v: number) => formatScaled(v, 3, 2);
const DAILY_HEADER = 'instrument_id,trade_date,open,high,low,close,volume,amount';

/** Daily and 1m bars read from the base tables as the reader read them before packs. */
const baseDaily = (s: Store, inst: number, lo: number, to: number, limit: number) =>
  s
    .select<any>(`select date, ${BAR} from bars_1d where inst = ? and date >= ? and date <= ? order by date limit ?`, [inst, lo, to, limit])
    .then((rows) => rows.map((r) => ({ ts: 0, ...r })));
const baseMinute = (s: Store, inst: number, lo: number, to: number, limit: number) =>
  s.select<any>(`select ts, date, ${BAR} from bars_1m where inst = ? and ts >= ? and ts <= ? order by ts limit ?`, [inst, lo, to, limit]);

/** Instrument 1 (an equity): bars are written only for instruments the store knows (their pages render the id). */
const instrumentOne = (s: Store) =>
  s.db
    .insertInto('instruments')
    .values({
      inst: 1,
      id: '600000.SH',
      kind: 'equity',
      code: '600000',
      market: 'SH',
      board: 'main',
      name: 'One',
      name_lc: 'one',
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

/** A new directory with bars_1d.csv and bars_1m.csv of these lines. */
function barFiles(daily: string[], minute: string[]): string {
  const dir = tmp();
  writeFileSync(join(dir, 'bars_1d.csv'), daily.join('\n') + '\n');
  writeFileSync(join(dir, 'bars_1m.csv'), minute.join('\n') + '\n');
  return dir;
}

/** One ingest command of the bars_1d.csv and bars_1m.csv of `dir`. */
const ingestBars = (s: Store, dir: string, opts: { batchSize?: number } = {}) =>
  ingest(
    s,
    (['bars_1d', 'bars_1m'] as const).map((n) => ({ path: join(dir, `${n}.csv`), dataset: dataset(n)! })),
    opts,
  );

/** All packs (with their indicator states) and pages of both intervals in key order, one string each (compares stores before and after). */
const allPacks = async (s: Store) =>
  (await Promise.all(['bars_1d_packs', 'bars_1m_packs'].map((t) => s.selectRows(`select * from ${t} order by 1, 2`, []))))
    .flat()
    .map((r) => r.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : String(v))).join(' '));

for (const store of STORES) {
  describe(`bar packs (${store.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(await store.url());
    });
    afterAll(async () => {
      await h?.close();
    });

    it('equal the bars after the demo build: every pack its rows, every row in a pack', async () => {
      const r = await checkBarPacks(h.store);
      expect(r.problems).toEqual([]);
      const count = async (t: 'bars_1d' | 'bars_1m') =>
        Number(
          (
            await h.store.db
              .selectFrom(t)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(r.rows).toBe((await count('bars_1d')) + (await count('bars_1m')));
      expect(r.packs).toBeGreaterThan(0);
      // Every daily pack has its indicator states (1m packs have none).
      const daily = Number((await h.store.selectRows('select count(*) from bars_1d_packs', []))[0][0]);
      expect(r.derived.indicator_states.compared).toBe(daily);
    });

    /** Two long-listed equities, the last daily and 1m days, and the trading day after the data. */
    const setting = async () => {
      const eqs = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id'])
        .where('kind', '=', 'equity')
        .where('list_date', '<', 20240101)
        .where('delist_date', 'is', null)
        .orderBy('inst')
        .limit(2)
        .execute();
      const lastDay = (t: 'bars_1d' | 'bars_1m') =>
        h.store.db
          .selectFrom(t)
          .select((eb) => eb.fn.max('date').as('d'))
          .executeTakeFirstOrThrow()
          .then((r) => r.d as number);
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
        const rows = await h.store.db
          .selectFrom('bars_1d')
          .selectAll()
          .where('inst', '=', e.inst)
          .where('date', '>=', 20250601)
          .where('date', '<=', 20250630)
          .execute();
        expect(rows.length).toBeGreaterThan(0);
        for (const b of rows) {
          const close = b.close === b.low ? b.high : b.low;
          lines.push(
            `${e.id},${formatDate(b.date)},${px(b.open)},${px(b.high)},${px(b.low)},${px(close)},${b.volume},${formatScaled(b.amount, 2, 2)}`,
          );
        }
        lines.push(`${e.id},${formatDate(next)},10.00,10.50,9.90,10.20,123400,1258680.00`);
      }
      writeFileSync(join(dir, 'bars_1d.csv'), lines.join('\n') + '\n');
      await writeMinuteBars(
        join(dir, 'bars_1m.csv'),
        eqs.map((e) => e.id),
        [lastMinuteDay, next],
      );
      const r = await ingestBars(h.store, dir);
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

    it.skipIf(store.name === 'sqlite')(
      'stay whole when two transactions write bars of the same packs at once (PostgreSQL; SQLite has one writer)',
      async () => {
        const { eqs } = await setting();
        const target = { table: 'bars_1d' as const, columns: ['inst', 'date', ...BAR.split(', ')], key: ['inst', 'date'] };
        // Both transactions write their bars, then both merge into the same (new) packs at commit.
        let arrived = 0;
        let release!: () => void;
        const gate = new Promise<void>((r) => {
          release = r;
        });
        const write = (date: number) =>
          h.store.bulkTransaction(async (s) => {
            await s.upsert(
              target,
              eqs.map((e) => [e.inst, date, 10_000, 10_500, 9_900, 10_200, 123_400, 125_868_000]),
            );
            if (++arrived === 2) release();
            await gate;
          });
        await Promise.all([write(20251201), write(20251202)]);
        expect((await checkBarPacks(h.store)).problems).toEqual([]);
        const days = await new MarketDataReader(h.store).dailyBars(eqs[0].inst, 20251201, 20251231, null, 10);
        expect(days.map((b) => b.date)).toEqual([20251201, 20251202]);
      },
    );

    it('are unchanged by an ingest that is rolled back', async () => {
      const { eqs, next } = await setting();
      const before = await allPacks(h.store);
      const dir = tmp();
      const after = nextTradingDay(next)!;
      // New daily bars (written first, in the transaction), new 1m bars and, last, one bad 1m
      // row: the whole command rolls back.
      writeFileSync(
        join(dir, 'bars_1d.csv'),
        [DAILY_HEADER, ...eqs.map((e) => `${e.id},${formatDate(after)},10.00,10.50,9.90,10.20,123400,1258680.00`)].join('\n') + '\n',
      );
      await writeMinuteBars(
        join(dir, 'bars_1m.csv'),
        eqs.map((e) => e.id),
        [after],
      );
      appendFileSync(join(dir, 'bars_1m.csv'), `${eqs[0].id},${formatDate(after)}T09:31:00+08:00,10.00,10.50,9.90,10.2345,100,1000.00\n`);
      const r = await ingestBars(h.store, dir);
      expect(r.errors).toEqual([expect.stringContaining('10.2345')]);
      expect(r.files.map((f) => f.rows)).toEqual([2, 483]);
      expect(await allPacks(h.store)).toEqual(before);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });
  });

  // Stores whose transactions merge packs only at the commit (the default limits), and every few
  // records (early merges: a later merge of a pack merges into what an earlier one wrote).
  for (const [what, limits] of [
    ['merged at the commit', undefined],
    ['merged every 40 records', { packs: 3, records: 40 }],
  ] as const) {
    describe(`bar packs ${what} (${store.name})`, () => {
      let s: Store;
      let url: string;
      beforeAll(async () => {
        url = await store.url();
        s = withBarPacks(url.startsWith('postgres') ? openPostgres(url) : openSqlite(url), limits as PendingLimits | undefined);
        await migrate(s);
        await generateDemo(s, SMALL_DEMO);
      });
      afterAll(async () => {
        await s?.close();
        if (url?.startsWith('postgres')) await dropPostgres(url);
      });

      const equities = () =>
        s.db
          .selectFrom('instruments')
          .select(['inst', 'id'])
          .where('kind', '=', 'equity')
          .where('list_date', '<', 20240101)
          .where('delist_date', 'is', null)
          .orderBy('inst')
          .limit(2)
          .execute();
      const lastDay = (t: 'bars_1d' | 'bars_1m') =>
        s.db
          .selectFrom(t)
          .select((eb) => eb.fn.max('date').as('d'))
          .executeTakeFirstOrThrow()
          .then((r) => r.d as number);
      const pack = async (t: 'bars_1d_packs' | 'bars_1m_packs', inst: number, key: number) => {
        const [r] = await s.selectRows(`select n, data from ${t} where inst = ? and ${t === 'bars_1d_packs' ? 'month' : 'date'} = ?`, [
          inst,
          key,
        ]);
        return r ? decodePack(r[1] as Uint8Array, r[0] as number) : null;
      };
      const MINUTES = [570, ...Array.from({ length: 120 }, (_, i) => 571 + i), ...Array.from({ length: 120 }, (_, i) => 781 + i)];
      /** A valid bar of price `p` (in 1/1000 CNY) as the fields after the key, and as stored. */
      const bar = (p: number, v: number) => ({
        text: `${px(p)},${px(p + 20)},${px(p - 20)},${px(p + 10)},${v},${formatScaled(p * v, 2, 2)}`,
        stored: [p, p + 20, p - 20, p + 10, v, p * v],
      });

      it('follow one ingest that writes the same packs again and again, keys overlapping across batches: the last row of a key wins', async () => {
        const eqs = await equities();
        const [lastMinuteDay, lastDaily] = [await lastDay('bars_1m'), await lastDay('bars_1d')];
        const next = nextTradingDay(lastDaily)!;
        const month = Math.floor(lastDaily / 100);
        const days = (
          await s.db
            .selectFrom('bars_1d')
            .select('date')
            .where('inst', '=', eqs[0].inst)
            .where('date', '>=', month * 100)
            .where('date', '<=', month * 100 + 99)
            .orderBy('date')
            .execute()
        ).map((r) => r.date);
        expect(days.length).toBeGreaterThan(5);
        // Rounds of rows over a new 1m day (`next`), a stored one and a stored month of daily
        // bars; each round overlaps the keys of earlier ones, some in descending order, and the
        // last round writes one key twice. Instruments alternate, so a pack comes back after others.
        const minuteRounds = [
          { day: next, minutes: MINUTES },
          { day: next, minutes: MINUTES.filter((_, i) => i % 2 === 0).reverse() },
          { day: lastMinuteDay, minutes: MINUTES.slice(100, 141).reverse() },
          { day: next, minutes: MINUTES.slice(0, 61) },
          { day: lastMinuteDay, minutes: MINUTES.slice(120, 131) },
          { day: next, minutes: [...MINUTES.slice(50, 71), MINUTES[0], MINUTES[240], MINUTES[0]] },
          { day: lastMinuteDay, minutes: [MINUTES[240], MINUTES[0], MINUTES[240]] },
        ];
        const dailyRounds = [days, [...days].reverse().filter((_, i) => i % 2 === 0), days.slice(0, 3), [days[1], next, days[1]]];
        const want = new Map<string, number[]>();
        const m = [DAILY_HEADER.replace('trade_date', 'timestamp')],
          d = [DAILY_HEADER];
        let n = 0;
        for (let r = 0; r < minuteRounds.length; r++) {
          for (const e of eqs) {
            for (const min of minuteRounds[r].minutes) {
              const ts = marketEpoch(minuteRounds[r].day, min),
                b = bar(10_000 + 10 * (n++ % 300), 100 * (r + 1));
              m.push(`${e.id},${formatTimestamp(ts)},${b.text}`);
              want.set(`1m ${e.inst} ${ts}`, b.stored);
            }
            for (const day of dailyRounds[r] ?? []) {
              const b = bar(20_000 + 10 * (n++ % 300), 1000 * (r + 1));
              d.push(`${e.id},${formatDate(day)},${b.text}`);
              want.set(`1d ${e.inst} ${day}`, b.stored);
            }
          }
        }
        const dir = barFiles(d, m);
        const r = await ingestBars(s, dir, { batchSize: 7 });
        expect(r.errors).toEqual([]);
        expect(r.datasets.map((x) => x.inserted > 0 && x.updated > 0)).toEqual([true, true]);

        // The base rows hold the last row of each key, and the packs hold the base rows.
        for (const e of eqs) {
          const daily = await s.select<any>(`select date, ${BAR} from bars_1d where inst = ? and date >= ? and date <= ?`, [
            e.inst,
            month * 100,
            next,
          ]);
          for (const b of daily)
            expect([b.open, b.high, b.low, b.close, b.volume, b.amount], `1d ${e.inst} ${b.date}`).toEqual(
              want.get(`1d ${e.inst} ${b.date}`),
            );
          const minute = await s.select<any>(`select ts, ${BAR} from bars_1m where inst = ? and date in (?, ?)`, [
            e.inst,
            next,
            lastMinuteDay,
          ]);
          expect(minute).toHaveLength(2 * 241);
          for (const b of minute) {
            const w = want.get(`1m ${e.inst} ${b.ts}`);
            if (w) expect([b.open, b.high, b.low, b.close, b.volume, b.amount], `1m ${e.inst} ${b.ts}`).toEqual(w);
          }
          expect((await pack('bars_1m_packs', e.inst, next))!.map((x) => x[0])).toEqual(MINUTES.map((x) => marketEpoch(next, x)));
        }
        expect((await checkBarPacks(s)).problems).toEqual([]);
        const reader = new MarketDataReader(s);
        const [lo, hi] = [marketEpoch(lastMinuteDay, 0), marketEpoch(next, 1440)];
        for (const e of eqs) {
          expect(await reader.minuteBars(e.inst, lo, hi, null, 1000)).toEqual(await baseMinute(s, e.inst, lo, hi, 1000));
          expect(await reader.dailyBars(e.inst, month * 100, next, null, 101)).toEqual(await baseDaily(s, e.inst, month * 100, next, 101));
        }
      });

      it('follow an ingest that updates and inserts bars inside stored packs: merged with the stored records', async () => {
        const [e] = await equities();
        // A day without 1m bars in the demo gets four, by bulkInsert (a pack of four records).
        const day = tradingDaysBetween(20250602, 20250630)[3];
        expect(await pack('bars_1m_packs', e.inst, day)).toBeNull();
        const stored = [570, 600, 690, 800].map((min, i) => [marketEpoch(day, min), ...bar(30_000 + 100 * i, 500).stored]);
        await s.bulkInsert(
          'bars_1m',
          ['inst', 'ts', 'date', ...BAR.split(', ')],
          stored.map(([ts, ...v]) => [e.inst, ts, day, ...v]),
        );
        expect(await pack('bars_1m_packs', e.inst, day)).toEqual(stored);
        const monthBefore = (await pack('bars_1d_packs', e.inst, 202507))!;
        expect(monthBefore.length).toBeGreaterThan(10);

        // 1m: one equal (unchanged), one changed, new ones before, between and after the stored
        // records; daily: two bars in the middle of a stored month change.
        const m = [DAILY_HEADER.replace('trade_date', 'timestamp')];
        const minute = (min: number, p: number) => {
          const b = bar(p, 700);
          m.push(`${e.id},${formatTimestamp(marketEpoch(day, min))},${b.text}`);
          return [marketEpoch(day, min), ...b.stored];
        };
        m.push(`${e.id},${formatTimestamp(stored[0][0])},${bar(30_000, 500).text}`);
        const added = [minute(571, 31_000), minute(600, 32_000), minute(601, 33_000), minute(900, 34_000)];
        const d = [DAILY_HEADER];
        const changed = [5, 9].map((i) => {
          const [date, ...v] = monthBefore[i];
          const b = bar(v[0] + 1000, v[4]);
          d.push(`${e.id},${formatDate(date)},${b.text}`);
          return [date, ...b.stored];
        });
        const dir = barFiles(d, m);
        const r = await ingestBars(s, dir, { batchSize: 2 });
        expect(r.errors).toEqual([]);
        expect(r.datasets.map(({ inserted, updated, unchanged }) => [inserted, updated, unchanged])).toEqual([
          [0, 2, 0],
          [3, 1, 1],
        ]);

        expect(await pack('bars_1m_packs', e.inst, day)).toEqual([stored[0], added[0], added[1], added[2], stored[2], stored[3], added[3]]);
        expect(await pack('bars_1d_packs', e.inst, 202507)).toEqual(
          monthBefore.map((x, i) => (i === 5 ? changed[0] : i === 9 ? changed[1] : x)),
        );
        expect((await checkBarPacks(s)).problems).toEqual([]);
        const reader = new MarketDataReader(s);
        const [lo, hi] = [marketEpoch(day, 0), marketEpoch(day, 1440)];
        expect(await reader.minuteBars(e.inst, lo, hi, null, 1000)).toEqual(await baseMinute(s, e.inst, lo, hi, 1000));
        expect(await reader.dailyBars(e.inst, 20250701, 20250731, null, 101)).toEqual(await baseDaily(s, e.inst, 20250701, 20250731, 101));
      });
    });
  }

  describe(`the packed bar reader (${store.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(await store.url(), null);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('reads across suspensions longer than its first pack read, as the base tables do', async () => {
      // Daily: one bar a month for two years (24 packs of one bar, more than the 8 packs read
      // first for 101 bars), a year suspended, then every trading day; written in two calls
      // that split a month.
      const every = tradingDaysBetween(20250301, 20251231);
      const sparse = tradingDaysBetween(20220101, 20231231).filter(
        (d, i, a) => i === 0 || Math.floor(a[i - 1] / 100) !== Math.floor(d / 100),
      );
      const days = [...sparse, ...every];
      const bar = (d: number, i: number) => [1, d, 10_000 + i, 10_100 + i, 9_900 + i, 10_050 + i, 2 ** 33 + i, 2 ** 45 + i];
      const rows = days.map(bar);
      const cut = sparse.length + 30;
      expect(Math.floor(days[cut - 1] / 100)).toBe(Math.floor(days[cut] / 100));
      const cols = ['inst', 'date', ...BAR.split(', ')];
      await instrumentOne(h.store);
      await h.store.bulkInsert('bars_1d', cols, rows.slice(0, cut));
      await h.store.bulkInsert('bars_1d', cols, rows.slice(cut));
      // 1m: ten days with one bar (the opening auction), then three whole days.
      const mdays = tradingDaysBetween(20250701, 20250731);
      const minutes = [570, ...Array.from({ length: 120 }, (_, i) => 571 + i), ...Array.from({ length: 120 }, (_, i) => 781 + i)];
      const mrows = mdays.flatMap((d, k) =>
        (k < 10 ? [570] : k < 13 ? minutes : []).map((m, i) => [
          1,
          marketEpoch(d, m),
          d,
          5_000 + i,
          5_010 + i,
          4_990 + i,
          5_000 + i,
          100 * i,
          2 ** 40 + i,
        ]),
      );
      await h.store.bulkInsert('bars_1m', ['inst', 'ts', 'date', ...BAR.split(', ')], mrows);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);

      const reader = new MarketDataReader(h.store);
      const daily: [number, number, number | null, number][] = [
        [20220101, 20261231, null, 101],
        [20220101, 20261231, null, 1000],
        [20220101, 20251231, 20231115, 5],
        [20230615, 20250320, null, 101],
        [20230615, 20250320, 20250303, 101],
        [20240101, 20250228, null, 101],
        [20250310, 20250310, null, 1],
        [20250311, 20250310, null, 10],
        [10101, 99991231, null, 1e9],
      ];
      for (const [from, to, after, limit] of daily) {
        const lo = after !== null && after >= from ? after + 1 : from;
        expect(await reader.dailyBars(1, from, to, after, limit), `${from}..${to} after ${after}`).toEqual(
          await baseDaily(h.store, 1, lo, to, limit),
        );
      }
      expect(await reader.dailyBars(1, 20220101, 20261231, null, 101)).toHaveLength(101);
      const t0 = marketEpoch(mdays[0], 0),
        t1 = marketEpoch(mdays[12], 900);
      const minute: [number, number, number | null, number][] = [
        [t0, t1, null, 300],
        [t0, t1, null, 241],
        [t0, t1, marketEpoch(mdays[3], 570), 12],
        [t0 + 1, t1 - 60, null, 1000],
        [marketEpoch(mdays[11], 600), marketEpoch(mdays[11], 601), null, 100],
        [-62135596800, 253402300799, null, 1e9],
      ];
      for (const [from, to, after, limit] of minute) {
        const lo = after !== null && after >= from ? after + 1 : from;
        expect(await reader.minuteBars(1, from, to, after, limit), `${from}..${to} after ${after}`).toEqual(
          await baseMinute(h.store, 1, lo, to, limit),
        );
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
        // Today's demo writes the instrument columns of 0012, 0013 and 0026: there while it writes,
        // gone after (as before them), so that those migrations add them again.
        const later = ['listing_kind', 'list_date_source', 'pinyin_initials'];
        for (const c of later) await sql.raw(`alter table instruments add column ${c} text`).execute(old.db);
        // And the tables of 0018..0020 (margin trading, suspensions, share capital) and 0029 (index weights) alike.
        for (const m of [m0018, m0019, m0020, m0029]) await m.up(old.db, old.dialect);
        await generateDemo(old, SMALL_DEMO);
        for (const c of later) await sql.raw(`alter table instruments drop column ${c}`).execute(old.db);
        for (const t of ['margin_trading', 'suspensions', 'share_capital', 'index_weights'])
          await sql.raw(`drop table ${t}`).execute(old.db);
        // More 1m bars than one backfill batch (10,000).
        const n = await old.db
          .selectFrom('bars_1m')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(n.n)).toBeGreaterThan(10_000);
        expect((await migrate(old)).applied).toEqual([
          '0003_bar_packs',
          '0004_bar_pages',
          '0005_indicator_states',
          '0006_text_bar_pages',
          '0007_indicator_pages',
          '0008_markets_calendar',
          '0009_adj_factors',
          '0010_derived_daily_bars',
          '0011_key_rate_limits',
          '0012_listing_kind',
          '0013_list_date_source',
          '0014_market_days',
          '0015_drop_bar_pages',
          '0016_bar_keys',
          '0017_data_versions',
          '0018_margin_trading',
          '0019_suspensions',
          '0020_share_capital',
          '0021_version_notify',
          '0022_statement_versions',
          '0026_pinyin_initials',
          '0027_tdx_files',
          '0028_minute_partitions',
          '0029_index_weights',
        ]);
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
    await instrumentOne(s);
    await s.bulkInsert('bars_1d', ['inst', 'date', ...BAR.split(', ')], [[1, 20250102, 1, 1, 1, 1, 1, 1]]);
    expect((await checkBarPacks(s)).packs).toBe(1);
    await expect(
      s.bulkInsert('bars_1m', ['inst', 'ts', ...BAR.split(', ')], [[1, marketEpoch(20250102, 600), 1, 1, 1, 1, 1, 1]]),
    ).rejects.toThrow(/inst and date/);
    // Bars that a pack cannot copy exactly (not integers) are refused before anything is written.
    const cols = ['inst', 'date', ...BAR.split(', ')];
    await expect(
      s.bulkInsert('bars_1d', cols, [
        [1, 20250103, 1, 1, 1, 1, 1, 1],
        [1, 20250106, 1, 1.5, 1, 1, 1, 1],
      ]),
    ).rejects.toThrow(/integers/);
    await expect(s.bulkInsert('bars_1d', cols, [[1, 20250103, 1, 1, 1, 1, 1, 2 ** 53]])).rejects.toThrow(/integers/);
    expect(await s.selectRows('select count(*) from bars_1d', [])).toEqual([[1]]);
    expect((await checkBarPacks(s)).problems).toEqual([]);
    await s.close();
  });
});
