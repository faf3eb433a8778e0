import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScaled } from '../lib/decimal.js';
import { formatDate, marketEpoch, parseDate } from '../lib/time.js';
import { aggregateDaily, aggregateIntraday, aggregatePeriods, periodKey } from './aggregate.js';
import { tradingDaysBetween } from './calendar.js';
import { MINUTE_LABELS } from './sessions.js';
import type { Bar } from './types.js';

// Vendor bars, read in place: <repo>/../shared/data/ohlcv (see its README).
const OHLCV_DIR = fileURLToPath(new URL('../../../shared/data/ohlcv/', import.meta.url));
const haveData = existsSync(OHLCV_DIR);
if (!haveData) console.warn(`aggregate.test: ${OHLCV_DIR} is absent; skipping the vendor-data checks`);

const num = (s: string, scale: number): number => {
  const v = parseScaled(s, scale);
  if (v === null) throw new Error(`not a decimal at scale ${scale}: ${s}`);
  return v;
};
const hm = (s: string) => +s.slice(0, 2) * 60 + +s.slice(3, 5);
const rows = (file: string) =>
  readFileSync(OHLCV_DIR + file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));

/** tdx_sh688001_{1,5}min.csv: date,time,open,high,low,close,amount_cny,volume_shares */
function tdxMinutes(file: string): Bar[] {
  return rows(file).map(([d, t, o, h, l, c, amount, vol]) => {
    const date = parseDate(d)!;
    return {
      ts: marketEpoch(date, hm(t)),
      date,
      open: num(o, 3),
      high: num(h, 3),
      low: num(l, 3),
      close: num(c, 3),
      volume: num(vol, 0),
      amount: num(amount, 2),
    };
  });
}

describe.skipIf(!haveData)('against vendor bars in shared/data/ohlcv', () => {
  it('688001: 1m -> 5m equals all 144 TDX 5-minute bars', () => {
    const five = tdxMinutes('tdx_sh688001_5min.csv');
    expect(five).toHaveLength(144);
    const dates = new Set(five.map((b) => b.date));
    const mine = aggregateIntraday(tdxMinutes('tdx_sh688001_1min.csv'), 5).filter((b) => dates.has(b.date));
    // Amounts too: TDX keeps them as float32, but here they are whole yuan and sum exactly.
    expect(mine).toEqual(five);
  });

  it('688001: 240-bar days give 48/16/8/4 buckets', () => {
    const one = tdxMinutes('tdx_sh688001_1min.csv');
    const days = new Set(one.map((b) => b.date)).size;
    expect(days).toBe(12);
    for (const [n, per] of [
      [5, 48],
      [15, 16],
      [30, 8],
      [60, 4],
    ] as const) {
      const out = aggregateIntraday(one, n);
      expect(out).toHaveLength(days * per);
      expect(out.reduce((s, b) => s + b.volume, 0)).toBe(one.reduce((s, b) => s + b.volume, 0));
    }
  });

  it('SSE Composite: 1m -> 1d matches TDX daily open, close and volume, 2020-07-01..15', () => {
    // czsc: symbol,dt,open,close,high,low,vol(shares); dt is the bar end.
    const minutes: Bar[] = rows('czsc_000001.XSHG_1MIN.csv').map(([, dt, o, c, h, l, vol]) => {
      const date = parseDate(dt.slice(0, 10))!;
      return {
        ts: marketEpoch(date, hm(dt.slice(11, 16))),
        date,
        open: num(o, 3),
        high: num(h, 3),
        low: num(l, 3),
        close: num(c, 3),
        volume: num(vol, 0),
        amount: 0,
      };
    });
    const daily = aggregateDaily(minutes);
    expect(daily.map((b) => b.date)).toEqual(tradingDaysBetween(20200701, 20200715));
    // tdx index daily: date,open,high,low,close,amount_cny,volume_lots,...
    const tdx = new Map(rows('tdx_sh000001_index_daily.csv').map((r) => [parseDate(r[0])!, r]));
    for (const b of daily) {
      const [, o, , , c, , lots] = tdx.get(b.date)!;
      expect(b.ts).toBe(marketEpoch(b.date, 900));
      expect([formatDate(b.date), b.open, b.close, b.volume]).toEqual([formatDate(b.date), num(o, 3), num(c, 3), num(lots, 0) * 100]);
    }
  });
});

/** A synthetic 1m day: bar i of MINUTE_LABELS has open=close=1000+i, volume 100, amount 10. */
function syntheticDay(date: number, labels: readonly number[] = MINUTE_LABELS): Bar[] {
  return labels.map((m) => {
    const p = 1000 + MINUTE_LABELS.indexOf(m);
    return { ts: marketEpoch(date, m), date, open: p, high: p + 5, low: p - 5, close: p, volume: 100, amount: 10 };
  });
}
const daily = (date: number, open: number, close: number, high = Math.max(open, close), low = Math.min(open, close)): Bar => ({
  ts: marketEpoch(date, 900),
  date,
  open,
  high,
  low,
  close,
  volume: 1000,
  amount: 50,
});

describe('aggregateIntraday', () => {
  const day = syntheticDay(20240301);

  it('turns a 241-bar day into 48/16/8/4 bars with end labels', () => {
    const labels = (n: 5 | 15 | 30 | 60) => aggregateIntraday(day, n).map((b) => (b.ts - marketEpoch(20240301, 0)) / 60);
    expect(labels(5)).toHaveLength(48);
    expect(labels(15)).toHaveLength(16);
    expect(labels(30)).toEqual([600, 630, 660, 690, 810, 840, 870, 900]);
    expect(labels(60)).toEqual([630, 690, 840, 900]);
  });

  it('puts the 09:30 auction bar into the first bucket', () => {
    const [first, second] = aggregateIntraday(day, 5);
    expect(first).toEqual({
      ts: marketEpoch(20240301, 575),
      date: 20240301,
      open: 1000,
      high: 1010,
      low: 995,
      close: 1005,
      volume: 600,
      amount: 60,
    });
    expect(second.open).toBe(1006);
    const hour = aggregateIntraday(day, 60);
    expect(hour.map((b) => b.volume)).toEqual([6100, 6000, 6000, 6000]);
  });

  it('emits partial buckets across gaps and days', () => {
    const gappy = [...syntheticDay(20240301, [571, 572, 781]), ...syntheticDay(20240304, [900])];
    const out = aggregateIntraday(gappy, 30);
    expect(out.map((b) => [b.date, b.ts, b.volume])).toEqual([
      [20240301, marketEpoch(20240301, 600), 200],
      [20240301, marketEpoch(20240301, 810), 100],
      [20240304, marketEpoch(20240304, 900), 100],
    ]);
  });

  it('gives a bucket with a bar of unknown amount (null) an unknown amount, the other buckets their sums', () => {
    const bars = syntheticDay(20240301).map((b) => (b.ts === marketEpoch(20240301, 583) ? { ...b, amount: null } : b));
    const out = aggregateIntraday(bars, 5);
    expect(out.slice(0, 3).map((b) => [(b.ts - marketEpoch(20240301, 0)) / 60, b.volume, b.amount])).toEqual([
      [575, 600, 60],
      [580, 500, 50],
      [585, 500, null],
    ]);
    expect(out.filter((b) => b.amount === null)).toHaveLength(1);
    expect(aggregateIntraday(bars, 60).map((b) => b.amount)).toEqual([null, 600, 600, 600]);
    expect(aggregateDaily(bars)[0]).toMatchObject({ volume: 24100, amount: null });
  });

  it('rejects off-session or unordered bars', () => {
    expect(() => aggregateIntraday(syntheticDay(20240301, [720]), 5)).toThrow(RangeError);
    expect(() => aggregateIntraday([...day].reverse(), 5)).toThrow(RangeError);
  });
});

describe('aggregateDaily', () => {
  it('folds each date into one 15:00 bar', () => {
    const out = aggregateDaily([...syntheticDay(20240301), ...syntheticDay(20240304)]);
    expect(out).toEqual(
      [20240301, 20240304].map((date) => ({
        ts: marketEpoch(date, 900),
        date,
        open: 1000,
        high: 1245,
        low: 995,
        close: 1240,
        volume: 24100,
        amount: 2410,
      })),
    );
  });
});

describe('periods', () => {
  it('keys weeks by Monday, months/quarters/years by their first day', () => {
    expect(periodKey(20240103, '1w')).toBe(20240101);
    expect(periodKey(20240107, '1w')).toBe(20240101); // Sunday
    expect(periodKey(20250101, '1w')).toBe(20241230); // ISO week across the year end
    expect(periodKey(20240229, '1mo')).toBe(20240201);
    expect(periodKey(20240630, '1q')).toBe(20240401);
    expect(periodKey(20241001, '1q')).toBe(20241001);
    expect(periodKey(20240315, '1q')).toBe(20240101);
    expect(periodKey(20241231, '1y')).toBe(20240101);
  });

  const days = tradingDaysBetween(20240901, 20241231).map((d, i) => daily(d, 100 + i, 101 + i));

  it('returns daily bars unchanged for 1d', () => {
    expect(aggregatePeriods(days, '1d')).toEqual(days);
  });

  it('aggregates a holiday week to its last trading day', () => {
    // National Day 2024: Mon 09-30 trades, 10-01..07 closed; the next week starts Tue 10-08.
    const weeks = aggregatePeriods(days, '1w');
    const holiday = weeks.find((w) => w.date === 20240930)!;
    expect(holiday).toEqual({ ...daily(20240930, holiday.open, holiday.close), volume: 1000 });
    expect(days.filter((d) => d.date === 20240930)).toHaveLength(1);
    const next = weeks[weeks.indexOf(holiday) + 1];
    expect(next.date).toBe(20241011);
    expect(next.volume).toBe(4000); // 10-08..10-11
    expect(next.open).toBe(days.find((d) => d.date === 20241008)!.open);
    expect(next.close).toBe(days.find((d) => d.date === 20241011)!.close);
  });

  it('labels months, quarters and years by their last trading day', () => {
    expect(aggregatePeriods(days, '1mo').map((b) => b.date)).toEqual([20240930, 20241031, 20241129, 20241231]);
    const q = aggregatePeriods(days, '1q');
    expect(q.map((b) => [b.date, b.ts])).toEqual([
      [20240930, marketEpoch(20240930, 900)],
      [20241231, marketEpoch(20241231, 900)],
    ]);
    const y = aggregatePeriods(days, '1y');
    expect(y).toHaveLength(1);
    expect(y[0]).toMatchObject({ date: 20241231, open: 100, close: 101 + days.length - 1, volume: 1000 * days.length });
  });

  it('uses the last day present, not the calendar end, when data stops early', () => {
    expect(aggregatePeriods(days.slice(0, 3), '1mo').map((b) => b.date)).toEqual([20240904]);
  });

  it('keeps amounts past 2^53 fen exact (a year of index turnover)', () => {
    const big = [daily(20240102, 1, 1), daily(20240103, 1, 1), daily(20240104, 1, 1)].map((b, i) => ({ ...b, amount: 2 ** 52 + i }));
    const [y] = aggregatePeriods(big, '1y');
    expect(y.amountExact).toBe(3n * 2n ** 52n + 3n);
    expect(y.amount).toBe(Number(3n * 2n ** 52n + 3n));
    const small = aggregatePeriods(big.slice(0, 1), '1y')[0];
    expect(small.amountExact).toBeUndefined();
  });

  it('gives a period with a day of unknown amount (null) an unknown amount, first or later, past 2^53 or not', () => {
    const week = [daily(20240102, 1, 1), daily(20240103, 1, 1), daily(20240104, 1, 1)];
    for (const at of [0, 1, 2]) {
      const mixed = week.map((b, i) => ({ ...b, amount: i === at ? null : 2 ** 52 + i }));
      const [w] = aggregatePeriods(mixed, '1w');
      expect(w).toMatchObject({ date: 20240104, volume: 3000, amount: null });
      expect(w.amountExact).toBeUndefined();
    }
    const known = aggregatePeriods(
      week.map((b) => ({ ...b, amount: 7 })),
      '1w',
    )[0];
    expect(known.amount).toBe(21);
  });
});
