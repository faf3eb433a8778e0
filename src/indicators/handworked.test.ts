import { describe, expect, it } from 'vitest';
import { divRoundHalfUp, formatScaled } from '../lib/decimal.js';
import { formatValue } from './format.js';
import { INDICATORS } from './registry.js';
import { seriesFromBars } from './series.js';
import type { Series, Values } from './types.js';

// Hand-worked checks, independent of the implementation: explicit numbers worked on paper,
// and a second implementation of each formula in exact rational arithmetic (BigInt), written
// straight from CONTRACT.md §2, over a 30-bar series. The exact value rounded half away from
// zero to 4 decimals must equal formatValue of the float implementation on every point.

class Q {
  constructor(
    readonly n: bigint,
    readonly d: bigint = 1n,
  ) {
    if (d < 0n) {
      this.n = -n;
      this.d = -d;
    }
  }
  static of(s: string | number): Q {
    const [i, f = ''] = String(s).split('.');
    return new Q(BigInt(i + f), 10n ** BigInt(f.length));
  }
  add(o: Q | number) {
    const b = Q.lift(o);
    return new Q(this.n * b.d + b.n * this.d, this.d * b.d);
  }
  sub(o: Q | number) {
    return this.add(Q.lift(o).mul(-1));
  }
  mul(o: Q | number) {
    const b = Q.lift(o);
    return new Q(this.n * b.n, this.d * b.d);
  }
  div(o: Q | number) {
    const b = Q.lift(o);
    return new Q(this.n * b.d, this.d * b.n);
  }
  cmp(o: Q | number) {
    const b = Q.lift(o);
    const x = this.n * b.d - b.n * this.d;
    return x > 0n ? 1 : x < 0n ? -1 : 0;
  }
  abs() {
    return this.n < 0n ? this.mul(-1) : this;
  }
  isZero() {
    return this.n === 0n;
  }
  str4() {
    return formatScaled(Number(divRoundHalfUp(this.n * 10000n, this.d)), 4, 4);
  }
  static lift(o: Q | number) {
    return typeof o === 'number' ? Q.of(o) : o;
  }
}
const max = (xs: Q[]) => xs.reduce((a, b) => (b.cmp(a) > 0 ? b : a));
const min = (xs: Q[]) => xs.reduce((a, b) => (b.cmp(a) < 0 ? b : a));
const avg = (xs: Q[]) => xs.reduce((a, b) => a.add(b), new Q(0n)).div(xs.length);

const words = (s: string) => s.trim().split(/\s+/);
const O = words(
  '19.89 19.09 19.18 18.53 19.30 18.91 18.97 18.22 18.67 18.47 18.11 18.22 17.33 17.57 18.09 18.08 18.49 19.51 19.04 18.27 18.97 19.70 20.27 19.95 19.36 19.74 20.16 20.70 20.63 19.80',
);
const H = words(
  '20.15 19.58 19.22 19.50 19.69 19.13 19.20 18.79 18.80 18.54 18.50 18.42 17.56 18.36 18.40 18.43 19.61 19.89 19.35 19.14 19.91 20.75 20.36 20.06 19.85 20.29 21.08 20.86 20.87 19.95',
);
const L = words(
  '19.30 19.00 18.32 18.30 19.11 18.55 18.20 17.97 18.32 17.76 17.82 17.47 17.06 17.43 17.75 17.79 18.38 19.13 18.28 18.20 18.62 19.55 19.66 19.38 19.08 19.56 20.00 20.59 19.97 19.15',
);
const C = words(
  '19.33 19.22 18.49 19.25 19.13 18.78 18.46 18.56 18.55 18.07 18.15 17.54 17.54 18.03 18.22 18.40 19.28 19.27 18.33 18.94 19.58 20.48 19.75 19.44 19.47 19.99 20.76 20.67 20.01 19.16',
);
const n = C.length;
const s: Series = { open: O.map(Number), high: H.map(Number), low: L.map(Number), close: C.map(Number), volume: C.map(() => 100000) };
const h = H.map(Q.of),
  l = L.map(Q.of),
  c = C.map(Q.of);

type Exact = (Q | undefined)[];
function compare(mine: Values[], key: string, exact: Exact): void {
  const got = mine.map((v) => (v[key] === undefined ? '-' : formatValue(v[key])));
  expect(got, key).toEqual(exact.map((q) => (q === undefined ? '-' : q.str4())));
  expect(
    exact.some((q) => q !== undefined),
    key,
  ).toBe(true);
}

describe('explicit hand-worked values', () => {
  const bars = (hs: number[], ls: number[], cs: number[]): Series => ({ open: cs, high: hs, low: ls, close: cs, volume: cs.map(() => 1) });
  it('kdj: a 9-bar window with close at 75% of its range', () => {
    // HHV 12, LLV 8, close 11: RSV 75; K = (75 + 2·50)/3 = 58.3333; D = (K + 100)/3 = 52.7778; J = 69.4444.
    const v = INDICATORS.kdj.compute(
      bars([10, 12, 11, 10, 10, 10, 10, 10, 11.5], [9, 9, 8, 9, 9, 9, 9, 9, 10], [10, 10, 10, 10, 10, 10, 10, 10, 11]),
    );
    expect(v.slice(0, 8).every((x) => Object.keys(x).length === 0)).toBe(true);
    expect([v[8].k, v[8].d, v[8].j].map(formatValue)).toEqual(['58.3333', '52.7778', '69.4444']);
  });
  it('rsi: closes 10, 11, 10.5', () => {
    // d = +1: both SMAs start at 1 → 100. d = −0.5: up (0 + 5·1)/6, abs (0.5 + 5·1)/6 → 5/5.5 = 90.9091;
    // for N = 24: up 23/24, abs 23.5/24 → 23/23.5 = 97.8723.
    const v = INDICATORS.rsi.compute(bars([10, 11, 10.5], [10, 11, 10.5], [10, 11, 10.5]));
    expect(v[0]).toEqual({});
    expect(formatValue(v[1].rsi6)).toBe('100.0000');
    expect(formatValue(v[2].rsi6)).toBe('90.9091');
    expect(formatValue(v[2].rsi24)).toBe('97.8723');
  });
  it('macd: closes 10, 11', () => {
    // EMA12 = (2·11 + 11·10)/13 = 132/13; EMA26 = (2·11 + 25·10)/27 = 272/27; DIF = 28/351;
    // DEA = (2·DIF + 8·0)/10 = 5.6/351; MACD = 2(DIF − DEA) = 44.8/351.
    const v = INDICATORS.macd.compute(bars([10, 11], [10, 11], [10, 11]));
    expect(v[0]).toEqual({ dif: 0, dea: 0, macd: 0 });
    expect([v[1].dif, v[1].dea, v[1].macd].map(formatValue)).toEqual(['0.0798', '0.0160', '0.1276']);
  });
  it('bias and wr', () => {
    // MA6 of 10,10,10,10,10,13 = 10.5; BIAS6 = 100·2.5/10.5 = 23.8095. WR6 = 100(12 − 11)/(12 − 8) = 25.
    const v = INDICATORS.bias.compute(bars([10, 10, 10, 10, 10, 13], [10, 10, 10, 10, 10, 13], [10, 10, 10, 10, 10, 13]));
    expect(v[4]).toEqual({});
    expect(formatValue(v[5].bias6)).toBe('23.8095');
    const w = INDICATORS.wr.compute(bars([9, 12, 9, 9, 9, 9], [8, 9, 9, 9, 9, 9], [9, 9, 9, 9, 9, 11]));
    expect(w[5]).toEqual({ wr6: 25 });
  });
  it('flat prices give the neutral values', () => {
    const flat = bars(new Array(40).fill(5), new Array(40).fill(5), new Array(40).fill(5));
    const last = (id: keyof typeof INDICATORS) => INDICATORS[id].compute(flat)[39];
    expect(last('kdj')).toEqual({ k: 50, d: 50, j: 50 });
    expect(last('rsi')).toEqual({ rsi6: 50, rsi12: 50, rsi24: 50 });
    expect(last('wr')).toEqual({ wr6: 50, wr10: 50 });
    expect(last('cci')).toEqual({ cci: 0 });
    expect(last('dmi')).toEqual({ pdi: 0, mdi: 0, adx: 0, adxr: 0 });
    expect(last('obv')).toEqual({ obv: 0 });
  });
  it('flat windows of prices whose float sums leave residue give the neutral values exactly', () => {
    // 10.37 as a double: 14 typical prices average 1.8e-15 off, 20 closes too. A flat window is
    // decided on the prices as decimals, so CCI is 0 (not ±66.6667 from a residue mean deviation)
    // and BOLL's deviation 0. The typical price is flat too when H, L, C differ but H + L + C does not.
    const hs = [10380, 10400, 10370, 10390],
      ls = [10360, 10340, 10370, 10330],
      cs = [10370, 10370, 10370, 10390];
    const at = (i: number) => i % 4;
    const toBars = (n: number, f: (i: number) => [number, number, number]) =>
      seriesFromBars(
        Array.from({ length: n }, (_, i) => {
          const [high, low, close] = f(i);
          return { ts: i, date: 20250101, open: close, high, low, close, volume: 100, amount: 1000 };
        }),
      );
    const flat = toBars(40, () => [10370, 10370, 10370]);
    const mixed = toBars(40, (i) => [hs[at(i)], ls[at(i)], cs[at(i)]]);
    const last = (id: keyof typeof INDICATORS, s: Series) => INDICATORS[id].compute(s)[39];
    expect(last('cci', flat)).toEqual({ cci: 0 });
    expect(last('cci', mixed)).toEqual({ cci: 0 });
    expect(last('boll', flat)).toEqual({ mid: 10.37, upper: 10.37, lower: 10.37 });
    expect(last('ma', flat)).toEqual({ ma5: 10.37, ma10: 10.37, ma20: 10.37, ma30: 10.37 });
    expect(last('bias', flat)).toEqual({ bias6: 0, bias12: 0, bias24: 0 });
    expect(last('atr', flat)).toEqual({ tr: 0, atr: 0 });
    expect(last('kdj', flat)).toEqual({ k: 50, d: 50, j: 50 });
    expect(last('rsi', flat)).toEqual({ rsi6: 50, rsi12: 50, rsi24: 50 });
    expect(last('wr', flat)).toEqual({ wr6: 50, wr10: 50 });
    expect(last('dmi', flat)).toEqual({ pdi: 0, mdi: 0, adx: 0, adxr: 0 });
  });
});

describe('exact rational re-implementation over 30 bars', () => {
  it('kdj', () => {
    let k = new Q(50n),
      d = new Q(50n);
    const K: Exact = [],
      D: Exact = [],
      J: Exact = [];
    for (let i = 0; i < n; i++) {
      if (i < 8) {
        K.push(undefined);
        D.push(undefined);
        J.push(undefined);
        continue;
      }
      const hh = max(h.slice(i - 8, i + 1)),
        ll = min(l.slice(i - 8, i + 1));
      const rsv = c[i].sub(ll).div(hh.sub(ll)).mul(100);
      k = rsv.add(k.mul(2)).div(3);
      d = k.add(d.mul(2)).div(3);
      K.push(k);
      D.push(d);
      J.push(k.mul(3).sub(d.mul(2)));
    }
    const v = INDICATORS.kdj.compute(s);
    compare(v, 'k', K);
    compare(v, 'd', D);
    compare(v, 'j', J);
  });
  it('rsi 6/12/24', () => {
    const v = INDICATORS.rsi.compute(s);
    for (const N of [6, 12, 24]) {
      let up: Q | undefined, ab: Q | undefined;
      const out: Exact = [undefined];
      for (let i = 1; i < n; i++) {
        const dd = c[i].sub(c[i - 1]),
          u = dd.cmp(0) > 0 ? dd : new Q(0n);
        up = up ? u.add(up.mul(N - 1)).div(N) : u;
        ab = ab
          ? dd
              .abs()
              .add(ab.mul(N - 1))
              .div(N)
          : dd.abs();
        out.push(up.div(ab).mul(100));
      }
      compare(v, `rsi${N}`, out);
    }
  });
  it('ema and macd', () => {
    const ema = (x: Q[], N: number): Q[] =>
      x.reduce<Q[]>(
        (acc, xi, i) => [
          ...acc,
          i === 0
            ? xi
            : xi
                .mul(2)
                .add(acc[i - 1].mul(N - 1))
                .div(N + 1),
        ],
        [],
      );
    const e12 = ema(c, 12),
      e26 = ema(c, 26),
      dif = e12.map((a, i) => a.sub(e26[i])),
      dea = ema(dif, 9);
    const e = INDICATORS.ema.compute(s),
      m = INDICATORS.macd.compute(s);
    compare(e, 'ema12', e12);
    compare(e, 'ema26', e26);
    compare(m, 'dif', dif);
    compare(m, 'dea', dea);
    compare(
      m,
      'macd',
      dif.map((x, i) => x.sub(dea[i]).mul(2)),
    );
  });
  it('bias 6/12/24 and wr 6/10', () => {
    const b = INDICATORS.bias.compute(s),
      w = INDICATORS.wr.compute(s);
    for (const N of [6, 12, 24]) {
      compare(
        b,
        `bias${N}`,
        c.map((ci, i) => {
          if (i < N - 1) return undefined;
          const ma = avg(c.slice(i - N + 1, i + 1));
          return ci.sub(ma).div(ma).mul(100);
        }),
      );
    }
    for (const N of [6, 10]) {
      compare(
        w,
        `wr${N}`,
        c.map((ci, i) => {
          if (i < N - 1) return undefined;
          const hh = max(h.slice(i - N + 1, i + 1)),
            ll = min(l.slice(i - N + 1, i + 1));
          return hh.sub(ci).div(hh.sub(ll)).mul(100);
        }),
      );
    }
  });
  it('dmi 14/6', () => {
    const zero = new Q(0n);
    const tr = c.map((_, i) => (i === 0 ? zero : max([h[i].sub(l[i]), c[i - 1].sub(h[i]).abs(), c[i - 1].sub(l[i]).abs()])));
    const hd = h.map((x, i) => (i === 0 ? zero : x.sub(h[i - 1]))),
      ld = l.map((x, i) => (i === 0 ? zero : l[i - 1].sub(x)));
    const dmp = hd.map((x, i) => (x.cmp(0) > 0 && x.cmp(ld[i]) > 0 ? x : zero));
    const dmm = ld.map((x, i) => (x.cmp(0) > 0 && x.cmp(hd[i]) > 0 ? x : zero));
    const sum14 = (x: Q[], i: number) => x.slice(i - 13, i + 1).reduce((a, b) => a.add(b), zero);
    const pdi: Exact = [],
      mdi: Exact = [],
      dx: Exact = [],
      adx: Exact = [],
      adxr: Exact = [];
    for (let i = 0; i < n; i++) {
      if (i < 14) {
        pdi.push(undefined);
        mdi.push(undefined);
        dx.push(undefined);
        adx.push(undefined);
        adxr.push(undefined);
        continue;
      }
      const t = sum14(tr, i),
        p = sum14(dmp, i).mul(100).div(t),
        m = sum14(dmm, i).mul(100).div(t);
      pdi.push(p);
      mdi.push(m);
      dx.push(m.sub(p).abs().div(m.add(p)).mul(100));
      adx.push(i >= 19 ? avg(dx.slice(i - 5, i + 1) as Q[]) : undefined);
      adxr.push(i >= 25 ? adx[i]!.add(adx[i - 6]!).div(2) : undefined);
    }
    const v = INDICATORS.dmi.compute(s);
    compare(v, 'pdi', pdi);
    compare(v, 'mdi', mdi);
    compare(v, 'adx', adx);
    compare(v, 'adxr', adxr);
    expect(tr.length).toBe(n);
  });
});
