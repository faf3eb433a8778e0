/**
 * listSuspensions: on the demo, every interval agrees with the bars and the price limits on
 * every day (a whole-day suspension has no bar and is `suspended`; an intraday halt keeps its
 * bar), and every trading day without a bar after the first lies in one; `date` and from/to;
 * an equity with no suspension loaded gets its runs derived from its bars and the calendar;
 * ingest refuses inconsistent rows.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;

describe.each(STORES)('suspensions on $name', ({ url }) => {
  let h: Harness;
  let lastDay: string;
  const all: { id: string; rows: any[] }[] = [];
  beforeAll(async () => {
    h = await harness(await url());
    for (const e of await walk(h, '/api/v1/equities', 1000))
      all.push({ id: e.id, rows: await walk(h, `/api/v1/equities/${e.id}/suspensions`, 1000) });
    const sh = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d', 1000);
    lastDay = sh.at(-1).trade_date;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('agrees with the bars and the price limits on every day, both ways', async () => {
    const days = (await walk(h, '/api/v1/markets/SH/trading-days?from=2025-01-01', 1000)).map((d) => d.date as string);
    let whole = 0,
      halts = 0,
      open = 0;
    for (const { id, rows } of all) {
      const bars = new Set((await walk(h, `/api/v1/equities/${id}/bars?interval=1d`, 1000)).map((b) => b.trade_date as string));
      const limits = new Map((await walk(h, `/api/v1/equities/${id}/price-limits`, 1000)).map((l) => [l.trade_date, l.suspended]));
      const first = [...bars].sort()[0];
      const covered = new Set<string>();
      for (const s of rows) {
        expect(s.source, id).toBe('exchange');
        if (s.halt_from !== null) {
          halts++;
          expect([s.end_date, bars.has(s.start_date), limits.get(s.start_date)], `${id} ${s.start_date}`).toEqual([
            s.start_date,
            true,
            false,
          ]);
          continue;
        }
        whole++;
        if (s.end_date === null) open++;
        // Every day of a suspension is a suspended row, those of one still open to the latest stored day too (as breadth counts them).
        for (const d of days.filter((d) => d >= s.start_date && d <= (s.end_date ?? lastDay))) {
          expect([bars.has(d), limits.get(d)], `${id} ${d}`).toEqual([false, true]);
          covered.add(d);
        }
        const before = days[days.indexOf(s.start_date) - 1];
        expect(bars.has(before) && s.announce_date === before, `${id} before ${s.start_date}`).toBe(true);
        if (s.end_date !== null) expect([bars.has(s.resume_date), days[days.indexOf(s.end_date) + 1]], id).toEqual([true, s.resume_date]);
      }
      const gaps = days.filter((d) => d > first && d <= lastDay && !bars.has(d));
      expect(gaps, id).toEqual([...covered].sort());
    }
    expect([whole, open]).toEqual([expect.any(Number), 1]);
    expect(whole).toBeGreaterThanOrEqual(3);
    expect(halts).toBeGreaterThan(0);
  });

  it('selects the interval in force on a date, and those overlapping from/to; refuses date with from', async () => {
    const { id, rows } = all.find((x) => x.rows.some((s) => s.end_date !== null && s.end_date > s.start_date))!;
    const s = rows.find((x) => x.end_date !== null && x.end_date > x.start_date);
    expect((await get(h, `/api/v1/equities/${id}/suspensions?date=${s.end_date}`)).body.data).toEqual([s]);
    expect((await get(h, `/api/v1/equities/${id}/suspensions?date=${s.resume_date}`)).body.data).toEqual(
      rows.filter((x) => x.start_date === s.resume_date),
    );
    expect(await walk(h, `/api/v1/equities/${id}/suspensions?from=${s.end_date}&to=${s.end_date}`, 10)).toEqual([s]);
    const r = await get(h, `/api/v1/equities/${id}/suspensions?date=${s.end_date}&to=${s.end_date}`);
    expect([r.status, r.body.errors[0].code]).toEqual([400, 'conflicting_parameters']);
    const none = all.find((x) => x.rows.length === 0)!;
    expect((await get(h, `/api/v1/equities/${none.id}/suspensions?date=${lastDay}`)).body.data).toEqual([]);
  });
});

describe.each(STORES)('derived suspensions and the dataset on $name', ({ url }) => {
  let h: Harness;
  let dir: string;
  const load = async (name: string, path: string) => ingest(h.store, [{ path, dataset: dataset(name)! }]);
  beforeAll(async () => {
    h = await emptyHarness(await url());
    dir = tmp('mds-suspensions-');
    for (const d of ['markets', 'instruments', 'trading_days']) expect((await load(d, join(EXAMPLES, `${d}.csv`))).ok).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('derives the runs without a bar from the bars and the calendar when none is loaded', async () => {
    // 002013.SZ trades on 11-14 and 11-17, not on 11-18 and 11-19, again on 11-20; 688348.SH trades
    // on 11-14 and 11-17 only, while the data (000256.SZ) runs to 11-20: no run (its data may end there).
    const bar = (id: string, d: string) => `${id},${d},10.00,10.10,9.90,10.00,1000,10000.00`;
    const file = join(dir, 'bars_1d.csv');
    writeFileSync(
      file,
      [
        'instrument_id,trade_date,open,high,low,close,volume,amount',
        ...['2025-11-14', '2025-11-17', '2025-11-20'].map((d) => bar('002013.SZ', d)),
        ...['2025-11-14', '2025-11-17'].map((d) => bar('688348.SH', d)),
        ...['2025-11-14', '2025-11-17', '2025-11-18', '2025-11-19', '2025-11-20'].map((d) => bar('000256.SZ', d)),
      ].join('\n') + '\n',
    );
    expect((await load('bars_1d', file)).ok).toBe(true);
    const derived = { halt_from: null, halt_to: null, reason: null, announce_date: null, source: 'derived' };
    expect((await get(h, '/api/v1/equities/002013.SZ/suspensions')).body.data).toEqual([
      { instrument_id: '002013.SZ', start_date: '2025-11-18', end_date: '2025-11-19', resume_date: '2025-11-20', ...derived },
    ]);
    expect((await get(h, '/api/v1/equities/688348.SH/suspensions')).body.data).toEqual([]);
    expect((await get(h, '/api/v1/equities/000256.SZ/suspensions')).body.data).toEqual([]);
    const limits = await walk(h, '/api/v1/equities/002013.SZ/price-limits', 10);
    expect(limits.filter((l) => l.suspended).map((l) => l.trade_date)).toEqual(['2025-11-18', '2025-11-19']);

    // Loaded intervals replace the derived ones.
    const loaded = join(dir, 'suspensions.csv');
    writeFileSync(
      loaded,
      'instrument_id,start_date,end_date,resume_date,halt_from,halt_to,reason,announce_date\n' +
        '002013.SZ,2025-11-18,2025-11-19,2025-11-20,,,重大资产重组,2025-11-17\n' +
        '002013.SZ,2025-11-20,2025-11-20,,13:00,14:00,股价异常波动,2025-11-20\n',
    );
    expect((await load('suspensions', loaded)).ok).toBe(true);
    expect(
      (await walk(h, '/api/v1/equities/002013.SZ/suspensions', 10)).map((s) => [s.start_date, s.halt_from, s.reason, s.source]),
    ).toEqual([
      ['2025-11-18', null, '重大资产重组', 'exchange'],
      ['2025-11-20', '13:00', '股价异常波动', 'exchange'],
    ]);
  });

  it('refuses rows that contradict themselves, naming the column', async () => {
    const head = 'instrument_id,start_date,end_date,resume_date,halt_from,halt_to,reason,announce_date\n';
    const cases: [string, string][] = [
      ['002013.SZ,2025-11-18,2025-11-19,2025-11-19,,,,\n', 'resume_date: expected resume_date after end_date (or start_date)'],
      ['002013.SZ,2025-11-18,2025-11-19,,09:30,10:30,,\n', 'end_date: expected end_date = start_date for an intraday halt'],
      ['002013.SZ,2025-11-18,2025-11-18,,09:30,,,\n', 'halt_to: expected halt_from and halt_to together (an intraday halt) or neither'],
      ['002013.SZ,2025-11-18,2025-11-18,,10:30,10:00,,\n', 'halt_to: expected halt_to after halt_from'],
      [
        '002013.SZ,2025-11-18,2025-11-18,,12:00,13:30,,\n',
        'halt_from: expected a time HH:MM within the trading sessions (09:30–11:30, 13:00–15:00)',
      ],
      ['002013.SZ,2025-11-16,2025-11-17,,,,,\n', "start_date: expected a trading day (in the store or in this command's trading_days)"],
    ];
    for (const [i, [row, problem]] of cases.entries()) {
      const f = join(dir, `bad${i}.csv`);
      writeFileSync(f, head + row);
      const r = await load('suspensions', f);
      expect(r.ok, row).toBe(false);
      expect(r.errors.join('\n'), row).toContain(problem);
    }
  });
});
