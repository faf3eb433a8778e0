/**
 * Column types of the ingest/export file formats: each turns the text of a field (API units:
 * `YYYY-MM-DD` dates, RFC 3339 timestamps, exact decimal strings, `CODE.MARKET` ids) into the
 * stored value (see store/schema.ts) and back. No value passes through a float.
 */
import { formatScaled, parseScaled } from '../lib/decimal.js';
import { formatDate, formatTimestamp, marketEpoch, parseDate, parseDateTime } from '../lib/time.js';
import type { Resolver } from './context.js';
import { INSTRUMENT_KINDS, type InstrumentKind } from '../market/kinds.js';

/** Returned by `parse` for a value that is not of the column's type. */
export const BAD: unique symbol = Symbol('bad');
export type Parsed = string | number | typeof BAD;

/**
 * A column's type; `V` is the stored value's type (a number for dates, decimals, counts and
 * instruments; text for text, enums and exact decimal text), which the store's table types take.
 */
export interface ColumnType<V extends string | number = string | number> {
  /** Type name for the docs, e.g. `decimal(3)`, `date`, `enum`. */
  type: string;
  /** What a field must hold, for error messages and the docs. */
  expected: string;
  /** JSON type in NDJSON files: numbers for counts, strings for everything else. */
  json: 'number' | 'string';
  /** A non-empty field → the stored value, or BAD. */
  parse(raw: string, r: Resolver): V | typeof BAD;
  /** A stored value → the field text. */
  format(v: string | number, r: Resolver): string;
  /**
   * The stored value of an empty or absent field of an optional column kept NOT NULL, whose
   * absence the store marks in-band (a bar's unknown amount: UNKNOWN_AMOUNT, store/schema.ts);
   * exported as an empty field again. Unset: an empty field is stored as NULL.
   */
  empty?: number;
  /** A decimal's scale (stored as an integer × 10^scale) and the decimals it is written with. */
  scale?: number;
  digits?: number;
  /** An enum's values. */
  values?: readonly string[];
}

const MIN_YEAR = 1900,
  MAX_YEAR = 2199;

/** Free text (any characters but NUL, which neither store keeps). */
export function text(expected = 'text without NUL characters'): ColumnType<string> {
  return { type: 'text', expected, json: 'string', parse: (s) => (s.includes('\u0000') ? BAD : s), format: (v) => String(v) };
}

/** Text matching `re` (identifiers, codes). */
export function pattern(re: RegExp, expected: string): ColumnType<string> {
  return { type: 'text', expected, json: 'string', parse: (s) => (re.test(s) ? s : BAD), format: (v) => String(v) };
}

export function oneOf<const T extends string>(values: readonly T[]): ColumnType<T> {
  const set = new Set<string>(values);
  return {
    type: 'enum',
    values,
    expected: `one of ${values.join(', ')}`,
    json: 'string',
    parse: (s) => (set.has(s) ? (s as T) : BAD),
    format: (v) => String(v),
  };
}

/** Digits of s[i..i+n) as a number, or -1. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

const validDays = new Map<number, boolean>();
/** `YYYY-MM-DD` at s[0..10) as YYYYMMDD (a real date within the supported years), else null. */
function dateAt(s: string): number | null {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return null;
  const y = digits(s, 0, 4),
    m = digits(s, 5, 2),
    d = digits(s, 8, 2);
  if (y < MIN_YEAR || y > MAX_YEAR || m < 0 || d < 0) return null;
  const v = y * 10000 + m * 100 + d;
  let ok = validDays.get(v);
  if (ok === undefined) {
    ok = parseDate(s.slice(0, 10)) !== null;
    validDays.set(v, ok);
  }
  return ok ? v : null;
}

export const date: ColumnType<number> = {
  type: 'date',
  expected: 'a date YYYY-MM-DD',
  json: 'string',
  parse: (s) => (s.length === 10 ? (dateAt(s) ?? BAD) : BAD),
  format: (v) => formatDate(v as number),
};

const dayEpoch = new Map<number, number>();

/** Epoch seconds; RFC 3339 (an offset other than +08:00 is converted; none means market time). */
export const timestamp: ColumnType<number> = {
  type: 'timestamp',
  expected: 'an RFC 3339 date-time in whole seconds, e.g. 2024-03-01T10:30:00+08:00',
  json: 'string',
  parse(s) {
    // Fast path: the canonical `YYYY-MM-DDTHH:MM:SS+08:00` that export writes.
    if (s.length === 25 && s.charCodeAt(10) === 84 && s.charCodeAt(13) === 58 && s.charCodeAt(16) === 58 && s.endsWith('+08:00')) {
      const d = dateAt(s);
      const hh = digits(s, 11, 2),
        mi = digits(s, 14, 2),
        ss = digits(s, 17, 2);
      if (d === null || hh < 0 || mi < 0 || ss < 0 || hh > 23 || mi > 59 || ss > 59) return BAD;
      let base = dayEpoch.get(d);
      if (base === undefined) {
        base = marketEpoch(d, 0);
        dayEpoch.set(d, base);
      }
      return base + hh * 3600 + mi * 60 + ss;
    }
    const p = parseDateTime(s);
    if (p === null || p.dateOnly || p.ms % 1000 !== 0) return BAD;
    return p.ms / 1000;
  },
  format: (v) => formatTimestamp(v as number),
};

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];

/**
 * parseScaled (lib/decimal.ts) with a fast path for plain `[-]digits[.digits]` text: the same
 * exact integer arithmetic without a regex; anything else goes to parseScaled itself.
 */
export function scaled(s: string, scale: number): number | null {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  if (n === i || n > 16) return parseScaled(s, scale);
  let v = 0,
    frac = -1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (frac >= 0 && ++frac > scale) return parseScaled(s, scale);
      v = v * 10 + (c - 48);
    } else if (c === 46 && frac < 0 && i > 0 && s.charCodeAt(i - 1) !== 45 && i < n - 1) frac = 0;
    else return parseScaled(s, scale);
  }
  v *= POW10[scale - Math.max(frac, 0)];
  if (!Number.isSafeInteger(v)) return parseScaled(s, scale);
  return s.charCodeAt(0) === 45 && v !== 0 ? -v : v;
}

/** A whole number within [min, 2^53). */
export function int(min = 0, unit = ''): ColumnType<number> {
  return {
    type: 'integer',
    expected: `an integer${min === 0 ? ' >= 0' : ''}${unit ? ` (${unit})` : ''}`,
    json: 'number',
    parse(s) {
      const n = scaled(s, 0);
      return n === null || n < min ? BAD : n;
    },
    format: (v) => String(v),
  };
}

/**
 * An exact decimal stored as an integer scaled by 10^scale (prices 3, money 2, ...). Written
 * with trailing zeros trimmed down to `digits` decimals, so `1723.500` is `1723.50`.
 */
export function decimal(scale: number, digits = scale, opts: { min?: number; unit?: string } = {}): ColumnType<number> {
  const min = opts.min ?? -Infinity;
  const sign = min > 0 ? 'a positive decimal' : min === 0 ? 'a non-negative decimal' : 'a decimal';
  return {
    type: `decimal(${scale})`,
    scale,
    digits,
    json: 'string',
    expected: `${sign} string with at most ${scale} decimal${scale === 1 ? '' : 's'}${opts.unit ? ` (${opts.unit})` : ''}`,
    parse(s) {
      const n = scaled(s, scale);
      return n === null || n < min ? BAD : n;
    },
    format(v) {
      let out = formatScaled(v as number, scale, scale);
      if (scale === 0 || digits >= scale) return out;
      let end = out.length;
      while (end > out.length - (scale - digits) && out.charCodeAt(end - 1) === 48) end--;
      out = out.slice(0, end);
      return out.endsWith('.') ? out.slice(0, -1) : out;
    },
  };
}

/**
 * A positive exact decimal with at most `scale` decimals and 12 integer digits, finer than a
 * scaled safe integer holds (16-decimal adjustment factors): stored as its canonical text, no
 * leading zeros and no trailing decimal zeros (`01.2500` is `1.25`, `1.000` is `1`), so that
 * equal values are equal rows. Never passes through a float.
 */
export function positiveDecimalText(scale: number, unit: string): ColumnType<string> {
  const re = new RegExp(`^(\\d{1,12})(?:\\.(\\d{1,${scale}}))?$`);
  return {
    type: `decimal(${scale})`,
    json: 'string',
    expected: `a positive decimal string with at most ${scale} decimals (${unit})`,
    parse(s) {
      const m = re.exec(s);
      if (!m) return BAD;
      const int = m[1].replace(/^0+(?=\d)/, ''),
        frac = (m[2] ?? '').replace(/0+$/, '');
      if (int === '0' && frac === '') return BAD;
      return frac ? `${int}.${frac}` : int;
    },
    format: (v) => String(v),
  };
}

export const ID_RE = /^\d{6}\.(SH|SZ|BJ)$/;

/** An instrument id (CODE.MARKET) that exists (in the store or earlier in the command); stored as `inst`. */
export function instrument(kinds: readonly InstrumentKind[] = INSTRUMENT_KINDS): ColumnType<number> {
  const what = kinds.length === 3 ? 'instrument' : kinds.join(' or ');
  return {
    type: 'instrument_id',
    json: 'string',
    expected: `the id (CODE.MARKET) of a known ${what}: in the store or in this command's instruments`,
    parse: (s, r) => r.inst(s, kinds) ?? BAD,
    format: (v, r) => r.id(v as number),
  };
}
