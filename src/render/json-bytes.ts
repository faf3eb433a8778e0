import { LRUCache } from 'lru-cache';
import { PRICE_SCALE } from '../lib/decimal.js';
import { daysToDate, formatDate, formatTimestamp, marketEpoch, MARKET_OFFSET_SECONDS } from '../lib/time.js';
import { formatValue, scaledValue } from '../indicators/format.js';
import { INDICATORS, type IndicatorId } from '../indicators/registry.js';
import type { Values } from '../indicators/types.js';
import type { Bar, IntervalId } from '../market/types.js';
import { INTERVALS } from '../market/intervals.js';
import { KINDS, type InstrumentKind } from '../market/kinds.js';
import { AFTERNOON_CLOSE } from '../market/sessions.js';
import { money2 } from './money.js';

const SLAB = 256 * 1024;
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
const pair = (b: Uint8Array, p: number, n: number) => {
  b[p] = D2[2 * n];
  b[p + 1] = D2[2 * n + 1];
};

/** Writes 0 <= n < 10000 as four digits at b[p]. */
const quad = (b: Uint8Array, p: number, n: number) => {
  const hi = Math.floor(n / 100);
  pair(b, p, hi);
  pair(b, p + 2, n - 100 * hi);
};

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];

/** Writes a non-negative safe integer at b[p] without leading zeros; returns the position after it. */
function uintAt(b: Uint8Array, p: number, n: number): number {
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
 * Writes a safe integer `k` scaled by 10^digits as a decimal with `digits` decimals ("-12.34")
 * at b[p]; returns the position after it. Division and floor, not %: numbers read from packs
 * are doubles, and % on doubles is fmod.
 */
function decimalAt(b: Uint8Array, p: number, k: number, digits: number): number {
  if (k < 0) {
    b[p++] = 45;
    k = -k;
  }
  const p10 = POW10[digits];
  let q = Math.floor(k / p10),
    r = k - q * p10;
  if (r < 0) {
    q--;
    r += p10;
  } else if (r >= p10) {
    q++;
    r -= p10;
  }
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
function dateAt(b: Uint8Array, p: number, d: number): number {
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

/**
 * The slab that JSON bodies are written into, and where the next body may start in it. Bodies
 * are handed out as views of the slab (no copy, no allocation per body); a slab is replaced
 * when full and freed once no body refers to it. One per owner: the app makes one (buildApp)
 * for its responses, a derived-data writer one for the pages it renders; nothing is shared by
 * the process.
 */
export class Renderer {
  /** The slab bodies are written into now. */
  slab = Buffer.allocUnsafeSlow(SLAB);
  /** Where the next body may start in the slab. */
  used = 0;

  /** A writer at the free end of the slab, empty. Write a body from here to `take()` synchronously (no await in between). */
  start(): JsonBytes {
    return new JsonBytes(this);
  }
}

/**
 * JSON of the hottest collections written as bytes: constant text is copied from pre-encoded
 * buffers and numbers are written digit by digit, into a Renderer's slab, so that a page of
 * 100 bars or indicator points makes no string per value, no rope to flatten and no garbage
 * per item (half the CPU of concatenating strings, measured on a page of MACD points). Writers
 * produce ASCII only (ids and other text as \u escapes past U+007E).
 */
export class JsonBytes {
  private buf: Buffer;
  private from: number;
  private pos: number;
  /** The last day number and its date (consecutive intraday bars share their day). */
  private day = NaN;
  private dayDate = 0;

  /** A writer at the free end of `owner`'s slab, empty (Renderer.start). */
  constructor(private readonly owner: Renderer) {
    this.buf = owner.slab;
    this.from = this.pos = owner.used;
  }

  get length(): number {
    return this.pos - this.from;
  }

  /** The bytes written, as a view of the slab (later bodies are written after them). */
  take(): Buffer {
    const owner = this.owner;
    if (this.buf === owner.slab) owner.used = (this.pos + 7) & ~7;
    return this.buf.subarray(this.from, this.pos);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    // A fresh slab, with what this body has so far at its start.
    const len = this.pos - this.from;
    const next = Buffer.allocUnsafeSlow(Math.max(SLAB, 2 * (len + n)));
    this.buf.copy(next, 0, this.from, this.pos);
    this.owner.slab = next;
    this.owner.used = 0;
    this.buf = next;
    this.from = 0;
    this.pos = len;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    // A short constant is copied faster by hand than by a call into TypedArray.set.
    if (n > 32) this.buf.set(b, this.pos);
    else for (let i = 0, buf = this.buf, p = this.pos; i < n; i++) buf[p + i] = b[i];
    this.pos += n;
  }

  /** Takes back the last byte written if it is `c` (and something was written). */
  drop(c: number): void {
    if (this.pos > this.from && this.buf[this.pos - 1] === c) this.pos--;
  }

  byte(c: number): void {
    this.room(1);
    this.buf[this.pos++] = c;
  }

  /** Any text, as UTF-8 (the collection envelope: links repeat the request's URL). */
  utf8(s: string): void {
    this.room(Buffer.byteLength(s));
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** Text known to be ASCII (rare paths: a value formatted as a string). */
  ascii(s: string): void {
    this.room(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
  }

  /** A JSON string literal of `s`: printable ASCII as is, anything else through asciiJson. */
  string(s: string): void {
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c > 126 || c === 34 || c === 92) {
        this.ascii(asciiJson(s));
        return;
      }
    }
    this.room(n + 2);
    const b = this.buf;
    b[this.pos++] = 34;
    this.pos += b.write(s, this.pos, 'latin1');
    b[this.pos++] = 34;
  }

  /** A non-negative safe integer. */
  uint(n: number): void {
    this.room(16);
    this.pos = uintAt(this.buf, this.pos, n);
  }

  /** Integer `v` scaled by 10^scale with `digits` decimals, rounded half away from zero (formatScaled's text). */
  scaled(v: number, scale: number, digits: number): void {
    this.room(24 + digits);
    this.pos = scaledAt(this.buf, this.pos, v, scale, digits);
  }

  /** A safe integer `k` scaled by 10^digits as a decimal with `digits` decimals ("-12.34"). */
  decimal(k: number, digits: number): void {
    this.room(24 + digits);
    this.pos = decimalAt(this.buf, this.pos, k, digits);
  }

  /**
   * An indicator point: `head`, the date (daily) or timestamp and the trade date, then what `body` writes of its
   * values (a compiled PointBody), in one pass; `max` bounds its length. Returns false, having
   * written nothing, when `body` declines the point.
   */
  indicatorPoint(head: Uint8Array, daily: boolean, ts: number, date: number, body: PointBody, v: Values, max: number): boolean {
    this.room(max);
    const start = this.pos;
    this.buf.set(head, start);
    this.pos = start + head.length;
    this.pointTime(daily, ts, date);
    const p = body(this.buf, this.pos, v);
    if (p < 0) {
      this.pos = start;
      return false;
    }
    this.pos = p;
    return true;
  }

  /**
   * The `timestamp` and `trade_date` of a point of bar (ts, date), after `"timestamp":"` and up
   * to the closing quote of the date: a daily bar's timestamp is its day's close.
   */
  pointTime(daily: boolean, ts: number, date: number): void {
    if (daily) {
      this.date(date);
      this.bytes(closeTradeDate);
    } else {
      this.timestamp(ts);
      this.bytes(tradeDateKey);
    }
    this.date(date);
  }

  /**
   * A bar's fields from its open on, `o","high":"h","low":"l","close":"c","volume":v,"amount":"a"}`
   * (`,"amount":null}` when `a` is null): prices in 1/1000 CNY at `digits` decimals (writePrice),
   * the amount in fen; with one check of the room left (the bars pages' hottest loop).
   */
  barTail(o: number, h: number, l: number, c: number, v: number, a: number | null, digits: number): void {
    this.room(320);
    const b = this.buf;
    let p = priceAt(b, this.pos, o, digits);
    p = priceAt(b, copyAt(b, p, high), h, digits);
    p = priceAt(b, copyAt(b, p, low), l, digits);
    p = priceAt(b, copyAt(b, p, close), c, digits);
    p = uintAt(b, copyAt(b, p, volume), v);
    this.pos = a === null ? copyAt(b, p, amountNull) : copyAt(b, decimalAt(b, copyAt(b, p, amount), a, 2), end);
  }

  /**
   * `tpl` with date yyyymmdd written as YYYY-MM-DD over its 10 bytes at each of `at` (a daily
   * bar's start: its text up to the open, the date twice, copied in one piece).
   */
  dated(tpl: Uint8Array, at: readonly number[], d: number): void {
    this.room(tpl.length);
    const b = this.buf,
      p = this.pos;
    b.set(tpl, p);
    for (const a of at) dateAt(b, p + a, d);
    this.pos = p + tpl.length;
  }

  /** A date yyyymmdd as YYYY-MM-DD (by division and floor: dates read from packs are doubles). */
  date(d: number): void {
    this.room(10);
    this.pos = dateAt(this.buf, this.pos, d);
  }

  /** Seconds into a day (0..86399) as hh:mm:ss. */
  clock(rem: number): void {
    this.room(8);
    const hh = Math.floor(rem / 3600),
      r = rem - hh * 3600,
      mi = Math.floor(r / 60);
    const b = this.buf,
      p = this.pos;
    pair(b, p, hh);
    b[p + 2] = 58;
    pair(b, p + 3, mi);
    b[p + 5] = 58;
    pair(b, p + 6, r - mi * 60);
    this.pos = p + 8;
  }

  /** Epoch seconds as RFC 3339 in market time, as formatTimestamp writes them (2024-03-01T10:30:00+08:00). */
  timestamp(sec: number): void {
    const local = sec + MARKET_OFFSET_SECONDS;
    const days = Math.floor(local / 86_400);
    if (days !== this.day) {
      this.day = days;
      this.dayDate = daysToDate(days);
    }
    this.date(this.dayDate);
    this.byte(84);
    this.clock(local - days * 86_400);
    this.bytes(OFFSET);
  }
}

/** Writers made for an instrument and its parameters, kept (a few hundred bytes each) so that a request reuses them. */
const writers = new LRUCache<string, (...args: any[]) => void>({ max: 20_000 });
function memo<W extends (...args: any[]) => void>(key: string, make: () => W): W {
  let w = writers.get(key) as W | undefined;
  if (!w) {
    w = make();
    writers.set(key, w);
  }
  return w;
}
const latin1 = (s: string) => Buffer.from(s, 'latin1');
const OFFSET = latin1('+08:00');

/** A JSON string literal in ASCII: anything past U+007E written as a \u escape. */
export const asciiJson = (s: string) =>
  JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The time of day of a daily record's timestamp, its close: "T15:00:00+08:00". */
const CLOSE_TIME = formatTimestamp(marketEpoch(19700101, AFTERNOON_CLOSE)).slice(10);
const [closeTradeDate, open, high, low, close, volume, amount, end, amountNull] = [
  `${CLOSE_TIME}","trade_date":"`,
  '","open":"',
  '","high":"',
  '","low":"',
  '","close":"',
  '","volume":',
  ',"amount":"',
  '"}',
  ',"amount":null}',
].map(latin1);
const [values, next, pointEnd, emptyEnd, tradeDateKey] = ['","values":{', '",', '"}}', '}}', '","trade_date":"'].map(latin1);
/** `"key":"` of indicator value keys (a few dozen). */
const valueKeys = new Map<string, Buffer>();
const valueKey = (k: string) => {
  let j = valueKeys.get(k);
  if (j === undefined) {
    j = latin1(asciiJson(k) + ':"');
    valueKeys.set(k, j);
  }
  return j;
};

/** A stored price (1/1000 CNY) rounded half away from zero to `digits` decimals (2 or 3). */
const writePrice = (w: JsonBytes, v: number, digits: number) => w.scaled(v, PRICE_SCALE, digits);

/** Copies `src` to b[p]; returns the position after it. */
function copyAt(b: Uint8Array, p: number, src: Uint8Array): number {
  for (let i = 0, n = src.length; i < n; i++) b[p + i] = src[i];
  return p + src.length;
}

/** writePrice at b[p] (room checked by the caller); returns the position after it. */
function priceAt(b: Uint8Array, p: number, v: number, digits: number): number {
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
function scaledAt(b: Uint8Array, p: number, v: number, scale: number, digits: number): number {
  if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${v}`);
  if (digits >= scale) return decimalAt(b, p, v * POW10[digits - scale], digits);
  // On the magnitude, by division and floor (no fmod), corrected when the quotient rounded.
  const div = POW10[scale - digits],
    a = v < 0 ? -v : v;
  let q = Math.floor(a / div),
    r = a - q * div;
  if (r < 0) {
    q--;
    r += div;
  } else if (r >= div) {
    q++;
    r -= div;
  }
  if (2 * r >= div) q++;
  return decimalAt(b, p, v < 0 ? -q : q, digits);
}

/**
 * A field of a record writer: its key and how its value is written. Getters take the record and
 * the writer's context (what the records share: the instrument's id) and return null for JSON
 * null. `json` is a constant, already JSON; `scaled` an integer scaled by 10^scale written as a
 * decimal string with `digits` decimals; `date` yyyymmdd as "YYYY-MM-DD".
 */
export type FieldSpec<R, C = undefined> = { key: string } & (
  | { json: string }
  | { string: (r: R, c: C) => string | null }
  | { date: (r: R, c: C) => number | null }
  | { boolean: (r: R, c: C) => boolean }
  | { integer: (r: R, c: C) => number | null }
  | { scaled: (r: R, c: C) => number | null; scale: number; digits: number }
);

/** Writes a record `r` in context `c`. */
export type RecordWriter<R, C = undefined> = (w: JsonBytes, r: R, c: C) => void;

const NULL = latin1('null'),
  TRUE = latin1('true'),
  FALSE = latin1('false');

/** The write of one field's value (constants have none). */
function fieldValue<R, C>(f: FieldSpec<R, C>): RecordWriter<R, C> | null {
  if ('json' in f) return null;
  if ('string' in f) {
    const g = f.string;
    return (w, r, c) => {
      const v = g(r, c);
      if (v === null) w.bytes(NULL);
      else w.string(v);
    };
  }
  if ('date' in f) {
    const g = f.date;
    return (w, r, c) => {
      const v = g(r, c);
      if (v === null) w.bytes(NULL);
      else {
        w.byte(34);
        w.date(v);
        w.byte(34);
      }
    };
  }
  if ('boolean' in f) {
    const g = f.boolean;
    return (w, r, c) => w.bytes(g(r, c) ? TRUE : FALSE);
  }
  if ('integer' in f) {
    const g = f.integer;
    return (w, r, c) => {
      const v = g(r, c);
      if (v === null) w.bytes(NULL);
      else if (v < 0) {
        w.byte(45);
        w.uint(-v);
      } else w.uint(v);
    };
  }
  const { scaled: g, scale, digits } = f;
  return (w, r, c) => {
    const v = g(r, c);
    if (v === null) w.bytes(NULL);
    else {
      w.byte(34);
      w.scaled(v, scale, digits);
      w.byte(34);
    }
  };
}

/**
 * Compiles a writer of records with `fields`, in that order (give them in the route schema's
 * order): keys and constants are pre-encoded runs of bytes between the values. One writer
 * serves every instrument (its id comes in the context), so none is kept per instrument.
 */
export function recordWriter<R, C = undefined>(fields: FieldSpec<R, C>[]): RecordWriter<R, C> {
  const runs: Buffer[] = [],
    values: RecordWriter<R, C>[] = [];
  let text = '{';
  fields.forEach((f, i) => {
    text += `${i ? ',' : ''}${asciiJson(f.key)}:`;
    const value = fieldValue(f);
    if (value === null) {
      text += (f as { json: string }).json;
      return;
    }
    runs.push(latin1(text));
    values.push(value);
    text = '';
  });
  const last = latin1(`${text}}`),
    n = values.length;
  return (w, r, c) => {
    for (let i = 0; i < n; i++) {
      w.bytes(runs[i]);
      values[i](w, r, c);
    }
    w.bytes(last);
  };
}

/**
 * Writes the JSON of a Bar record (the Bar schema's fields, in its order): prices at the
 * kind's tick (2 decimals, funds 3), money at 2 (null when unknown), volume an integer.
 */
export function barWriter(
  instrumentId: string,
  kind: InstrumentKind,
  interval: IntervalId,
  adjustment: string,
): (w: JsonBytes, b: Bar) => void {
  return memo(`b|${instrumentId}|${kind}|${interval}|${adjustment}`, () => {
    const write = barFieldsWriter(instrumentId, kind, interval, adjustment);
    return (w: JsonBytes, b: Bar) => write(w, b.ts, b.date, b.open, b.high, b.low, b.close, b.volume, b.amountExact ?? b.amount);
  });
}

/** Writes a bar given as its fields (a packed record needs no Bar made of it); amount null: unknown. */
export type BarFieldsWriter = (
  w: JsonBytes,
  ts: number,
  date: number,
  open: number,
  high: number,
  low: number,
  close: number,
  volume: number,
  amount: number | bigint | null,
) => void;

/** As barWriter, for a bar given as its fields. */
export function barFieldsWriter(instrumentId: string, kind: InstrumentKind, interval: IntervalId, adjustment: string): BarFieldsWriter {
  return memo(`f|${instrumentId}|${kind}|${interval}|${adjustment}`, () => makeBarWriter(instrumentId, kind, interval, adjustment));
}

function makeBarWriter(instrumentId: string, kind: InstrumentKind, interval: IntervalId, adjustment: string): BarFieldsWriter {
  const headText = `{"instrument_id":${asciiJson(instrumentId)},"interval":${asciiJson(interval)},"adjustment":${asciiJson(adjustment)},"timestamp":"`;
  const head = latin1(headText);
  const digits = KINDS[kind].digits;
  const rest = (w: JsonBytes, o: number, h: number, l: number, c: number, v: number, a: number | bigint | null) => {
    writePrice(w, o, digits);
    w.bytes(high);
    writePrice(w, h, digits);
    w.bytes(low);
    writePrice(w, l, digits);
    w.bytes(close);
    writePrice(w, c, digits);
    w.bytes(volume);
    w.uint(v);
    if (a === null) {
      w.bytes(amountNull);
      return;
    }
    w.bytes(amount);
    if (typeof a === 'bigint') w.ascii(money2(a));
    else w.decimal(a, 2);
    w.bytes(end);
  };
  if (INTERVALS[interval].daily) {
    // The text up to the open, with room for the date twice: one copy a bar.
    const dateText = '0000-00-00';
    const tpl = latin1(`${headText}${dateText}${closeTradeDate.toString('latin1')}${dateText}${open.toString('latin1')}`);
    const at = [head.length, head.length + dateText.length + closeTradeDate.length];
    return (w, _ts, date, o, h, l, c, v, a) => {
      w.dated(tpl, at, date);
      if (typeof a === 'bigint') rest(w, o, h, l, c, v, a);
      else w.barTail(o, h, l, c, v, a, digits);
    };
  }
  // Intraday: the text before a bar's time of day and the text from it to its open are the
  // same for every bar of a day, so each is one run, made when the day changes.
  let day = NaN,
    tradeDate = NaN,
    before = head,
    after = head;
  return (w, ts, date, o, h, l, c, v, a) => {
    const local = ts + MARKET_OFFSET_SECONDS,
      days = Math.floor(local / 86_400);
    if (days !== day || date !== tradeDate) {
      day = days;
      tradeDate = date;
      before = latin1(`${headText}${formatDate(daysToDate(days))}T`);
      after = latin1(`+08:00","trade_date":"${formatDate(date)}","open":"`);
    }
    w.bytes(before);
    w.clock(local - days * 86_400);
    w.bytes(after);
    rest(w, o, h, l, c, v, a);
  };
}

/**
 * Writes the JSON of a technical-indicator point of a bar (the TechnicalIndicatorPoint schema's
 * fields, in its order), values at 4 decimals as formatValue gives them.
 */
export function indicatorWriter(
  instrumentId: string,
  indicator: string,
  interval: IntervalId,
  adjustment: string,
): (w: JsonBytes, b: { ts: number; date: number }, v: Values) => void {
  return memo(`i|${instrumentId}|${indicator}|${interval}|${adjustment}`, () =>
    makeIndicatorWriter(instrumentId, indicator, interval, adjustment),
  );
}

function makeIndicatorWriter(instrumentId: string, indicator: string, interval: IntervalId, adjustment: string) {
  const head = latin1(
    `{"instrument_id":${asciiJson(instrumentId)},"indicator":${asciiJson(indicator)},"interval":${asciiJson(interval)},"adjustment":${asciiJson(adjustment)},"timestamp":"`,
  );
  const daily = INTERVALS[interval].daily;
  // The keys in their documented order (values list theirs in it, registry.test.ts).
  const keys = INDICATORS[indicator as IndicatorId]?.keys ?? [];
  const n = keys.length;
  const runs = pointRuns(keys);
  const body = n > 0 ? pointBody(keys, runs) : null;
  const writeValue = (w: JsonBytes, x: number) => {
    const scaled = scaledValue(x);
    if (scaled === null) w.ascii(formatValue(x));
    else w.decimal(scaled, 4);
  };
  // The head, a date-time and a trade date, the runs and a value of up to 24 bytes each.
  const max = head.length + 25 + tradeDateKey.length + 10 + runs.reduce((a, r) => a + r.length + 24, 0);
  return (w: JsonBytes, b: { ts: number; date: number }, v: Values): void => {
    // A point that has all its keys is written in one pass.
    if (body !== null && w.indicatorPoint(head, daily, b.ts, b.date, body, v, max)) return;
    w.bytes(head);
    w.pointTime(daily, b.ts, b.date);
    w.bytes(values);
    let first = true;
    for (let i = 0; i < n; i++) {
      const x = v[keys[i]];
      if (x === undefined) continue;
      if (!first) w.bytes(next);
      w.bytes(valueKey(keys[i]));
      writeValue(w, x);
      first = false;
    }
    w.bytes(first ? emptyEnd : pointEnd);
  };
}

/**
 * The values of an indicator point after its trade date, written at `p` of `b` (room
 * made by the caller): the position after them, or -1, having written nothing that counts,
 * when a key is absent or a value takes formatValue's exact path.
 */
export type PointBody = (b: Uint8Array, p: number, v: Values) => number;

/** A value at 4 decimals at `p` (room made): the position after it, or -1 when only formatValue's exact path decides it. */
function value4(b: Uint8Array, p: number, x: number): number {
  const k = scaledValue(x);
  return k === null ? -1 : decimalAt(b, p, k, 4);
}

/**
 * The constant text of a point with all of `keys` after its trade date: before each
 * value (the key, and the text before it), then after the last.
 */
function pointRuns(keys: readonly string[]): Buffer[] {
  return [...keys.map((k, i) => latin1(`${i ? '",' : '","values":{'}${asciiJson(k)}:"`)), pointEnd];
}

const bodies = new Map<string, PointBody>();

/**
 * The PointBody of an indicator's keys, compiled once per key list, the way
 * fast-json-stringify compiles Fastify's serialisers: the text between values is constant, and
 * written as immediate byte stores it costs a third of copying it from a buffer byte by byte (a
 * short TypedArray.set costs a call more). The generated code holds only numbers and the keys
 * as string literals (JSON.stringify), and reads each key once.
 */
function pointBody(keys: readonly string[], runs: readonly Uint8Array[]): PointBody {
  const id = keys.join('\u0000');
  let body = bodies.get(id);
  if (body !== undefined) return body;
  const stores = (bytes: Uint8Array) => `${Array.from(bytes, (c) => `b[p++] = ${c};`).join(' ')}`;
  const lines = keys.map((k, i) =>
    [
      `x = v[${JSON.stringify(k)}];`,
      'if (x === undefined) return -1;',
      stores(runs[i]),
      'p = value4(b, p, x);',
      'if (p < 0) return -1;',
    ].join('\n'),
  );
  const src = `return function pointBody(b, p, v) {\nlet x;\n${lines.join('\n')}\n${stores(runs[keys.length])}\nreturn p;\n};`;
  body = new Function('value4', src)(value4) as PointBody;
  bodies.set(id, body);
  return body;
}
