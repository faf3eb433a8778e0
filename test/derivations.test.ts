/**
 * The registry of derivations (src/derived/registry.ts): each version is the hash of what the
 * code makes of the fixture, so a different writer gives a different version by itself; and a
 * store whose stored version is not the code's is rebuilt by `migrate`, which says why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfiguredStore } from '../src/app/bootstrap.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';
import { versionOf } from '../src/derived/derivation.js';
import { FIXTURE, MINUTE_FIXTURE } from '../src/derived/fixture.js';
import { marketEpoch } from '../src/lib/time.js';
import { storedAmount } from '../src/store/schema.js';
import { INDICATOR_PAGES, indicatorPagesOutput, renderIndicatorPages, setPrecomputed } from '../src/derived/indicator-pages.js';
import { foldPack, INDICATOR_STATES, indicatorStatesOutput } from '../src/derived/indicator-states.js';
import { describeMigration, migrate, openStore } from '../src/derived/open.js';
import { DERIVATIONS } from '../src/derived/registry.js';
import { DERIVED_DAILY, derivedDailyOutput } from '../src/derived/derived-daily-rebuild.js';
import { MARKET_DAYS, marketDaysOutput } from '../src/derived/market-days.js';
import { DAY_FLAGS, decodeDay } from '../src/store/day-records.js';
import { derivedRow, MARKS } from '../src/derived/derived-daily.js';
import { INDICATOR_IDS, INDICATORS, seriesFromBars } from '../src/indicators/registry.js';
import type { Bar } from '../src/market/types.js';
import { decodeBars, RECORD_BYTES } from '../src/store/packs.js';
import { fixtureStore } from './fixture-store.js';
import { MIGRATION_NAMES } from '../src/store/migrate.js';

describe('derivation versions', () => {
  it("are the hash of the code's output over the fixture, one for each derivation", () => {
    expect(DERIVATIONS.map((d) => d.name)).toEqual(['derived_daily', 'indicator_states', 'indicator_pages', 'market_days']);
    expect(DERIVED_DAILY.version()).toBe(versionOf(derivedDailyOutput()));
    expect(INDICATOR_STATES.version()).toBe(versionOf(indicatorStatesOutput()));
    expect(INDICATOR_PAGES.version()).toBe(versionOf(indicatorPagesOutput()));
    expect(MARKET_DAYS.version()).toBe(versionOf(marketDaysOutput()));
    for (const d of DERIVATIONS) expect(d.version()).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(DERIVATIONS.map((d) => d.version())).size).toBe(4);
  });

  it('change when 1m bars derive another daily bar: an unknown amount summed as 0', () => {
    const known: typeof derivedRow = (inst, date, minutes, columns) =>
      derivedRow(
        inst,
        date,
        minutes.map((b) => ({ ...b, amount: b.amount ?? 0 })),
        columns,
      );
    expect(derivedDailyOutput(known)).not.toBe(derivedDailyOutput());
    expect(versionOf(derivedDailyOutput(known))).not.toBe(DERIVED_DAILY.version());
  });

  it("change with the market days' rules: the fixture holds a case of each", () => {
    // Each line: market, date, breadth, the day's records (store/day-records.ts).
    const records = marketDaysOutput()
      .split('\n')
      .flatMap((l) => {
        const [market, date, , data] = l.split(' ');
        const day = decodeDay(Buffer.from(data, 'base64'));
        return Array.from({ length: day.n }, (_, i) => ({ market, date: Number(date), ...day.record(i) }));
      });
    const of = (inst: number) => records.filter((r) => r.inst === inst && r.preClose !== null && r.up !== null);
    // A BSE day whose limits half-up would round otherwise (truncated toward the previous close).
    expect(of(12).filter((r) => r.market === 'BJ' && r.up !== Math.round((r.preClose! * 1.3) / 10) * 10).length).toBeGreaterThan(0);
    // S佳通 at 5%, with closes beyond its limit that are not the day's extreme, in no limit pool.
    expect(of(11).every((r) => r.up === Math.round((r.preClose! * 1.05) / 10) * 10)).toBe(true);
    const beyond = of(11).filter((r) => r.close < r.down! && r.close !== r.low);
    expect(beyond.length).toBeGreaterThan(0);
    expect(beyond.every((r) => !(r.flags & DAY_FLAGS.limitDown))).toBe(true);
    // S前锋 at 5% until its first close beyond that within 10%, at 10% from that day on.
    const reform = of(14).findIndex((r) => r.up !== Math.round((r.preClose! * 1.05) / 10) * 10);
    expect(reform).toBeGreaterThan(0);
    const end = of(14)[reform];
    expect(end.close > Math.round((end.preClose! * 1.05) / 10) * 10 || end.close < Math.round((end.preClose! * 0.95) / 10) * 10).toBe(true);
    expect(
      of(14)
        .slice(reform)
        .every((r) => r.up === Math.round((r.preClose! * 1.1) / 10) * 10),
    ).toBe(true);
    // An equity whose bars end a month early, suspended to the last day by an open suspension.
    const suspended = records.filter((r) => r.inst === 13 && !(r.flags & DAY_FLAGS.bar));
    expect(suspended.length).toBe(20);
    expect(suspended.every((r) => r.flags & DAY_FLAGS.equity)).toBe(true);
  });

  it('change when a stream folds differently', () => {
    const dropLast = (states: Record<string, unknown>, data: Uint8Array, n: number) =>
      foldPack(states, data.subarray(0, (n - 1) * RECORD_BYTES), n - 1);
    expect(versionOf(indicatorStatesOutput(dropLast))).not.toBe(INDICATOR_STATES.version());
  });

  it('change when any one indicator renders differently, each giving values over the fixture', () => {
    for (const id of INDICATOR_IDS) {
      const other: typeof renderIndicatorPages = (inst, meta, packs, ids, from, r, writers) =>
        renderIndicatorPages(inst, meta, packs, ids, from, r, writers).map((row) =>
          row[1] === id ? [...row.slice(0, 3), `${String(row[3])} `] : row,
        );
      expect(versionOf(indicatorPagesOutput(other)), id).not.toBe(INDICATOR_PAGES.version());
      // The fixture is long enough for every value of every indicator.
      const bars: Bar[] = [];
      for (const [, n, data] of FIXTURE[0].packs) decodeBars(bars, data, n, null, -Infinity, Infinity, Infinity);
      const last = INDICATORS[id].compute(seriesFromBars(bars)).at(-1)!;
      expect(Object.values(last).every(Number.isFinite), id).toBe(true);
    }
  });
});

describe('migrate', () => {
  it('records the versions on a new store without calling it a rebuild', async () => {
    const store = await fixtureStore(':memory:');
    try {
      const meta = await store.selectRows(
        'select key, value from meta where key in (?, ?, ?, ?) order by key',
        DERIVATIONS.map((d) => d.name),
      );
      expect(meta).toEqual([
        ['derived_daily', DERIVED_DAILY.version()],
        ['indicator_pages', `${INDICATOR_PAGES.version()}:`],
        ['indicator_states', INDICATOR_STATES.version()],
        ['market_days', MARKET_DAYS.version()],
      ]);
      expect(await migrate(store)).toEqual({ applied: [], rebuilt: [] });
    } finally {
      await store.close();
    }
  });

  it("rebuilds a derivation whose stored version is not the code's, and says why", async () => {
    const store = await fixtureStore(':memory:');
    try {
      await setPrecomputed(store, ['macd', 'kdj']);
      // The hand-kept versions of before the registry.
      await store.bulkTransaction(async (s) => {
        await s.query("update meta set value = '1' where key = 'indicator_states'");
        await s.query("update meta set value = '1:macd,kdj' where key = 'indicator_pages'");
      });
      expect((await checkBarPacks(store)).problems).toContain(
        `indicator_states: stored version 1, code version ${INDICATOR_STATES.version()} (mds migrate rebuilds it)`,
      );
      const report = await migrate(store);
      // States of 3 instruments × 4 months of packs; pages of 2 indicators of each of them (equity, index, fund).
      expect(report.rebuilt.map(({ seconds: _seconds, ...r }) => r)).toEqual([
        { name: 'indicator_states', stored: '1', version: INDICATOR_STATES.version(), count: 12, unit: 'packs' },
        { name: 'indicator_pages', stored: '1', version: INDICATOR_PAGES.version(), count: 24, unit: 'pages' },
      ]);
      expect(describeMigration(report).map((l) => l.replace(/in \d+\.\d s$/, 'in T'))).toEqual([
        `schema up to date (${MIGRATION_NAMES.length} migrations)`,
        `indicator_states: stored version 1, code version ${INDICATOR_STATES.version()}: rebuilt 12 packs in T`,
        `indicator_pages: stored version 1, code version ${INDICATOR_PAGES.version()}: rebuilt 24 pages in T`,
      ]);
      const check = await checkBarPacks(store);
      expect(check.problems).toEqual([]);
      expect(Object.values(check.derived).map((d) => d.compared)).toEqual([0, 12, 24, check.derived.market_days.compared]);
      expect(check.derived.market_days.compared).toBeGreaterThan(0);
      expect(await store.selectRows("select value from meta where key = 'indicator_pages'", [])).toEqual([
        [`${INDICATOR_PAGES.version()}:macd,kdj`],
      ]);
      expect((await migrate(store)).rebuilt).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("derives a marked daily bar again from its 1m bars when the derivation's version changed", async () => {
    const store = await fixtureStore(':memory:');
    try {
      const cols = ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'];
      const [minutes] = MINUTE_FIXTURE,
        date = 20250502,
        day = minutes.map((b) => ({ ...b, ts: b.ts + (marketEpoch(date, 0) - marketEpoch(b.date, 0)), date }));
      await store.bulkInsert(
        'bars_1m',
        ['inst', 'ts', 'date', ...cols.slice(2)],
        day.map((b) => [1, b.ts, date, b.open, b.high, b.low, b.close, b.volume, storedAmount(b.amount)]),
      );
      // A daily bar marked derived that its minutes do not give (as an older derivation would have left it).
      await store.bulkTransaction(async (s) => {
        await s.upsert({ table: 'bars_1d', columns: cols, key: ['inst', 'date'] }, [[1, date, 1, 1, 1, 1, 1, 1]]);
        await s.upsert(MARKS, [[1, date]]);
        await s.query("update meta set value = '0' where key = 'derived_daily'");
      });
      expect((await checkBarPacks(store)).problems).toEqual([
        `derived_daily: stored version 0, code version ${DERIVED_DAILY.version()} (mds migrate rebuilds it)`,
        `bars_1d 1/${date}: differs from its 1m bars`,
      ]);
      const report = await migrate(store);
      expect(report.rebuilt.map(({ seconds: _seconds, ...r }) => r)).toEqual([
        { name: 'derived_daily', stored: '0', version: DERIVED_DAILY.version(), count: 1, unit: 'days' },
      ]);
      expect(
        await store.selectRows('select inst, date, open, high, low, close, volume, amount from bars_1d where date = ?', [date]),
      ).toEqual([derivedRow(1, date, day, cols)]);
      const check = await checkBarPacks(store);
      expect(check.problems).toEqual([]);
      expect(check.derived.derived_daily.compared).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('is logged at start-up, a line per derivation rebuilt, and not at all when none is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-derivations-'));
    const file = join(dir, 'store.sqlite');
    try {
      await (await fixtureStore(file)).close();
      const start = async () => {
        const lines: string[] = [];
        await (await openConfiguredStore(file, null, (m) => lines.push(m))).store.close();
        return lines.map((l) => l.replace(/in \d+\.\d s$/, 'in T'));
      };
      expect(await start()).toEqual([]);
      const raw = openStore(file);
      await raw.bulkTransaction((s) => s.query("update meta set value = '1' where key = 'indicator_states'"));
      await raw.close();
      expect(await start()).toEqual([
        `indicator_states: stored version 1, code version ${INDICATOR_STATES.version()}: rebuilt 12 packs in T`,
      ]);
      expect(await start()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
