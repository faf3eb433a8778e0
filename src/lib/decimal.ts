/**
 * Exact decimals. Stored values are integers scaled by 10^scale (prices in milli-yuan, money
 * in fen); they are rendered as decimal strings without ever passing through a float.
 * See CONTRACT.md §5.
 */
export const PRICE_SCALE = 3; // prices stored in 1/1000 CNY (funds tick at 0.001)
export const MONEY_SCALE = 2; // money stored in fen

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];
const ZEROS = '00000000';

/**
 * Renders integer `v` (scaled by 10^scale) with `digits` decimals, rounding half away from zero
 * when digits < scale. formatScaled(1723500, 3, 2) === "1723.50".
 */
export function formatScaled(v: number, scale: number, digits: number): string {
  if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${v}`);
  let x = v;
  if (digits < scale) {
    const div = POW10[scale - digits];
    const q = Math.trunc(x / div),
      r = x - q * div;
    x = q + (Math.abs(r) * 2 >= div ? Math.sign(r) : 0);
  } else if (digits > scale) {
    x = x * POW10[digits - scale];
  }
  if (digits === 0) return String(x);
  if (x >= 0) {
    // Integer part and remainder, both exact for safe integers (x - r is a multiple of p).
    const p = POW10[digits],
      r = x % p,
      frac = String(r);
    return (x - r) / p + '.' + (frac.length < digits ? ZEROS.slice(0, digits - frac.length) + frac : frac);
  }
  const neg = x < 0;
  const s = String(neg ? -x : x).padStart(digits + 1, '0');
  return (neg ? '-' : '') + s.slice(0, s.length - digits) + '.' + s.slice(s.length - digits);
}

/** `a` in percent of `b` (integers of one unit), 2 decimals, half away from zero. percentOf(1, 3) === "33.33". */
export function percentOf(a: number, b: number): string {
  return formatScaled(Math.round((Math.abs(a) * 10000) / b) * Math.sign(a), 2, 2);
}

/** Parses a decimal string into an integer scaled by 10^scale; null when not exact at that scale. */
export function parseScaled(s: string, scale: number): number | null {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!m) return null;
  let frac = m[3] ?? '';
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) return null;
    frac = frac.slice(0, scale);
  }
  const v = Number(m[2] + frac.padEnd(scale, '0'));
  if (!Number.isSafeInteger(v)) return null;
  return m[1] === '-' ? -v : v;
}

/** Rounds a non-negative rational a/b half-up to an integer, exactly (BigInt). */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  const neg = a < 0n !== b < 0n;
  const aa = a < 0n ? -a : a,
    bb = b < 0n ? -b : b;
  const q = (aa * 2n + bb) / (bb * 2n);
  return neg ? -q : q;
}
