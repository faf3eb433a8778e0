import { describe, expect, it } from 'vitest';
import { formatScaled, percentOf } from './decimal.js';

/** The decimal text of v / 10^scale at `digits` decimals, rounded half away from zero, in BigInt arithmetic. */
function reference(v: number, scale: number, digits: number): string {
  let x = BigInt(v);
  if (digits < scale) {
    const div = 10n ** BigInt(scale - digits);
    const q = x / div,
      r = x % div;
    const a = r < 0n ? -r : r;
    x = q + (a * 2n >= div ? (r < 0n ? -1n : 1n) : 0n);
  } else x *= 10n ** BigInt(digits - scale);
  const neg = x < 0n,
    s = (neg ? -x : x).toString().padStart(digits + 1, '0');
  return (neg ? '-' : '') + (digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s);
}

describe('formatScaled', () => {
  it('matches exact BigInt arithmetic, up to the largest safe integer', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values = [0, 1, 5, 9, 10, 99, 100, 101, 1723500, 999999, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1];
    for (let i = 0; i < 3000; i++) values.push(Math.floor(rand() * 10 ** (1 + Math.floor(rand() * 15))));
    for (const v of values)
      for (const sign of [1, -1])
        for (const [scale, digits] of [
          [2, 2],
          [3, 2],
          [3, 3],
          [4, 4],
          [2, 0],
          [4, 2],
          [2, 4],
        ]) {
          const x = sign * v;
          if (digits > scale && !Number.isSafeInteger(x * 10 ** (digits - scale))) continue;
          expect(formatScaled(x, scale, digits), `${x} ${scale} ${digits}`).toBe(reference(x, scale, digits));
        }
    expect(formatScaled(1723500, 3, 2)).toBe('1723.50');
    expect(formatScaled(7, 2, 2)).toBe('0.07');
    expect(formatScaled(Number.MAX_SAFE_INTEGER, 4, 4)).toBe('900719925474.0991');
  });
});

describe('percentOf', () => {
  it('rounds half away from zero, on both sides', () => {
    expect(percentOf(1, 3)).toBe('33.33');
    expect(percentOf(1, 800)).toBe('0.13');
    expect(percentOf(-1, 800)).toBe('-0.13');
    expect(percentOf(-1, 1)).toBe('-100.00');
    expect(percentOf(0, 7)).toBe('0.00');
  });
});
