import { PRICE_SCALE } from '../lib/decimal.js';

/**
 * Numbers and dates written as ASCII digits straight into a byte array at a position, returning
 * the position after them: the arithmetic under every JSON writer (json-bytes.ts). Pure functions
 * over constant tables.
 */

/**
 * The digits of 0..99, two bytes each, zero-padded: 200 bytes, which stay in the CPU's first
 * cache level (a 40 KB table of four digits was slower in the server than in a loop).
 */
const D2 = new Uint8Array(200);
for (let n = 0; n < 100; n++) {
  D2[2 * n] = 48 + Math.floor(n / 10);
  D2[2 * n + 1] = 48 + (n % 10);
}

/** Writes 0 <= n < 100 as two digits at b[p]. */
export const pair = (b: Uint8Array, p: number, n: number) => {
  b[p] = D2[2 * n];
  b[p + 1] = D2[2 * n + 1];
};

/** Writes 0 <= n < 10000 as four digits at b[p]. */
export const quad = (b: Uint8Array, p: number, n: number) => {
  const hi = Math.floor(n / 100);
  pair(b, p, hi);
  pair(b, p + 2, n - 100 * hi);
};

export const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];

/** Writes a non-negative safe integer at b[p] without leading zeros; returns the position after it. */
export function uintAt(b: Uint8Array, p: number, n: number): number {
  if (n < 10) {
    b[p] = 48 + n;
    return p + 1;
  }
  if (n < 100) {
    pair(b, p, n);
    return p + 2;
  }
  if (n >= 10000) return largeAt(b, p, n);
  const hi = Math.floor(n / 100);
  if (hi < 10) b[p++] = 48 + hi;
  else {
    pair(b, p, hi);
    p += 2;
  }
  pair(b, p, n - 100 * hi);
  return p + 2;
}

/**
 * uintAt of n >= 10000, four digits at a time by division and floor (the correction keeps a
 * double's quotient exact); a function of its own so that uintAt, not recursive, is inlined.
 */
function largeAt(b: Uint8Array, p: number, n: number): number {
  if (n <= 0x7fffffff) {
    // In 32-bit integer arithmetic (exact below 2^31): most volumes.
    const h = (n / 10000) | 0;
    p = uintAt(b, p, h);
    quad(b, p, n - h * 10000);
    return p + 4;
  }
  let hi = Math.floor(n / 10000),
    lo = n - hi * 10000;
  if (lo < 0) {
    hi--;
    lo += 10000;
  } else if (lo >= 10000) {
    hi++;
    lo -= 10000;
  }
  p = hi < 10000 ? uintAt(b, p, hi) : largeAt(b, p, hi);
  quad(b, p, lo);
  return p + 4;
}

/**
 * floor(k / d) of a non-negative safe integer `k`, exact where the double quotient rounds (one
 * step of correction): division and floor, not %, as numbers read from packs are doubles.
 */
function quotient(k: number, d: number): number {
  const q = Math.floor(k / d),
    r = k - q * d;
  return r < 0 ? q - 1 : r >= d ? q + 1 : q;
}

/**
 * Writes a safe integer `k` scaled by 10^digits as a decimal with `digits` decimals ("-12.34")
 * at b[p]; returns the position after it. Division and floor, not %: numbers read from packs
 * are doubles, and % on doubles is fmod.
 */
export function decimalAt(b: Uint8Array, p: number, k: number, digits: number): number {
  if (k < 0) {
    b[p++] = 45;
    k = -k;
  }
  const p10 = POW10[digits];
  const q = quotient(k, p10);
  let r = k - q * p10;
  p = uintAt(b, p, q);
  b[p++] = 46;
  if (digits === 2) {
    pair(b, p, r);
    return p + 2;
  }
  if (digits === 4) {
    quad(b, p, r);
    return p + 4;
  }
  for (let i = digits - 1; i >= 0; i--) {
    const f = Math.floor(r / 10);
    b[p + i] = 48 + r - 10 * f;
    r = f;
  }
  return p + digits;
}

/** Writes date yyyymmdd as YYYY-MM-DD at b[p] (by division and floor: dates read from packs are doubles); returns the position after it. */
export function dateAt(b: Uint8Array, p: number, d: number): number {
  const y = Math.floor(d / 10000),
    md = d - y * 10000,
    m = Math.floor(md / 100);
  quad(b, p, y);
  b[p + 4] = 45;
  pair(b, p + 5, m);
  b[p + 7] = 45;
  pair(b, p + 8, md - m * 100);
  return p + 10;
}

/** Copies `src` to b[p]; returns the position after it. */
export function copyAt(b: Uint8Array, p: number, src: Uint8Array): number {
  for (let i = 0, n = src.length; i < n; i++) b[p + i] = src[i];
  return p + src.length;
}

/** writePrice at b[p] (room checked by the caller); returns the position after it. */
export function priceAt(b: Uint8Array, p: number, v: number, digits: number): number {
  // The common case in 32-bit integer arithmetic: a stock's price (0 <= v < 2^31, 2 decimals),
  // rounded half up (away from zero, v being positive) to fen.
  if (digits === 2 && v >= 0 && v <= 0x7fffffff && (v | 0) === v) {
    const q = ((v + 5) / 10) | 0,
      whole = (q / 100) | 0;
    p = uintAt(b, p, whole);
    b[p] = 46;
    pair(b, p + 1, q - whole * 100);
    return p + 3;
  }
  return scaledAt(b, p, v, PRICE_SCALE, digits);
}

/**
 * Integer `v` scaled by 10^scale with `digits` decimals at b[p], rounded half away from zero
 * when digits < scale: what formatScaled(v, scale, digits) gives, as bytes; returns the position
 * after it.
 */
export function scaledAt(b: Uint8Array, p: number, v: number, scale: number, digits: number): number {
  if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${v}`);
  if (digits >= scale) return decimalAt(b, p, v * POW10[digits - scale], digits);
  // On the magnitude, by division and floor (no fmod), corrected when the quotient rounded.
  const div = POW10[scale - digits],
    a = v < 0 ? -v : v;
  let q = quotient(a, div);
  if (2 * (a - q * div) >= div) q++;
  return decimalAt(b, p, v < 0 ? -q : q, digits);
}
