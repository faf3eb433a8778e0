/**
 * Fund bars and indicators (listFundBars, listFundTechnicalIndicators): an ETF's daily bars
 * against the same day's cross-section (a separate path, from the market days), weeks built
 * by hand from them, 3-decimal prices, no adjustment without loaded factors, and indicator
 * values computed here from the served closes, computed and precomputed alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { setPrecomputed } from '../src/derived/indicator-pages.js';

const milli = (s: string) => Math.round(Number(s) * 1000);

describe.each(STORES)('fund bars and indicators on $name', ({ url }) => {
  let h: Harness;
  let fund: { id: string; market: string };
  let days: any[];
  beforeAll(async () => {
    h = await harness(await url());
    fund = (await get(h, '/api/v1/funds?page[size]=1')).body.data[0];
    days = await walk(h, `/api/v1/funds/${fund.id}/bars?interval=1d`, 1000);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("serves a fund's daily bars with 3-decimal prices, as the day's cross-section has them", async () => {
    expect(days.length).toBeGreaterThan(100);
    expect(days[0]).toMatchObject({ instrument_id: fund.id, interval: '1d', adjustment: 'none' });
    for (const b of days) for (const k of ['open', 'high', 'low', 'close']) expect(b[k], `${b.trade_date} ${k}`).toMatch(/^\d+\.\d{3}$/);
    for (const b of [days[0], days[Math.floor(days.length / 2)], days.at(-1)]) {
      const cross = await walk(h, `/api/v1/markets/${fund.market}/bars?date=${b.trade_date}&kind=fund`, 1000);
      const same = cross.find((c) => c.instrument_id === fund.id);
      expect(same, b.trade_date).toBeDefined();
      for (const k of ['open', 'high', 'low', 'close', 'volume', 'amount']) expect(same[k], `${b.trade_date} ${k}`).toEqual(b[k]);
    }
  });

  it('builds weeks from the days and adjusts nothing without loaded factors', async () => {
    const weeks = await walk(h, `/api/v1/funds/${fund.id}/bars?interval=1w`, 1000);
    const byWeek = new Map<string, any[]>();
    for (const w of weeks) byWeek.set(w.trade_date, []);
    let i = 0;
    for (const d of days) {
      while (weeks[i].trade_date < d.trade_date) i++;
      byWeek.get(weeks[i].trade_date)!.push(d);
    }
    for (const w of weeks) {
      const g = byWeek.get(w.trade_date)!;
      expect(g.at(-1).trade_date, w.trade_date).toBe(w.trade_date);
      expect(w.open).toBe(g[0].open);
      expect(w.close).toBe(g.at(-1).close);
      expect(milli(w.high)).toBe(Math.max(...g.map((b) => milli(b.high))));
      expect(milli(w.low)).toBe(Math.min(...g.map((b) => milli(b.low))));
      expect(w.volume).toBe(g.reduce((s, b) => s + b.volume, 0));
    }
    const forward = await walk(h, `/api/v1/funds/${fund.id}/bars?interval=1d&adjustment=forward`, 1000);
    expect(forward.map((b) => [b.trade_date, b.close])).toEqual(days.map((b) => [b.trade_date, b.close]));
    expect(new Set(forward.map((b) => b.adjustment))).toEqual(new Set(['forward']));
  });

  it('computes indicators from its closes, computed and precomputed alike', async () => {
    const points = await walk(h, `/api/v1/funds/${fund.id}/technical-indicators/ma?interval=1d`, 1000);
    expect(points).toHaveLength(days.length);
    const closes = days.map((b) => milli(b.close));
    for (const i of [4, 19, 59, days.length - 1]) {
      const ma5 = closes.slice(i - 4, i + 1).reduce((s, c) => s + c, 0) / 5 / 1000;
      expect(points[i].values.ma5, `${days[i].trade_date}`).toBe(ma5.toFixed(4));
    }
    expect(points[3].values.ma5).toBeUndefined();
    const computed = await walk(h, `/api/v1/funds/${fund.id}/technical-indicators/macd?interval=1d`, 1000);
    await setPrecomputed(h.store, ['macd']);
    const precomputed = await walk(h, `/api/v1/funds/${fund.id}/technical-indicators/macd?interval=1d`, 1000);
    expect(precomputed.length).toBe(days.length);
    expect(precomputed).toEqual(computed);
  });

  it('answers a fund id under /equities with 404 naming the fund path', async () => {
    const r = await get(h, `/api/v1/equities/${fund.id}/bars?interval=1d`);
    expect(r.status).toBe(404);
    expect(r.body.errors[0].detail).toContain(`/api/v1/funds/${fund.id}`);
  });
});
