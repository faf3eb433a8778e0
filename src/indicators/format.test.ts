import { describe, expect, it } from 'vitest';
import { formatValue } from './format.js';

describe('formatValue', () => {
  it('gives 4 decimals, half away from zero, despite binary representation', () => {
    // Each of these doubles lies just below its decimal half, where toFixed rounds down.
    const cases: [number, string][] = [
      [8.00005, '8.0001'],
      [-8.00005, '-8.0001'],
      [10.00015, '10.0002'],
      [0.00045, '0.0005'],
      [(10.0001 + 10.0002) / 2, '10.0002'],
      [1 - 0.99995, '0.0001'],
      [0.00015 * 3, '0.0005'],
    ];
    for (const [v, s] of cases) {
      expect(v.toFixed(4)).not.toBe(s);
      expect(formatValue(v)).toBe(s);
    }
    expect(formatValue(1.00005)).toBe('1.0001');
    expect(formatValue(1.23455)).toBe('1.2346');
    expect(formatValue(1.000049)).toBe('1.0000');
    expect(formatValue(0.1 + 0.2)).toBe('0.3000');
  });
  it('pads, handles integers, large and tiny magnitudes', () => {
    expect(formatValue(0)).toBe('0.0000');
    expect(formatValue(7)).toBe('7.0000');
    expect(formatValue(-12.5)).toBe('-12.5000');
    expect(formatValue(0.0001)).toBe('0.0001');
    expect(formatValue(1e-7)).toBe('0.0000');
    expect(formatValue(123456789012.34567)).toBe('123456789012.3457');
    expect(formatValue(-987654321098)).toBe('-987654321098.0000');
    expect(formatValue(99.99995)).toBe('100.0000');
  });
  it('never produces "-0.0000"', () => {
    expect(formatValue(-0)).toBe('0.0000');
    expect(formatValue(-0.00004)).toBe('0.0000');
    expect(formatValue(-0.0000499999)).toBe('0.0000');
    expect(formatValue(-1e-12)).toBe('0.0000');
  });
  it('takes its fast path only where it equals the definition', () => {
    // The definition, spelled out: 12 significant digits (at least 4 decimals), then half away from zero.
    const slow = (v: number) => {
      const a = Math.abs(v);
      if (a < 1e-6) return '0.0000';
      const s = a.toPrecision(Math.max(12, (a < 1 ? 1 : String(Math.trunc(a)).length) + 4));
      const [i, f = ''] = s.split('.');
      let n = BigInt(i + f.slice(0, 4).padEnd(4, '0'));
      if ((f[4] ?? '0') >= '5') n += 1n;
      if (n === 0n) return '0.0000';
      const d = n.toString().padStart(5, '0');
      return `${v < 0 ? '-' : ''}${d.slice(0, -4)}.${d.slice(-4)}`;
    };
    let seed = 11;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    // Compared in plain code (a million expect calls took 30 s), the differences reported at once.
    const differ: [number, string, string][] = [];
    const check = (v: number) => {
      const got = formatValue(v),
        want = slow(v);
      if (got !== want) differ.push([v, got, want]);
    };
    for (let i = 0; i < 200_000; i++) {
      const scale = 10 ** Math.floor(rnd() * 12 - 6);
      check((rnd() - 0.3) * scale);
      // Values at and next to a half of the last decimal.
      const h = (Math.floor(rnd() * 1e8) + 0.5) / 1e4;
      for (const w of [h, h * (1 + 1e-15), h * (1 - 1e-15), -h]) check(w);
    }
    expect(differ.slice(0, 10)).toEqual([]);
  });
  it('rejects non-finite values', () => {
    expect(() => formatValue(NaN)).toThrow(RangeError);
    expect(() => formatValue(Infinity)).toThrow(RangeError);
  });
});
