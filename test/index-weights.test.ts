/**
 * Index members and weights over time (listIndexConstituents, listIndexMemberships, `index=` on
 * pools, a market's day bars and breadth). On the demo: its indices' members are dated at the
 * start and at each June and December review, and each review day's index change is the
 * weighted change of the members published that day. Against the real file
 * (../shared/data/reference/csi300_index_weight_2006_2019.csv, Tushare's index_weight of the
 * CSI 300): the members of each full date and 600519.SH's weight history, as loaded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { loadSharedData } from './shared-data.js';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;
const CSI300 = '000300.SH';

/** YYYY-MM-DD of the trading day after the second Friday of June or December of `year`, among `days`. */
function reviewDay(days: string[], year: number, month: number): string | undefined {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const friday = `${year}-${String(month).padStart(2, '0')}-${String(1 + ((5 - first + 7) % 7) + 7).padStart(2, '0')}`;
  return days.find((d) => d > friday);
}

/** A weight (percent text) in millionths of a percent, exactly. */
const millionths = (s: string) => {
  const [int, frac = ''] = s.split('.');
  return Number(int) * 1_000_000 + Number(frac.padEnd(6, '0'));
};

describe.each(STORES)('index members and weights on $name', ({ url }) => {
  let h: Harness;
  let days: string[];
  let rows: any[];
  let dates: string[];
  beforeAll(async () => {
    h = await harness(await url());
    days = (await walk(h, '/api/v1/markets/SH/trading-days?from=2025-01-02&to=2025-11-20', 1000)).map((d) => d.date);
    rows = await walk(h, `/api/v1/indices/${CSI300}/constituents?from=2025-01-01`, 1000);
    dates = [...new Set(rows.map((r) => r.trade_date as string))];
  });
  afterAll(async () => {
    await h?.close();
  });

  it('dates the members at the start and at each June and December review, weights summing to 100', () => {
    expect(dates).toEqual([days[0], reviewDay(days, 2025, 6)]);
    for (const d of dates) {
      const of = rows.filter((r) => r.trade_date === d);
      expect(of.length, d).toBeGreaterThan(2);
      for (const r of of) expect(r.index_id).toBe(CSI300);
      const sum = of.reduce((a, r) => a + millionths(r.weight), 0);
      expect(Math.abs(sum - 100_000_000), d).toBeLessThanOrEqual(of.length);
    }
  });

  it('changes members at a review: ranked by free-float value then, new listings joining the composites', async () => {
    const ids = async (index: string, d: string) =>
      (await walk(h, `/api/v1/indices/${index}/constituents?date=${d}`, 1000)).map((r) => r.instrument_id as string);
    // The CSI 500 and CSI 1000 are neighbouring ranks: one equity moved down, one up.
    const [a0, a1, b0, b1] = [
      await ids('000905.SH', dates[0]),
      await ids('000905.SH', dates[1]),
      await ids('000852.SH', dates[0]),
      await ids('000852.SH', dates[1]),
    ];
    const left = a0.filter((x) => !a1.includes(x)),
      joined = a1.filter((x) => !a0.includes(x));
    expect(left.length).toBeGreaterThan(0);
    expect(b1).toEqual(expect.arrayContaining(left));
    expect(b0).toEqual(expect.arrayContaining(joined));
    // An equity listed in the first period joins the SSE composite at the review.
    const listed = (await walk(h, '/api/v1/equities?market=SH', 1000)).filter((e) => e.list_date > dates[0] && e.list_date < dates[1]);
    expect(listed.length).toBeGreaterThan(0);
    for (const e of listed) {
      expect(await ids('000001.SH', dates[0])).not.toContain(e.id);
      expect(await ids('000001.SH', dates[1])).toContain(e.id);
    }
  });

  it("computes each review day's change from the members and weights published that day", async () => {
    for (const index of ['000300.SH', '000001.SH', '399001.SZ', '000016.SH']) {
      const published = await walk(h, `/api/v1/indices/${index}/constituents?from=2025-01-01`, 1000);
      let checked = 0;
      for (const d of [...new Set(published.map((r) => r.trade_date as string))]) {
        const bars = new Map<string, any>();
        for (const m of ['SH', 'SZ'])
          for (const b of await walk(h, `/api/v1/markets/${m}/bars?date=${d}&index=${index}`, 1000)) bars.set(b.instrument_id, b);
        const [own] = (await get(h, `/api/v1/markets/${index.slice(7)}/bars?date=${d}&kind=index`)).body.data.filter(
          (b: any) => b.instrument_id === index,
        );
        // The demo's first day has no stored day before it: no reference price.
        if (own.pre_close === null) continue;
        // Σ weight × close / reference, suspended members (no bar) unchanged.
        let ratio = 0;
        for (const r of published.filter((x) => x.trade_date === d)) {
          const b = bars.get(r.instrument_id);
          ratio += (Number(r.weight) / 100) * (b ? Number(b.close) / Number(b.pre_close) : 1);
        }
        // The index's close against its reference (both rounded to 0.01 point; weights to 1e-6 %).
        expect(Math.abs(Number(own.close) - Number(own.pre_close) * ratio), `${index} ${d}`).toBeLessThan(
          0.011 + Number(own.pre_close) * 1e-6 * 50,
        );
        checked++;
      }
      expect(checked, index).toBeGreaterThan(0);
    }
  });

  it('gives the members in force on a date: the latest weight date on or before it', async () => {
    const on = async (d: string) => walk(h, `/api/v1/indices/${CSI300}/constituents?date=${d}`, 1000);
    const of = (d: string) => rows.filter((r) => r.trade_date === d);
    expect(await on(dates[0])).toEqual(of(dates[0]));
    const before = days[days.indexOf(dates[1]) - 1];
    expect(await on(before)).toEqual(of(dates[0]));
    expect(await on(dates[1])).toEqual(of(dates[1]));
    expect(await on('2026-11-20')).toEqual(of(dates[1]));
    expect(await walk(h, `/api/v1/indices/${CSI300}/constituents`, 7)).toEqual(of(dates[1]));
    expect(await on('2024-12-31')).toEqual([]);
    // One date's members are whole in a file too (the index_weights ingest format).
    const csv = await h.app.inject({
      method: 'GET',
      url: `/api/v1/indices/${CSI300}/constituents?date=${dates[0]}&page[size]=1000`,
      headers: { 'x-api-key': h.key, accept: 'text/csv' },
    });
    const lines = csv.payload.trim().split('\n');
    expect(lines[0]).toBe('index_id,instrument_id,trade_date,weight');
    expect(lines.slice(1)).toEqual(of(dates[0]).map((r) => `${r.index_id},${r.instrument_id},${r.trade_date},${r.weight}`));
  });

  it('says which indices an equity was in on a date', async () => {
    const csi500 = await walk(h, '/api/v1/indices/000905.SH/constituents?from=2025-01-01', 1000);
    const leaver = csi500.find(
      (r) => r.trade_date === dates[0] && !csi500.some((x) => x.trade_date === dates[1] && x.instrument_id === r.instrument_id),
    );
    expect(leaver).toBeDefined();
    const id = leaver.instrument_id;
    const before = await walk(h, `/api/v1/equities/${id}/index-memberships?date=${dates[0]}`, 1000);
    expect(before.find((r) => r.index_id === '000905.SH')).toEqual(leaver);
    const after = await walk(h, `/api/v1/equities/${id}/index-memberships?date=${dates[1]}`, 1000);
    expect(after.find((r) => r.index_id === '000905.SH')).toBeUndefined();
    // It moved to the CSI 1000 at the review.
    expect(after.map((r) => r.index_id)).toContain('000852.SH');
    const history = await walk(h, `/api/v1/equities/${id}/index-memberships?from=2025-01-01&to=2025-12-31`, 1);
    expect(history.filter((r) => r.index_id === '000905.SH')).toEqual([leaver]);
    expect(history.map((r) => r.trade_date)).toEqual(history.map((r) => r.trade_date).sort());
    for (const r of before) {
      const members = await walk(h, `/api/v1/indices/${r.index_id}/constituents?date=${dates[0]}`, 1000);
      expect(members).toContainEqual(r);
    }
  });

  it('selects the members as of each day on pools, day bars and breadth', async () => {
    const late = days.at(-1)!;
    const members = new Set(rows.filter((r) => r.trade_date === dates[1]).map((r) => r.instrument_id));
    const all = await walk(h, `/api/v1/markets/SH/bars?date=${late}&kind=equity`, 1000);
    const within = await walk(h, `/api/v1/markets/SH/bars?date=${late}&index=${CSI300}`, 1000);
    expect(within).toEqual(all.filter((b) => members.has(b.instrument_id)));
    expect(within.length).toBeGreaterThan(0);
    let pooled = 0;
    for (const d of days.slice(-60))
      for (const type of ['limit_up', 'limit_down', 'strong']) {
        const inForce = new Set(
          (await walk(h, `/api/v1/indices/${CSI300}/constituents?date=${d}`, 1000)).map((r) => r.instrument_id as string),
        );
        const pool = await walk(h, `/api/v1/equities/pools/${type}?date=${d}`, 1000);
        const got = await walk(h, `/api/v1/equities/pools/${type}?date=${d}&index=${CSI300}`, 1000);
        expect(got, `${type} ${d}`).toEqual(pool.filter((m) => inForce.has(m.instrument_id)));
        pooled += got.length;
      }
    expect(pooled).toBeGreaterThan(0);
    // Breadth of the members: counted from their bars of each day (suspended members have none).
    const window = days.slice(days.indexOf(dates[1]) - 2, days.indexOf(dates[1]) + 2);
    const breadth = await walk(h, `/api/v1/markets/SH/breadth?from=${window[0]}&to=${window.at(-1)}&index=${CSI300}`, 2);
    expect(breadth.map((b) => b.trade_date)).toEqual(window);
    for (const b of breadth) {
      const inForce = (await walk(h, `/api/v1/indices/${CSI300}/constituents?date=${b.trade_date}`, 1000)).filter((r) =>
        r.instrument_id.endsWith('.SH'),
      );
      const bars = await walk(h, `/api/v1/markets/SH/bars?date=${b.trade_date}&index=${CSI300}`, 1000);
      expect(b.listed, b.trade_date).toBe(inForce.length);
      expect(b.suspended).toBe(inForce.length - bars.length);
      expect(b.advancers).toBe(bars.filter((x) => Number(x.close) > Number(x.pre_close)).length);
      expect(b.decliners).toBe(bars.filter((x) => Number(x.close) < Number(x.pre_close)).length);
      expect(b.volume).toBe(bars.reduce((a, x) => a + x.volume, 0));
    }
  });

  it('refuses an index that is none (400 naming index) and answers 404 for an unknown index path', async () => {
    for (const path of [
      '/api/v1/markets/SH/bars?index=600519.SH',
      '/api/v1/markets/SH/breadth?index=999999.SH',
      '/api/v1/equities/pools/limit_up?index=x',
    ]) {
      const r = await get(h, path);
      expect(r.status, path).toBe(400);
      expect(r.body.errors[0].source.parameter).toBe('index');
    }
    expect((await get(h, '/api/v1/indices/600519.SH/constituents')).status).toBe(404);
    expect((await get(h, '/api/v1/equities/000300.SH/index-memberships')).status).toBe(404);
    expect((await get(h, `/api/v1/indices/${CSI300}/constituents?date=2025-01-02&from=2025-01-01`)).status).toBe(400);
  });
});

/** The file's rows: [index_code, con_code, trade_date, weight]. */
function fileRows(): string[][] {
  const [, ...lines] = readFileSync(join(SHARED, 'reference/csi300_index_weight_2006_2019.csv'), 'utf8').trim().split(/\r?\n/);
  return lines.map((l) => l.split(','));
}
const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`;
/** The file's weight as the service writes it (at least 2 decimals, no trailing zeros past them). */
const canonical = (w: string) => {
  const [int, frac = ''] = w.split('.');
  return `${Number(int)}.${frac.replace(/0+$/, '').padEnd(2, '0')}`;
};
/** The dates the file's README calls defective: a truncated download, and three of 298 rows. */
const DEFECTIVE = ['20091203', '20091229', '20091230', '20091231'];

describe.skipIf(!HAVE_SHARED).each(STORES)('the CSI 300 weights of 2006-2019 (Tushare index_weight) on $name', ({ url }) => {
  let h: Harness;
  let file: string[][];
  beforeAll(async () => {
    if (!HAVE_SHARED) return;
    file = fileRows();
    // Every member as an equity, and the index under Tushare's code (399300.SZ).
    const dir = tmp('mds-index-weights-');
    const codes = [...new Set(file.map((r) => r[1]))].sort();
    const board = (c: string) => (c.startsWith('300') ? 'chinext' : c.startsWith('688') ? 'star' : 'main');
    writeFileSync(
      join(dir, 'instruments.csv'),
      'instrument_id,kind,board,name,list_date,base_date,base_value\n399300.SZ,index,,沪深300,2005-04-08,2004-12-31,1000.00\n' +
        codes.map((c) => `${c},equity,${board(c)},${c},1990-12-19,,`).join('\n') +
        '\n',
    );
    h = await emptyHarness(await url());
    await loadSharedData(h.store, [
      ['markets', null, [join(EXAMPLES, 'markets.csv')]],
      ['instruments', null, [join(dir, 'instruments.csv')]],
      ['index_weights', 'tushare', ['reference/csi300_index_weight_2006_2019.csv']],
    ]);
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('serves the members and weights of every full date as the file has them', async () => {
    const dates = [...new Set(file.map((r) => r[2]))].filter((d) => !DEFECTIVE.includes(d));
    expect(dates.length).toBe(260);
    // Every twentieth date, and the last (a walk of all 260 dates is the same reads again).
    for (const d of [...dates.filter((_, i) => i % 20 === 0), dates.at(-1)!]) {
      const want = file
        .filter((r) => r[2] === d)
        .map((r) => ({ instrument_id: r[1], weight: canonical(r[3]) }))
        .sort((a, b) => (a.instrument_id < b.instrument_id ? -1 : 1));
      const got = (await walk(h, `/api/v1/indices/399300.SZ/constituents?date=${iso(d)}`, 1000))
        .map((r) => ({ instrument_id: r.instrument_id, weight: r.weight }))
        .sort((a, b) => (a.instrument_id < b.instrument_id ? -1 : 1));
      expect(got, d).toEqual(want);
      expect(got.length, d).toBe(300);
    }
    // A day between two weight dates: the earlier's members.
    const between = (await walk(h, '/api/v1/indices/399300.SZ/constituents?date=2019-10-15', 1000)).map((r) => r.trade_date);
    expect(new Set(between)).toEqual(new Set([iso(dates.filter((d) => d <= '20191015').at(-1)!)]));
  });

  it("holds 600519.SH's weight history as the file has it", async () => {
    const want = file.filter((r) => r[1] === '600519.SH').map((r) => ({ trade_date: iso(r[2]), weight: canonical(r[3]) }));
    expect(want.length).toBeGreaterThan(200);
    const got = (await walk(h, '/api/v1/equities/600519.SH/index-memberships?from=2006-01-01&to=2019-12-31', 1000)).map((r) => ({
      trade_date: r.trade_date,
      weight: r.weight,
    }));
    expect(got).toEqual(want.sort((a, b) => (a.trade_date < b.trade_date ? -1 : 1)));
    // On a day: its weight of the date in force.
    const [on] = (await get(h, '/api/v1/equities/600519.SH/index-memberships?date=2019-12-31')).body.data;
    expect(on).toEqual({ index_id: '399300.SZ', instrument_id: '600519.SH', trade_date: '2019-12-31', weight: want.at(-1)!.weight });
  });
});
