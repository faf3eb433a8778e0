import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

/** Quotes and trades agree with the 1m bars of the same days. */
const milli = (s: string) => Math.round(Number(s) * 1000);
const fen = (s: string) => Math.round(Number(s) * 100);

describe.each(STORES)('quotes and trades on $name', ({ url }) => {
  let h: Harness;
  let eq: string;
  let tickDays: string[];
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?board=main&market=SH&page[size]=1')).body.data[0].id;
    const q = await walk(h, `/api/v1/equities/${eq}/quotes`, 1000);
    tickDays = [...new Set(q.map((x) => x.trade_date))];
  });
  afterAll(async () => {
    await h?.close();
  });

  it('has trades that aggregate into the 1m bars', async () => {
    expect(tickDays).toHaveLength(2);
    for (const d of tickDays) {
      const trades = await walk(h, `/api/v1/equities/${eq}/trades?date=${d}`, 1000);
      const bars = await walk(h, `/api/v1/equities/${eq}/bars?interval=1m&date=${d}`, 1000);
      if (bars.length === 0) continue; // suspended
      expect(trades.map((t) => t.seq)).toEqual(trades.map((_, i) => i + 1));
      const byBar = new Map<string, any[]>();
      for (const t of trades) {
        // a trade at (label-60s, label] belongs to the bar labelled `label`; the 09:25 auction to 09:30
        const s = new Date(t.timestamp).getTime() / 1000;
        const label = Math.max(Math.ceil(s / 60) * 60, new Date(`${d}T09:30:00+08:00`).getTime() / 1000);
        const k = new Date(label * 1000).toISOString();
        byBar.set(k, [...(byBar.get(k) ?? []), t]);
      }
      for (const b of bars) {
        const ts = byBar.get(new Date(b.timestamp).toISOString()) ?? [];
        expect(ts.length, b.timestamp).toBeGreaterThan(0);
        expect(ts[0].price).toBe(b.open);
        expect(ts[ts.length - 1].price).toBe(b.close);
        expect(Math.max(...ts.map((t) => milli(t.price)))).toBe(milli(b.high));
        expect(Math.min(...ts.map((t) => milli(t.price)))).toBe(milli(b.low));
        expect(ts.reduce((s, t) => s + t.volume, 0)).toBe(b.volume);
        expect(ts.reduce((s, t) => s + fen(t.amount), 0)).toBe(fen(b.amount));
        for (const t of ts) expect(fen(t.amount)).toBe(Math.round((milli(t.price) * t.volume) / 10));
      }
    }
  });

  it('has quotes whose last and cumulative volume follow the 1m bars', async () => {
    for (const d of tickDays) {
      const quotes = await walk(h, `/api/v1/equities/${eq}/quotes?date=${d}`, 1000);
      const bars = await walk(h, `/api/v1/equities/${eq}/bars?interval=1m&date=${d}`, 1000);
      if (bars.length === 0) continue;
      expect(quotes).toHaveLength(241);
      let vol = 0;
      quotes.forEach((q, i) => {
        vol += bars[i].volume;
        expect(q.timestamp).toBe(bars[i].timestamp);
        expect(q.last).toBe(bars[i].close);
        expect(q.volume).toBe(vol);
        expect(q.bids.length + q.asks.length).toBeGreaterThan(0);
        if (q.bids.length && q.asks.length) expect(milli(q.bids[0].price)).toBeLessThan(milli(q.asks[0].price));
        expect(q.open).toBe(bars[0].open);
      });
    }
  });

  it('serves index quotes without a book', async () => {
    const q = await get(h, '/api/v1/indices/000001.SH/quotes?page[size]=2');
    expect(q.body.data).toHaveLength(2);
    expect(q.body.data[0]).toMatchObject({ instrument_id: '000001.SH', bids: [], asks: [] });
  });
});
