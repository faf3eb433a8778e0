import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSnapshot, harness, STORES, type Harness } from './helpers.js';
import { migrate } from '../src/derived/open.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { INDICATOR_STATES, quarterStart, RECURSIVE, stateOf } from '../src/derived/indicator-states.js';
import { MarketDataReader } from '../src/store/readers/market-data.js';
import { readBars } from '../src/query/bars.js';
import { INDICATORS, seriesFromBars, type IndicatorId } from '../src/indicators/registry.js';

const ALL = { fromMs: -8.64e15, toMs: 8.64e15 };
const BAR_COLUMNS = ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'];

for (const store of STORES) {
  describe(`indicator states (${store.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(await store.url());
    });
    afterAll(async () => {
      await h?.close();
    });

    /**
     * For instrument `inst`, every indicator's page at random starts against computing it over
     * the whole unadjusted daily series; returns the largest heads (bars read before a page;
     * past the lookback for an indicator of finite lookback), of recursive and other indicators.
     */
    const compare = (inst: { inst: number; id: string; kind: string }, ids: IndicatorId[], seed: number) =>
      withSnapshot(h, async ({ analytics, catalog }) => {
        const row = catalog.get(inst.id)!;
        const all = await readBars(new MarketDataReader(h.store), inst.inst, '1d', ALL, null, 1_000_000);
        expect(all.length).toBeGreaterThan(150);
        const maxHead = { recursive: 0, finite: 0 };
        for (const id of ids) {
          const whole = INDICATORS[id].compute(seriesFromBars(all));
          for (let k = 0; k < 8; k++) {
            seed = (seed * 48271) % 2147483647;
            const i = seed % (all.length - 5);
            const adj = await analytics.adjuster(row, 'none', null);
            const r = await analytics.indicatorPage(row, '1d', adj, id, all[i].ts, all[all.length - 1].ts, 5);
            const got = r.bars.slice(r.start, r.start + 5).map((b, j) => [b.date, r.values[r.start + j]]);
            expect(got, `${inst.id} ${id} from ${all[i].date}`).toEqual(all.slice(i, i + 5).map((b, j) => [b.date, whole[i + j]]));
            if (INDICATORS[id].stream) maxHead.recursive = Math.max(maxHead.recursive, r.start);
            else maxHead.finite = Math.max(maxHead.finite, r.start - INDICATORS[id].lookback);
          }
        }
        return maxHead;
      });

    it("resume each recursive indicator with the values of the fold from the first bar, reading only the page's quarter before it", async () => {
      const insts = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id', 'kind'])
        .where('kind', 'in', ['equity', 'index'])
        .orderBy('inst')
        .execute();
      for (const [n, inst] of [insts[0], insts[3], insts.find((i) => i.kind === 'index')!].entries()) {
        const head = await compare(inst, [...RECURSIVE, 'ma', 'dmi', 'boll'], 11 + n);
        // A quarter holds at most 66 trading days: the head of a recursive page lies within the
        // page's quarter; a page of finite lookback reads its lookback and at most a few months more.
        expect(head.recursive, inst.id).toBeLessThan(66);
        expect(head.finite, inst.id).toBeLessThanOrEqual(23 * 5);
      }
      expect(RECURSIVE).toEqual(['ema', 'macd', 'kdj', 'rsi', 'obv']);
    });

    it("give each indicator's state as parsing the whole column does (stateOf)", async () => {
      const rows = await h.store.selectRows('select states from bars_1d_packs where states is not null order by inst, month limit 250', []);
      expect(rows.length).toBe(250);
      for (const [states] of rows as [string][]) {
        for (const id of RECURSIVE) expect(stateOf(states, id), id).toEqual(JSON.parse(states)[id]);
      }
      // A state holding an object, or an id not at the top level, takes the full parse.
      const odd = JSON.stringify({ kdj: { k: 1, x: { macd: 2 } }, macd: { e12: 3, dea: 4 } });
      expect(stateOf(odd, 'kdj')).toEqual({ k: 1, x: { macd: 2 } });
      expect(stateOf(odd, 'macd')).toEqual({ e12: 3, dea: 4 });
      expect(stateOf(odd, 'ema')).toBeUndefined();
    });

    it('are folded again from the month written when an ingest rewrites bars in the middle of the history', async () => {
      const eq = await h.store.db
        .selectFrom('instruments')
        .select(['inst', 'id', 'kind'])
        .where('kind', '=', 'equity')
        .where('list_date', '<', 20240101)
        .where('delist_date', 'is', null)
        .orderBy('inst', 'desc')
        .executeTakeFirstOrThrow();
      const month = await h.store.db
        .selectFrom('bars_1d')
        .select('date')
        .where('inst', '=', eq.inst)
        .orderBy('date')
        .offset(60)
        .limit(1)
        .executeTakeFirstOrThrow()
        .then((r) => Math.floor(r.date / 100));
      // The packs after it that keep states (the first of each quarter).
      const states = () =>
        h.store.selectRows('select month, states from bars_1d_packs where inst = ? and month > ? and states is not null order by month', [
          eq.inst,
          month,
        ]);
      const before = await states();
      expect(before.length).toBeGreaterThan(1);
      const all = await h.store.selectRows('select month from bars_1d_packs where inst = ? order by month', [eq.inst]);
      expect(before.map((r) => r[0])).toEqual(
        all.map((r) => Number(r[0])).filter((m, i, a) => m > month && (i === 0 || quarterStart(m) !== quarterStart(a[i - 1]))),
      );
      // Every close of one month moved to its low (or high).
      const rows = await h.store.db
        .selectFrom('bars_1d')
        .selectAll()
        .where('inst', '=', eq.inst)
        .where('date', '>=', month * 100)
        .where('date', '<=', month * 100 + 31)
        .execute();
      expect(rows.length).toBeGreaterThan(10);
      await h.store.bulkTransaction((s) =>
        s.upsert(
          { table: 'bars_1d', columns: BAR_COLUMNS, key: ['inst', 'date'] },
          rows.map((b) => [b.inst, b.date, b.open, b.high, b.low, b.close === b.low ? b.high : b.low, b.volume, b.amount]),
        ),
      );
      const after = await states();
      expect(after.map((r) => r[0])).toEqual(before.map((r) => r[0]));
      after.forEach((r, i) => expect(r[1], `month ${String(r[0])}`).not.toBe(before[i][1]));
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
      await compare(eq, ['macd', 'kdj'], 3);
    });

    it('move to the new first pack of a quarter when bars are written before the old one', async () => {
      // An instrument whose first pack is not its quarter's first month, and a bar written a month before it.
      const firsts = (await h.store.selectRows('select inst, min(month) from bars_1d_packs group by inst', [])) as [number, number][];
      const [inst, first] = firsts.map(([i, m]) => [Number(i), Number(m)]).find(([, m]) => quarterStart(m) !== m)!;
      const [bar] = await h.store.db.selectFrom('bars_1d').selectAll().where('inst', '=', inst).orderBy('date').limit(1).execute();
      const date = (first - 1) * 100 + 15;
      await h.store.bulkTransaction((s) =>
        s.upsert({ table: 'bars_1d', columns: BAR_COLUMNS, key: ['inst', 'date'] }, [
          [inst, date, bar.open, bar.high, bar.low, bar.close, bar.volume, bar.amount],
        ]),
      );
      const kept = await h.store.selectRows(
        'select month, states is not null from bars_1d_packs where inst = ? and month <= ? order by month',
        [inst, first],
      );
      expect(kept.map((r) => [Number(r[0]), Number(r[1])])).toEqual([
        [first - 1, 1],
        [first, 0],
      ]);
      expect((await checkBarPacks(h.store)).problems).toEqual([]);
    });

    it('are folded again when their stored version is stale, and a wrong or missing row is reported until then', async () => {
      const [inst, month, states] = (
        await h.store.selectRows(
          'select inst, month, states from bars_1d_packs where month > 202503 and states is not null order by inst, month limit 1',
          [],
        )
      )[0] as [number, number, string];
      const [last] = await h.store.selectRows(
        'select inst, month from bars_1d_packs where states is not null order by inst desc, month desc limit 1',
        [],
      );
      const [none] = await h.store.selectRows(
        'select inst, month from bars_1d_packs where states is null order by inst, month limit 1',
        [],
      );
      const wrong = JSON.stringify({ ...JSON.parse(states), macd: { e12: 1, e26: 2, dea: 3 } });
      await h.store.bulkTransaction(async (s) => {
        await s.query('update bars_1d_packs set states = ? where inst = ? and month = ?', [wrong, inst, month]);
        await s.query('update bars_1d_packs set states = null where inst = ? and month = ?', last);
        await s.query('update bars_1d_packs set states = ? where inst = ? and month = ?', [states, ...none]);
      });
      const problems = [
        `bars_1d_packs ${none[0]}/${none[1]}: indicator states in a pack that keeps none (its quarter's first is another)`,
        `bars_1d_packs ${inst}/${month}: indicator states differ from folding the packs`,
        `bars_1d_packs ${last[0]}/${last[1]}: no indicator states`,
      ].sort(
        (a, b) =>
          Number(a.split(' ')[1].split('/')[0]) - Number(b.split(' ')[1].split('/')[0]) ||
          Number(a.split('/')[1].split(':')[0]) - Number(b.split('/')[1].split(':')[0]),
      );
      expect((await checkBarPacks(h.store)).problems).toEqual(problems);
      await migrate(h.store);
      expect((await checkBarPacks(h.store)).problems).toEqual(problems);
      await h.store.bulkTransaction((s) => s.query("update meta set value = '0' where key = 'indicator_states'"));
      await migrate(h.store);
      const check = await checkBarPacks(h.store);
      expect(check.problems).toEqual([]);
      expect(check.derived.indicator_states.compared).toBe(
        Number((await h.store.selectRows('select count(*) from bars_1d_packs', []))[0][0]),
      );
      expect(await h.store.selectRows("select value from meta where key = 'indicator_states'", [])).toEqual([[INDICATOR_STATES.version()]]);
    });
  });
}
