import { describe, expect, it } from 'vitest';
import {
  adjustBars,
  buildFactors,
  decimalRational,
  exactReferencePrice,
  factorAt,
  formatFactor,
  prevCloseLookup,
  ratio,
  referencePrice,
  vendorBasis,
  type CorporateAction,
  type Factor,
} from './adjust.js';
import type { Bar } from './types.js';

// Hand-worked cases. Units: prices 1/1000 CNY, cash 1/100000 CNY, ratios in millionths.
const act = (p: Partial<CorporateAction> & { ex_date?: number }): CorporateAction => ({
  ex_date: 20240603,
  cash_per_share: 0,
  bonus_ratio: 0,
  transfer_ratio: 0,
  rights_ratio: 0,
  rights_price: 0,
  ...p,
});
const bar = (date: number, o: number, h: number, l: number, c: number, volume = 1_000_000): Bar => ({
  ts: 0,
  date,
  open: o,
  high: h,
  low: l,
  close: c,
  volume,
  amount: 123_456,
});

describe('referencePrice', () => {
  it('10派3 (0.30 cash) on a 10.00 close → 9.70', () => {
    expect(referencePrice(10_000, act({ cash_per_share: 30_000 }))).toBe(9_700);
  });
  it('10送3 (0.3 bonus) on a 13.00 close → 10.00', () => {
    expect(referencePrice(13_000, act({ bonus_ratio: 300_000 }))).toBe(10_000);
  });
  it('10配3 at 8.00 on a 12.00 close → (12 + 2.4)/1.3 = 11.0769… → 11.08', () => {
    const a = act({ rights_ratio: 300_000, rights_price: 8_000 });
    expect(referencePrice(12_000, a)).toBe(11_080);
    expect(exactReferencePrice(12_000, a)).toEqual({ num: 144_000n, den: 13n });
  });
  it('10送2转3派1配2 at 5.00 on 20.00 → (20 − 0.1 + 1.0)/1.7 = 12.2941… → 12.29', () => {
    const a = act({ bonus_ratio: 200_000, transfer_ratio: 300_000, cash_per_share: 10_000, rights_ratio: 200_000, rights_price: 5_000 });
    expect(referencePrice(20_000, a)).toBe(12_290);
  });
  it('rounds half-up: Vanke 2003-05-23, 10转10派2 on 13.81 → 6.805 → 6.81', () => {
    const a = act({ transfer_ratio: 1_000_000, cash_per_share: 20_000 });
    expect(exactReferencePrice(13_810, a)).toEqual({ num: 6_805n, den: 1n });
    expect(referencePrice(13_810, a)).toBe(6_810);
  });
  it('rounds to another tick when asked (funds, 0.001): 1.000 − 0.0123 → 0.988', () => {
    expect(referencePrice(1_000, act({ cash_per_share: 1_230 }), 1)).toBe(988);
  });
});

describe('buildFactors', () => {
  const closes: Record<number, number> = { 20240304: 13_000, 20240603: 10_000, 20240902: 6_000 };
  const prev = (d: number) => closes[d];
  const ev1 = act({ ex_date: 20240304, bonus_ratio: 300_000 }); // 13.00 → 10.00: × 13/10
  const ev2 = act({ ex_date: 20240603, cash_per_share: 30_000 }); // 10.00 → 9.70: × 100/97
  it('accumulates exact, reduced ratios in date order', () => {
    expect(buildFactors([ev2, ev1], prev)).toEqual([
      { ex_date: 20240304, num: 13n, den: 10n },
      { ex_date: 20240603, num: 130n, den: 97n },
    ]);
  });
  it('skips events with no previous close, no effect, or an impossible reference price', () => {
    const none = act({ ex_date: 20240902, rights_price: 31_530 }); // a placement: price but no rights ratio
    const early = act({ ex_date: 20200101, cash_per_share: 10_000 });
    const bad = act({ ex_date: 20240902, cash_per_share: 700_000 }); // 7.00 cash on a 6.00 close
    expect(buildFactors([ev1, none, early], prev)).toEqual([{ ex_date: 20240304, num: 13n, den: 10n }]);
    expect(buildFactors([bad], prev)).toEqual([]);
  });
  it('uses the exact reference price, or the one rounded to 0.01 on request', () => {
    const a = act({ ex_date: 20240304, transfer_ratio: 1_000_000, cash_per_share: 20_000 });
    const p = () => 13_810;
    expect(buildFactors([a], p)).toEqual([{ ex_date: 20240304, num: 2_762n, den: 1_361n }]); // 13.81/6.805
    expect(buildFactors([a], p, { roundRef: true })).toEqual([{ ex_date: 20240304, num: 1_381n, den: 681n }]); // 13.81/6.81
  });
  it('factorAt and prevCloseLookup', () => {
    const f = buildFactors([ev1, ev2], prev);
    expect(factorAt(f, 20240301)).toEqual({ num: 1n, den: 1n });
    expect(factorAt(f, 20240304)).toMatchObject({ num: 13n, den: 10n });
    expect(factorAt(f, 20250101)).toMatchObject({ num: 130n, den: 97n });
    const look = prevCloseLookup([bar(20240229, 1, 1, 1, 11), bar(20240301, 1, 1, 1, 12), bar(20240304, 1, 1, 1, 13)]);
    expect([look(20240229), look(20240304), look(20240305), look(20250101)]).toEqual([undefined, 12, 13, 13]);
  });
});

describe('adjustBars', () => {
  const f: Factor[] = [
    { ex_date: 20240304, num: 13n, den: 10n },
    { ex_date: 20240603, num: 130n, den: 97n },
  ];
  const bars = [
    bar(20240301, 13_000, 13_050, 12_990, 13_010, 1_300),
    bar(20240304, 10_050, 10_100, 10_000, 10_050, 2_000),
    bar(20240603, 9_700, 9_800, 9_690, 9_750, 970),
  ];
  it('none returns the raw bars', () => expect(adjustBars(bars, f, 'none')).toEqual(bars));
  it('backward: raw × cumulative factor, half-up to 0.01; volume inversely; amount kept', () => {
    const b = adjustBars(bars, f, 'backward');
    expect(b[0]).toEqual(bars[0]);
    // 10.050 × 1.3 = 13.065 → 13.07 (a tie, rounded up); 10.000 × 1.3 = 13.00; 2000 × 10/13 = 1538.46 → 1538.
    expect(b[1]).toEqual({ ...bars[1], open: 13_070, high: 13_130, low: 13_000, close: 13_070, volume: 1_538 });
    // × 130/97: 9.700 → 13.00; 9.800 → 13.134… → 13.13; 9.690 → 12.986… → 12.99; 9.750 → 13.067… → 13.07; 970 × 97/130 = 723.8 → 724.
    expect(b[2]).toEqual({ ...bars[2], open: 13_000, high: 13_130, low: 12_990, close: 13_070, volume: 724 });
  });
  it('forward: backward / latest factor, so the latest bars are raw', () => {
    const w = adjustBars(bars, f, 'forward');
    expect(w[2]).toEqual(bars[2]);
    // × 97/100: 10.050 → 9.7485 → 9.75; 10.100 → 9.797 → 9.80; 10.000 → 9.70; 2000 × 100/97 = 2061.86 → 2062.
    expect(w[1]).toEqual({ ...bars[1], open: 9_750, high: 9_800, low: 9_700, close: 9_750, volume: 2_062 });
    // × 97/130: 13.000 → 9.70; 13.050 → 9.7373 → 9.74; 12.990 → 9.6925 → 9.69; 13.010 → 9.7074… → 9.71; 1300 × 130/97 → 1742.
    expect(w[0]).toEqual({ ...bars[0], open: 9_700, high: 9_740, low: 9_690, close: 9_710, volume: 1_742 });
  });
  it('keeps low ≤ open, close ≤ high after rounding (random bars and factors)', () => {
    let x = 7;
    const rnd = (k: number) => (x = (x * 1103515245 + 12345) % 2 ** 31) % k;
    for (let t = 0; t < 300; t++) {
      const factors: Factor[] = [];
      let num = 1n,
        den = 1n;
      for (let e = 1; e <= 4; e++) {
        num *= BigInt(1 + rnd(5000));
        den *= BigInt(1 + rnd(5000));
        factors.push({ ex_date: 20240000 + e * 100 + 1, num, den });
      }
      const bs = Array.from({ length: 6 }, (_, i) => {
        const l = 1 + rnd(50_000),
          h = l + rnd(3_000);
        return bar(20240001 + i * 100, l + rnd(h - l + 1), h, l, l + rnd(h - l + 1), rnd(10_000_000));
      });
      for (const mode of ['backward', 'forward'] as const) {
        for (const b of adjustBars(bs, factors, mode, [1, 10][t % 2])) {
          expect(b.low <= b.open && b.open <= b.high && b.low <= b.close && b.close <= b.high, JSON.stringify(b)).toBe(true);
        }
      }
    }
  });
});

describe('published (vendor) factors', () => {
  it('decimalRational reads a decimal exactly, reduced', () => {
    expect(decimalRational('169.1453113717332000')).toEqual({ num: 422863278429333n, den: 2500000000000n });
    expect(decimalRational('1.208')).toEqual({ num: 151n, den: 125n });
    expect(decimalRational('3')).toEqual({ num: 3n, den: 1n });
    expect(() => decimalRational('1e3')).toThrow();
  });

  it('formatFactor: 16 decimals, half-up, trailing zeros dropped', () => {
    expect(formatFactor({ num: 422863278429333n, den: 2500000000000n })).toBe('169.1453113717332');
    expect(formatFactor({ num: 2n, den: 3n })).toBe('0.6666666666666667');
    expect(formatFactor({ num: 1n, den: 3n })).toBe('0.3333333333333333');
    expect(formatFactor({ num: 5n, den: 1n })).toBe('5');
    expect(formatFactor({ num: 1n, den: 8n }, 2)).toBe('0.13');
  });

  it('vendorBasis keeps the rows where the factor changes; the first row also covers the days before it', () => {
    // Tushare style: one row per trading day, 3 decimals; the factor changes on 2024-06-05.
    const b = vendorBasis([
      { date: 20240603, factor: '2.000' },
      { date: 20240604, factor: '2' },
      { date: 20240605, factor: '2.500' },
      { date: 20240606, factor: '2.5' },
      { date: 20240607, factor: '2.50' },
    ]);
    expect(b.source).toBe('vendor');
    expect(b.factors).toEqual([
      { ex_date: 20240603, num: 2n, den: 1n },
      { ex_date: 20240605, num: 5n, den: 2n },
    ]);
    expect(b.initial).toEqual({ num: 2n, den: 1n });
    expect(() =>
      vendorBasis([
        { date: 20240604, factor: '1' },
        { date: 20240603, factor: '2' },
      ]),
    ).toThrow();
  });

  it('adjustBars over a vendor basis: backward = raw × factor (the first factor before the first row), forward = raw × f / f(latest)', () => {
    const { factors, initial } = vendorBasis([
      { date: 20240603, factor: '2.000' },
      { date: 20240605, factor: '2.500' },
    ]);
    // 20240531 precedes the first row; 10.01 × 2 = 20.02; on 06-05 10.01 × 2.5 = 25.025 → 25.03 (half-up)
    const bs = [
      bar(20240531, 10_010, 10_010, 10_010, 10_010, 1_000),
      bar(20240604, 10_010, 10_010, 10_010, 10_010, 1_000),
      bar(20240605, 10_010, 10_010, 10_010, 10_010, 1_001),
    ];
    expect(adjustBars(bs, factors, 'backward', 10, initial).map((b) => [b.close, b.volume])).toEqual([
      [20_020, 500],
      [20_020, 500],
      [25_030, 400],
    ]); // volumes 1000/2, 1000/2, 1001/2.5 = 400.4 → 400
    // forward: 10.01 × 2/2.5 = 8.008 → 8.01; funds at 0.001: 8.008
    expect(adjustBars(bs, factors, 'forward', 10, initial).map((b) => [b.close, b.volume])).toEqual([
      [8_010, 1_250],
      [8_010, 1_250],
      [10_010, 1_001],
    ]);
    expect(adjustBars(bs, factors, 'forward', 1, initial).map((b) => b.close)).toEqual([8_008, 8_008, 10_010]);
    // Without `initial` (corporate actions), the days before the first factor are at 1.
    expect(adjustBars(bs, factors, 'backward')[0].close).toBe(10_010);
  });

  it('ratio divides exactly', () => {
    expect(ratio({ num: 2n, den: 1n }, { num: 5n, den: 2n })).toEqual({ num: 4n, den: 5n });
  });
});
