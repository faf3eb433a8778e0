import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, STORES, withSnapshot, type Harness } from './helpers.js';
import type { Snapshot } from '../src/query/snapshot.js';
import { planBars, type BarAsk, type BarKey } from '../src/query/plan-bars.js';
import { planIndicator } from '../src/query/plan-indicator.js';
import type { PagePlan } from '../src/query/plan.js';
import { setPrecomputed } from '../src/derived/indicator-pages.js';
import { Renderer } from '../src/render/json-bytes.js';
import type { InstrumentRow } from '../src/store/catalog.js';
import type { AdjustmentId, IntervalId } from '../src/market/types.js';

/** Epoch seconds of a market-time (+08:00) date and time. */
const at = (date: string, time: string) => Date.parse(`${date}T${time}+08:00`) / 1000;
/** The instant window of whole market days `from`..`to`. */
const days = (from: string, to: string) => ({ fromMs: at(from, '00:00:00') * 1000, toMs: at(to, '23:59:59') * 1000 + 999 });

const renderer = new Renderer();

/** A page as the send path writes it: the records' JSON, parsed, and the cursor key of each. */
async function read(plan: PagePlan<BarKey>, after: BarKey | null, limit: number) {
  const page = await plan.fetch({ after, limit });
  const w = renderer.start();
  w.byte(91);
  page.records.write(w, page.records.keys.length);
  w.byte(93);
  const items = JSON.parse(w.take().toString('utf8')) as Record<string, any>[];
  return { items, keys: items.map((_, i) => page.key(i)) };
}

/** Items without their `adjustment` label (to compare paths that differ only in it). */
const unlabelled = (items: Record<string, any>[]) => items.map(({ adjustment: _, ...rest }) => rest);

describe.each(STORES)('planBars and planIndicator on $name', ({ url }) => {
  let h: Harness;
  /** An equity with corporate actions (its last ex-date `exDate`), one without, and an index. */
  let adjusted: InstrumentRow, plain: InstrumentRow, index: InstrumentRow;
  let exDate: number;
  beforeAll(async () => {
    h = await harness(await url());
    const all = await h.store.db
      .selectFrom('instruments')
      .select(['id', 'kind'])
      .where('kind', 'in', ['equity', 'index'])
      .orderBy('id')
      .execute();
    const [rows, factors] = await withSnapshot(h, async ({ catalog, analytics }) => {
      const rs = all.map((r) => catalog.get(r.id)!);
      return [rs, await Promise.all(rs.map(async (r) => (await analytics.factors(r)).factors))] as const;
    });
    const listedBefore = (r: InstrumentRow) => r.kind === 'equity' && (r.list_date ?? 0) < 20250101;
    adjusted = rows.find((r, i) => listedBefore(r) && factors[i].length === 1)!;
    plain = rows.find((r, i) => listedBefore(r) && factors[i].length === 0)!;
    index = rows.find((r) => r.kind === 'index')!;
    exDate = factors[rows.indexOf(adjusted)][0].ex_date;
  });
  afterAll(async () => {
    await h?.close();
  });
  /** What the plans read: a snapshot per test (opened again after a change), as a request's. */
  let snap: Snapshot;
  beforeEach(async () => {
    snap = await h.app.svc.openSnapshot();
  });
  afterEach(() => snap.release());
  const reopen = async () => {
    snap.release();
    snap = await h.app.svc.openSnapshot();
  };

  const bars = (
    inst: InstrumentRow,
    interval: IntervalId,
    adjustment: AdjustmentId | undefined,
    window = days('2025-03-03', '2025-03-07'),
  ) => planBars(snap, { inst, interval, adjustment, window });

  it('chooses the path by interval, adjustment and kind', () => {
    const cases: [InstrumentRow, IntervalId, AdjustmentId | undefined, string][] = [
      [adjusted, '1d', undefined, 'daily-packs none'],
      [adjusted, '1d', 'none', 'daily-packs none'],
      [adjusted, '1m', undefined, 'minute-packs none'],
      [adjusted, '1d', 'forward', 'adjusted-rows forward'],
      [adjusted, '1m', 'backward', 'adjusted-rows backward'],
      [adjusted, '5m', undefined, 'aggregated-rows none'],
      [adjusted, '60m', 'forward', 'aggregated-rows forward'],
      [adjusted, '1w', 'backward', 'aggregated-rows backward'],
      [adjusted, '1y', 'none', 'aggregated-rows none'],
      // Indices are never adjusted: the stored pages serve them whatever is asked.
      [index, '1d', 'forward', 'daily-packs none'],
      [index, '1m', 'backward', 'minute-packs none'],
      [index, '1mo', 'forward', 'aggregated-rows none'],
    ];
    expect(
      cases.map(([inst, interval, adjustment]) => {
        const plan = bars(inst, interval, adjustment);
        return `${plan.path} ${plan.adjustment}`;
      }),
    ).toEqual(cases.map((c) => c[3]));
  });

  it("daily pages: the stored bars of the window, keyed by their 15:00 close; a cursor's basis goes on", async () => {
    const { items, keys } = await read(bars(plain, '1d', 'none'), null, 10);
    expect(items.map((b) => b.trade_date)).toEqual(['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07']);
    expect(items.map((b) => [b.instrument_id, b.interval, b.adjustment, b.timestamp])).toEqual(
      items.map((b) => [plain.id, '1d', 'none', `${b.trade_date}T15:00:00+08:00`]),
    );
    expect(keys).toEqual(items.map((b) => [at(b.trade_date, '15:00:00'), 0]));
    // The same bars as rows, under an adjustment that changes nothing (no corporate actions).
    expect(unlabelled((await read(bars(plain, '1d', 'backward'), null, 10)).items)).toEqual(unlabelled(items));

    const next = await read(bars(plain, '1d', 'none'), [keys[1][0], 20240102], 2);
    expect(next.items.map((b) => b.trade_date)).toEqual(['2025-03-05', '2025-03-06']);
    expect(next.keys).toEqual([
      [at('2025-03-05', '15:00:00'), 20240102],
      [at('2025-03-06', '15:00:00'), 20240102],
    ]);
  });

  it("minute packs: a day's 241 bars, keyed by their end", async () => {
    const plan = bars(plain, '1m', undefined, days('2025-11-20', '2025-11-20'));
    const { items, keys } = await read(plan, null, 1000);
    expect(items).toHaveLength(241);
    expect([items[0].timestamp, items[240].timestamp]).toEqual(['2025-11-20T09:30:00+08:00', '2025-11-20T15:00:00+08:00']);
    expect([keys[0], keys[240]]).toEqual([
      [at('2025-11-20', '09:30:00'), 0],
      [at('2025-11-20', '15:00:00'), 0],
    ]);
    const rows = bars(plain, '1m', 'forward', days('2025-11-20', '2025-11-20'));
    expect(unlabelled((await read(rows, null, 1000)).items)).toEqual(unlabelled(items));
    // After the 11:30 bar (the 121st), the afternoon's first.
    expect((await read(plan, keys[120], 1)).items[0].timestamp).toBe('2025-11-20T13:01:00+08:00');
  });

  it("adjusted rows: prices before the ex-date moved, keyed by the basis (the last ex-date, or the cursor's)", async () => {
    const window = days('2025-01-02', '2025-11-20');
    const none = (await read(bars(adjusted, '1d', 'none', window), null, 1000)).items;
    const forward = await read(bars(adjusted, '1d', 'forward', window), null, 1000);
    expect(forward.items.map((b) => b.trade_date)).toEqual(none.map((b) => b.trade_date));
    expect(forward.keys.every((k) => k[1] === exDate)).toBe(true);
    const day = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`;
    const before = none.findIndex((b) => b.trade_date >= day(exDate)) - 1;
    expect(forward.items[before].close).not.toBe(none[before].close);
    expect(forward.items.at(-1)!.close).toBe(none.at(-1)!.close);
    // A cursor from before the ex-date keeps its basis: no factor applies, prices as stored.
    const walk = await read(bars(adjusted, '1d', 'forward', window), [forward.keys[0][0], exDate - 1], 1000);
    expect(walk.keys.every((k) => k[1] === exDate - 1)).toBe(true);
    expect(unlabelled(walk.items)).toEqual(unlabelled(none.slice(1)));
  });

  it('aggregated rows: weeks labelled by their last trading day, their volume the sum of its days', async () => {
    const window = days('2025-03-03', '2025-03-28');
    const daily = (await read(bars(plain, '1d', 'none', window), null, 100)).items;
    const weeks = await read(bars(plain, '1w', undefined, window), null, 100);
    expect(weeks.items.map((w) => w.trade_date)).toEqual(['2025-03-07', '2025-03-14', '2025-03-21', '2025-03-28']);
    const weekBefore = (to: string) => new Date(Date.parse(to) - 7 * 86_400_000).toISOString().slice(0, 10);
    const volume = (to: string) =>
      daily.filter((d) => d.trade_date <= to && d.trade_date > weekBefore(to)).reduce((s, d) => s + d.volume, 0);
    expect(weeks.items.map((w) => w.volume)).toEqual(weeks.items.map((w) => volume(w.trade_date)));
    expect(weeks.keys).toEqual(weeks.items.map((w) => [at(w.trade_date, '15:00:00'), 0]));
  });

  it('indicators: stored pages for precomputed unadjusted daily points, the same points computed otherwise', async () => {
    type Ask = BarAsk & { indicator: 'macd' | 'kdj' };
    const ask = (inst: InstrumentRow, interval: IntervalId, adjustment: AdjustmentId | undefined, indicator: Ask['indicator']): Ask => ({
      inst,
      interval,
      adjustment,
      indicator,
      window: days('2025-03-03', '2025-06-30'),
    });
    const plans = async () =>
      Promise.all([
        planIndicator(snap, ask(plain, '1d', undefined, 'macd')),
        planIndicator(snap, ask(index, '1d', 'forward', 'macd')),
        planIndicator(snap, ask(plain, '1d', 'forward', 'macd')),
        planIndicator(snap, ask(plain, '1w', undefined, 'macd')),
        planIndicator(snap, ask(plain, '1d', undefined, 'kdj')),
      ]);
    const computed = await plans();
    expect(computed.map((p) => p.path)).toEqual(Array(5).fill('computed-points'));
    const computedPage = await read(computed[0], null, 30);

    await setPrecomputed(h.store, ['macd']);
    await reopen();
    try {
      const stored = await plans();
      expect(stored.map((p) => `${p.path} ${p.adjustment}`)).toEqual([
        'precomputed-pages none',
        'precomputed-pages none',
        'computed-points forward',
        'computed-points none',
        'computed-points none',
      ]);
      const storedPage = await read(stored[0], null, 30);
      expect(storedPage).toEqual(computedPage);
      expect(storedPage.items[0]).toMatchObject({
        instrument_id: plain.id,
        indicator: 'macd',
        interval: '1d',
        timestamp: '2025-03-03T15:00:00+08:00',
      });
      expect(Object.keys(storedPage.items[29].values)).toEqual(['dif', 'dea', 'macd']);
      expect(storedPage.keys[29]).toEqual([at(storedPage.items[29].timestamp.slice(0, 10), '15:00:00'), 0]);
    } finally {
      await setPrecomputed(h.store, []);
    }
  });
});
