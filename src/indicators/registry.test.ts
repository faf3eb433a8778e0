import { describe, expect, it } from 'vitest';
import type { Bar } from '../market/types.js';
import { foldBars, INDICATOR_IDS, INDICATORS, isIndicatorId, seriesFromBars } from './registry.js';
import { runStream, type Series, type Values } from './types.js';

// A deterministic 400-bar random walk (2-decimal prices) with a few unchanged closes.
function walk(n: number, seed = 42): Series {
  let x = seed,
    c = 20;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const s: Series = { open: [], high: [], low: [], close: [], volume: [] };
  for (let i = 0; i < n; i++) {
    const o = Math.round((c + (rnd() - 0.5) * 0.4) * 100) / 100;
    const cl = i % 37 === 5 ? c : Math.round((o + (rnd() - 0.5) * 1.2) * 100) / 100;
    s.open.push(o);
    s.close.push(cl);
    s.high.push(Math.round((Math.max(o, cl) + rnd() * 0.3) * 100) / 100);
    s.low.push(Math.round((Math.min(o, cl) - rnd() * 0.3) * 100) / 100);
    s.volume.push(Math.round(rnd() * 1e6) * 100);
    c = cl;
  }
  return s;
}
const slice = (s: Series, a: number, b: number): Series => ({
  open: s.open.slice(a, b),
  high: s.high.slice(a, b),
  low: s.low.slice(a, b),
  close: s.close.slice(a, b),
  volume: s.volume.slice(a, b),
});

// CONTRACT.md §2 keys, and the index of the first bar where each key is present.
const FIRST: Record<string, Record<string, number>> = {
  ma: { ma5: 4, ma10: 9, ma20: 19, ma30: 29, ma60: 59 },
  ema: { ema12: 0, ema26: 0 },
  macd: { dif: 0, dea: 0, macd: 0 },
  kdj: { k: 8, d: 8, j: 8 },
  rsi: { rsi6: 1, rsi12: 1, rsi24: 1 },
  boll: { mid: 19, upper: 19, lower: 19 },
  wr: { wr6: 5, wr10: 9 },
  cci: { cci: 13 },
  bias: { bias6: 5, bias12: 11, bias24: 23 },
  obv: { obv: 0 },
  atr: { tr: 1, atr: 14 },
  dmi: { pdi: 14, mdi: 14, adx: 19, adxr: 25 },
};
const s = walk(400);

describe('registry', () => {
  it('lists the contract ids and keys', () => {
    expect([...INDICATOR_IDS]).toEqual(Object.keys(FIRST));
    for (const id of INDICATOR_IDS) expect(INDICATORS[id].keys, id).toEqual(Object.keys(FIRST[id]));
    expect(isIndicatorId('kdj')).toBe(true);
    expect(isIndicatorId('KDJ')).toBe(false);
  });
  for (const id of INDICATOR_IDS) {
    const ind = INDICATORS[id],
      all = ind.compute(s);
    it(`${id}: one point per bar, each key present from its documented bar on`, () => {
      expect(all).toHaveLength(400);
      for (const [key, first] of Object.entries(FIRST[id])) {
        expect(
          all.findIndex((v) => key in v),
          key,
        ).toBe(first);
        expect(
          all.slice(first).every((v) => Number.isFinite(v[key])),
          key,
        ).toBe(true);
      }
      // Only documented keys, in the documented order (the point writer relies on it).
      expect(all.every((v) => Object.keys(v).join() === ind.keys.filter((k) => k in v).join())).toBe(true);
    });
    if (Number.isFinite(ind.lookback)) {
      it(`${id}: lookback ${ind.lookback} bars of history make a point exact, one fewer does not`, () => {
        for (const i of [ind.lookback, 100, 257, 399]) {
          expect(ind.compute(slice(s, i - ind.lookback, i + 1)).at(-1), `point ${i}`).toEqual(all[i]);
        }
        expect(ind.compute(slice(s, 300 - ind.lookback + 1, 301)).at(-1)).not.toEqual(all[300]);
      });
    } else {
      it(`${id}: recursive; resuming from a checkpoint equals computing from the first bar`, () => {
        const stream = ind.stream!;
        expect(runStream(stream, s)).toEqual(all);
        for (const at of [0, 1, 7, 8, 150, 398]) {
          let st = stream.initState();
          for (let i = 0; i <= at; i++)
            st = stream.step(st, { open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i], volume: s.volume[i] }).state;
          const checkpoint = JSON.parse(JSON.stringify(st)); // the state survives storage as JSON
          let resumed = checkpoint;
          const rest = [];
          for (let i = at + 1; i < 400; i++) {
            const r = stream.step(resumed, { open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i], volume: s.volume[i] });
            resumed = r.state;
            rest.push(r.values);
          }
          expect(rest, `checkpoint after bar ${at}`).toEqual(all.slice(at + 1));
        }
      });
    }
  }
  it('foldBars over a head and then a page gives the values runStream gives over seriesFromBars of both', () => {
    const s = walk(300, 9);
    // Bars in 1/1000 CNY, as stored (prices of 2 decimals are exact integers there).
    const bars: Bar[] = s.close.map((c, i) => ({
      ts: 0,
      date: 20240101 + i,
      open: Math.round(s.open[i] * 1000),
      high: Math.round(s.high[i] * 1000),
      low: Math.round(s.low[i] * 1000),
      close: Math.round(c * 1000),
      volume: s.volume[i],
      amount: 0,
    }));
    for (const id of INDICATOR_IDS) {
      const stream = INDICATORS[id].stream;
      if (!stream) continue;
      const all = runStream(stream, seriesFromBars(bars));
      for (const cut of [0, 1, 8, 120, 299]) {
        const page: Values[] = [];
        const state = foldBars(stream, bars.slice(0, cut), stream.initState(), null);
        expect(foldBars(stream, bars.slice(cut), state, page), `${id} state`).toEqual(foldBars(stream, bars, stream.initState(), null));
        expect(page, `${id} from bar ${cut}`).toEqual(all.slice(cut));
      }
    }
  });

  it('seriesFromBars converts price units to CNY and keeps shares', () => {
    const bar: Bar = { ts: 0, date: 20240301, open: 10_010, high: 10_500, low: 9_990, close: 10_200, volume: 12_300, amount: 125_000_00 };
    expect(seriesFromBars([bar])).toEqual({ open: [10.01], high: [10.5], low: [9.99], close: [10.2], volume: [12_300] });
  });
});
