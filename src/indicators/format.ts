/**
 * Indicator values on the wire: decimal strings with 4 decimals (CONTRACT.md §5), rounded half
 * away from zero.
 *
 * Doubles carry representation and accumulated arithmetic error (1.00005 is stored as
 * 1.0000499999999999…, and an average may land a few ulps below a half), so `toFixed` would
 * round such values down. Here the value is first written with 12 significant digits (at
 * least 4 decimals), which absorbs errors below ~5e-13 relative, and that decimal string is
 * rounded half away from zero with integer arithmetic. "-0.0000" is never produced.
 */
const SIGNIFICANT = 12;
/** The decimals of every value (CONTRACT.md §5): an Arrow answer types values decimal128 of this scale. */
export const DECIMALS = 4;

export function formatValue(v: number): string {
  const k = scaledValue(v);
  if (k === null) return exact(v, Math.abs(v));
  if (k === 0) return '0.0000';
  const a = Math.abs(k),
    r = a % 10_000;
  return `${k < 0 ? '-' : ''}${(a - r) / 10_000}.${r < 1000 ? (r < 100 ? (r < 10 ? '000' : '00') : '0') : ''}${r}`;
}

/**
 * formatValue's result as an integer scaled by 10^4 (0 for "0.0000"), or null in the rare cases
 * only the exact path decides (large values, fractions within 1e-3 of a half).
 */
export function scaledValue(v: number): number | null {
  if (!Number.isFinite(v)) unwritable('is not finite', v);
  const a = Math.abs(v);
  if (a >= 1e21) unwritable('out of range', v);
  if (a < 1e-6) return 0;
  // Fast path, same result: below 1e5, writing 12 significant digits moves a·10^4 by at most
  // 5e-4 (and a·10^4 itself is within 2e-7 of exact), so only a fraction within 1e-3 of the
  // half can round differently; that rare case takes the exact path.
  if (a < 1e5) {
    const y = a * 10_000,
      n = Math.floor(y),
      f = y - n;
    if (Math.abs(f - 0.5) > 1e-3) {
      const k = f > 0.5 ? n + 1 : n;
      return k === 0 ? 0 : v < 0 ? -k : k;
    }
  }
  return null;
}

/**
 * Throws for a value no decimal string stands for. A call of its own: a message built where the
 * hot path inlines scaledValue was computed on every call by the optimising compiler (it moved
 * the number-to-string conversion out of the branch), a tenth of an indicator page's CPU.
 */
function unwritable(what: string, v: number): never {
  throw new RangeError(`indicator value ${what}: ${v}`);
}

/** The definition: 12 significant digits (at least 4 decimals), then half away from zero. */
function exact(v: number, a: number): string {
  const intDigits = a < 1 ? 1 : String(Math.trunc(a)).length;
  const s = a.toPrecision(Math.min(100, Math.max(SIGNIFICANT, intDigits + DECIMALS)));
  const [intPart, frac = ''] = s.split('.');
  let scaled = BigInt(intPart + frac.slice(0, DECIMALS).padEnd(DECIMALS, '0'));
  if ((frac[DECIMALS] ?? '0') >= '5') scaled += 1n;
  if (scaled === 0n) return '0.0000';
  const digits = scaled.toString().padStart(DECIMALS + 1, '0');
  return `${v < 0 ? '-' : ''}${digits.slice(0, -DECIMALS)}.${digits.slice(-DECIMALS)}`;
}
