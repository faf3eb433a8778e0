import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatValue } from './format.js';
import { INDICATORS } from './registry.js';
import { rsiStream } from './rsi.js';
import type { Column } from './rolling.js';
import { runStream, type Series, type Values } from './types.js';

// Independent reference: TA-Lib (C library, through the `talib` node binding), on two real
// series read in place from <repo>/../shared/data: the Stock.Indicators 502-bar default.csv
// and the last 1000 days of the SSE Composite (TDX). Compared at 4 decimals on every point.
const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const haveData = existsSync(DATA);
if (!haveData) console.warn(`talib.test: ${DATA} is absent; skipping the TA-Lib comparisons`);

interface TaResult {
  begIndex: number;
  nbElement: number;
  result: Record<string, number[]>;
}
let talib: { execute(o: Record<string, unknown>): TaResult } | undefined;
try {
  talib = createRequire(import.meta.url)('talib');
} catch (e) {
  console.warn(`talib.test: the talib binding cannot be loaded (${(e as Error).message}); skipping`);
}

function csv(file: string): string[][] {
  return readFileSync(DATA + file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
}
function skenderSeries(): Series {
  const r = csv('indicators/skender/default.csv'); // date,open,high,low,close,volume
  return {
    open: r.map((x) => +x[1]),
    high: r.map((x) => +x[2]),
    low: r.map((x) => +x[3]),
    close: r.map((x) => +x[4]),
    volume: r.map((x) => +x[5]),
  };
}
function sseSeries(): Series {
  const r = csv('ohlcv/tdx_sh000001_index_daily.csv').slice(-1000); // date,open,high,low,close,amount,volume_lots,…
  return {
    open: r.map((x) => +x[1]),
    high: r.map((x) => +x[2]),
    low: r.map((x) => +x[3]),
    close: r.map((x) => +x[4]),
    volume: r.map((x) => +x[6]),
  };
}

/** Runs a TA-Lib function; output `out` padded with undefined to the input length. */
function ta(name: string, n: number, inputs: Record<string, unknown>, out = 'outReal'): Column {
  const r = talib!.execute({ name, startIdx: 0, endIdx: n - 1, ...inputs });
  const col: Column = new Array(n).fill(undefined);
  r.result[out].forEach((v, k) => {
    col[r.begIndex + k] = v;
  });
  return col;
}
/** TA-Lib on a column with a leading undefined warm-up. */
function taOn(name: string, x: Column, opts: Record<string, unknown>): Column {
  const skip = x.findIndex((v) => v !== undefined);
  return [...new Array(skip).fill(undefined), ...ta(name, x.length - skip, { inReal: x.slice(skip), ...opts })];
}

/** Points where the 4-decimal strings differ, or where presence differs (from `from` on). */
function diff(mine: Values[], key: string, ref: Column, from = 0): string[] {
  const bad: string[] = [];
  for (let i = from; i < mine.length; i++) {
    const a = mine[i][key],
      b = ref[i];
    const sa = a === undefined ? '-' : formatValue(a),
      sb = b === undefined ? '-' : formatValue(b);
    if (sa !== sb) bad.push(`${key}[${i}]: ${sa} vs TA-Lib ${sb}`);
  }
  if (!ref.slice(from).some((v) => v !== undefined)) bad.push(`${key}: nothing compared`);
  return bad;
}
/** First index from which a seed's weight decay^k has fallen below 1e-12. */
const settled = (decay: number, warm: number) => warm + Math.ceil(Math.log(1e-12) / Math.log(decay));

const series = haveData ? { 'skender default.csv': skenderSeries(), 'SSE index (last 1000)': sseSeries() } : {};

describe.skipIf(!haveData || !talib)('indicators vs TA-Lib', () => {
  for (const [label, s] of Object.entries(series)) {
    const n = s.close.length,
      { high, low, close, volume } = s;
    describe(label, () => {
      it('ma = SMA(5, 10, 20, 30, 60), same warm-up', () => {
        const mine = INDICATORS.ma.compute(s);
        const bad = [5, 10, 20, 30, 60].flatMap((p) => diff(mine, `ma${p}`, ta('SMA', n, { inReal: close, optInTimePeriod: p })));
        expect(bad).toEqual([]);
      });
      it('boll = BBANDS(20, 2, 2, SMA) (population std)', () => {
        const mine = INDICATORS.boll.compute(s);
        const o = { inReal: close, optInTimePeriod: 20, optInNbDevUp: 2, optInNbDevDn: 2, optInMAType: 0 };
        expect([
          ...diff(mine, 'mid', ta('BBANDS', n, o, 'outRealMiddleBand')),
          ...diff(mine, 'upper', ta('BBANDS', n, o, 'outRealUpperBand')),
          ...diff(mine, 'lower', ta('BBANDS', n, o, 'outRealLowerBand')),
        ]).toEqual([]);
      });
      it('cci = CCI(14)', () => {
        expect(diff(INDICATORS.cci.compute(s), 'cci', ta('CCI', n, { high, low, close, optInTimePeriod: 14 }))).toEqual([]);
      });
      it('obv = OBV − first volume (TA-Lib starts at the first volume, we at 0)', () => {
        const ref = ta('OBV', n, { inReal: close, volume }).map((v) => (v === undefined ? v : v - volume[0]));
        expect(diff(INDICATORS.obv.compute(s), 'obv', ref)).toEqual([]);
      });
      it('tr = TRANGE; atr = SMA(TRANGE, 14)', () => {
        const mine = INDICATORS.atr.compute(s),
          tr = ta('TRANGE', n, { high, low, close });
        expect([...diff(mine, 'tr', tr), ...diff(mine, 'atr', taOn('SMA', tr, { optInTimePeriod: 14 }))]).toEqual([]);
      });
      it('wr = −WILLR(6, 10)', () => {
        const mine = INDICATORS.wr.compute(s);
        const bad = [6, 10].flatMap((p) =>
          diff(
            mine,
            `wr${p}`,
            ta('WILLR', n, { high, low, close, optInTimePeriod: p }).map((v) => (v === undefined ? v : -v)),
          ),
        );
        expect(bad).toEqual([]);
      });
      it('bias from SMA(6, 12, 24)', () => {
        const mine = INDICATORS.bias.compute(s);
        const bad = [6, 12, 24].flatMap((p) =>
          diff(
            mine,
            `bias${p}`,
            ta('SMA', n, { inReal: close, optInTimePeriod: p }).map((m, i) => (m === undefined ? m : (100 * (close[i] - m)) / m)),
          ),
        );
        expect(bad).toEqual([]);
      });
      it('dmi from TRANGE, PLUS_DM(1), MINUS_DM(1), SUM(14), SMA(6)', () => {
        const tr = taOn('SUM', ta('TRANGE', n, { high, low, close }), { optInTimePeriod: 14 });
        const dmp = taOn('SUM', ta('PLUS_DM', n, { high, low, optInTimePeriod: 1 }), { optInTimePeriod: 14 });
        const dmm = taOn('SUM', ta('MINUS_DM', n, { high, low, optInTimePeriod: 1 }), { optInTimePeriod: 14 });
        const pdi = dmp.map((v, i) => (v === undefined ? v : (v * 100) / tr[i]!));
        const mdi = dmm.map((v, i) => (v === undefined ? v : (v * 100) / tr[i]!));
        const dx = pdi.map((p, i) => (p === undefined ? p : (Math.abs(mdi[i]! - p) / (mdi[i]! + p)) * 100));
        const adx = taOn('SMA', dx, { optInTimePeriod: 6 });
        const adxr = adx.map((a, i) => (a === undefined || adx[i - 6] === undefined ? undefined : (a + adx[i - 6]!) / 2));
        const mine = INDICATORS.dmi.compute(s);
        expect([...diff(mine, 'pdi', pdi), ...diff(mine, 'mdi', mdi), ...diff(mine, 'adx', adx), ...diff(mine, 'adxr', adxr)]).toEqual([]);
      });
      it("kdj's RSV (3K − 2K′) = STOCHF fast %K(9)", () => {
        const k = INDICATORS.kdj.compute(s).map((v) => v.k);
        const rsv: Column = k.map((v, i) => (v === undefined ? v : 3 * v - 2 * (k[i - 1] ?? 50)));
        const ref = ta('STOCHF', n, { high, low, close, optInFastK_Period: 9, optInFastD_Period: 1, optInFastD_MAType: 0 }, 'outFastK');
        expect(
          diff(
            rsv.map((v): Values => (v === undefined ? {} : { rsv: v })),
            'rsv',
            ref,
          ),
        ).toEqual([]);
      });
      it('ema = EMA(12, 26) once the seed has decayed', () => {
        const mine = INDICATORS.ema.compute(s);
        expect([
          ...diff(mine, 'ema12', ta('EMA', n, { inReal: close, optInTimePeriod: 12 }), settled(11 / 13, 12)),
          ...diff(mine, 'ema26', ta('EMA', n, { inReal: close, optInTimePeriod: 26 }), settled(25 / 27, 26)),
        ]).toEqual([]);
      });
      it('macd: dif, dea = MACD(12, 26, 9) once the seeds have decayed; macd = 2·hist', () => {
        const mine = INDICATORS.macd.compute(s),
          from = settled(25 / 27, 34);
        const o = { inReal: close, optInFastPeriod: 12, optInSlowPeriod: 26, optInSignalPeriod: 9 };
        const hist = ta('MACD', n, o, 'outMACDHist').map((v) => (v === undefined ? v : 2 * v));
        expect([
          ...diff(mine, 'dif', ta('MACD', n, o, 'outMACD'), from),
          ...diff(mine, 'dea', ta('MACD', n, o, 'outMACDSignal'), from),
          ...diff(mine, 'macd', hist, from),
        ]).toEqual([]);
        expect(from).toBeLessThan(n - 100);
      });
      it('rsi = RSI(N) (Wilder) once the seed has decayed', () => {
        const periods = [6, 12, 24].filter((p) => settled((p - 1) / p, p) < n - 50);
        const mine = runStream(rsiStream(periods), s);
        const bad = periods.flatMap((p) =>
          diff(mine, `rsi${p}`, ta('RSI', n, { inReal: close, optInTimePeriod: p }), settled((p - 1) / p, p)),
        );
        expect(bad).toEqual([]);
        expect(periods.length).toBeGreaterThanOrEqual(2);
      });
    });
  }
});
