import { LRUCache } from 'lru-cache';
import { PRICE_SCALE } from '../lib/decimal.js';
import { daysToDate, MARKET_OFFSET_SECONDS } from '../lib/time.js';
import { formatValue, scaledValue } from '../indicators/format.js';
import type { Values } from '../indicators/types.js';
import type { Bar } from '../market/types.js';
import { money2 } from './serialize.js';

/**
 * JSON of the hottest collections written as bytes: constant text is copied from pre-encoded
 * buffers and numbers are written digit by digit, into one scratch buffer, so that a page of
 * 100 bars or indicator points makes no string per value, no rope to flatten and no garbage
 * per item (half the CPU of concatenating strings, measured on a page of MACD points). Writers
 * produce ASCII only (ids and other text as \u escapes past U+007E).
 *
 * The scratch buffer is shared by the process: write a body synchronously from `start()` to
 * `take()` (no await in between), as rendering a page does.
 */
export class JsonBytes {
  private static scratch = Buffer.allocUnsafe(64 * 1024);
  private buf = JsonBytes.scratch;
  private pos = 0;
  /** The last day number and its date (consecutive intraday bars share their day). */
  private day = NaN;
  private dayDate = 0;

  /** A writer over the shared scratch buffer, empty. */
  static start(): JsonBytes { return new JsonBytes(); }

  get length(): number { return this.pos; }

  /** The bytes written, copied out of the scratch buffer. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = JsonBytes.scratch = next;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    // A short constant is copied faster by hand than by a call into TypedArray.set.
    if (n > 32) this.buf.set(b, this.pos);
    else for (let i = 0, buf = this.buf, p = this.pos; i < n; i++) buf[p + i] = b[i];
    this.pos += n;
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

  /** A non-negative safe integer. */
  uint(n: number): void {
    this.room(16);
    const b = this.buf;
    if (n < 10) { b[this.pos++] = 48 + n; return; }
    let digits = 1;
    for (let x = n; x >= 10; x = (x - (x % 10)) / 10) digits++;
    let p = (this.pos += digits);
    // Remainder first: x - r is a multiple of 10, so the quotient is exact for any safe integer.
    do { const r = n % 10; b[--p] = 48 + r; n = (n - r) / 10; } while (n > 0);
  }

  /** A safe integer `k` scaled by 10^digits as a decimal with `digits` decimals ("-12.34"). */
  decimal(k: number, digits: number): void {
    if (k < 0) { this.byte(45); k = -k; }
    const p10 = POW10[digits], r = k % p10;
    this.uint((k - r) / p10);
    this.room(digits + 1);
    const b = this.buf;
    b[this.pos] = 46;
    let f = r;
    for (let i = digits; i > 0; i--) { const d = f % 10; b[this.pos + i] = 48 + d; f = (f - d) / 10; }
    this.pos += digits + 1;
  }

  /** A date yyyymmdd as YYYY-MM-DD. */
  date(d: number): void {
    this.room(10);
    const b = this.buf, p = this.pos;
    const y = Math.floor(d / 10000), m = Math.floor(d / 100) % 100, day = d % 100;
    b[p] = 48 + Math.floor(y / 1000); b[p + 1] = 48 + (Math.floor(y / 100) % 10); b[p + 2] = 48 + (Math.floor(y / 10) % 10); b[p + 3] = 48 + (y % 10);
    b[p + 4] = 45; b[p + 5] = 48 + Math.floor(m / 10); b[p + 6] = 48 + (m % 10);
    b[p + 7] = 45; b[p + 8] = 48 + Math.floor(day / 10); b[p + 9] = 48 + (day % 10);
    this.pos = p + 10;
  }

  /** Epoch seconds as RFC 3339 in market time, as formatTimestamp writes them (2024-03-01T10:30:00+08:00). */
  timestamp(sec: number): void {
    const local = sec + MARKET_OFFSET_SECONDS;
    const days = Math.floor(local / 86_400), rem = local - days * 86_400;
    if (days !== this.day) { this.day = days; this.dayDate = daysToDate(days); }
    this.date(this.dayDate);
    this.room(15);
    const b = this.buf, p = this.pos;
    const hh = Math.floor(rem / 3600), mi = Math.floor(rem / 60) % 60, ss = rem % 60;
    b[p] = 84; b[p + 1] = 48 + Math.floor(hh / 10); b[p + 2] = 48 + (hh % 10); b[p + 3] = 58;
    b[p + 4] = 48 + Math.floor(mi / 10); b[p + 5] = 48 + (mi % 10); b[p + 6] = 58;
    b[p + 7] = 48 + Math.floor(ss / 10); b[p + 8] = 48 + (ss % 10);
    this.pos = p + 9;
    this.bytes(OFFSET);
  }
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];

/** Writers made for an instrument and its parameters, kept (a few hundred bytes each) so that a request reuses them. */
const writers = new LRUCache<string, (...args: any[]) => void>({ max: 20_000 });
function memo<W extends (...args: any[]) => void>(key: string, make: () => W): W {
  let w = writers.get(key) as W | undefined;
  if (!w) { w = make(); writers.set(key, w); }
  return w;
}
const latin1 = (s: string) => Buffer.from(s, 'latin1');
const OFFSET = latin1('+08:00');

/** A JSON string literal in ASCII: anything past U+007E written as a \u escape. */
export const asciiJson = (s: string) => JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const DAILY = new Set(['1d', '1w', '1mo', '1q', '1y']);
const CLOSE = latin1('T15:00:00+08:00');
const [tradeDate, open, high, low, close, volume, amount, end] = ['","trade_date":"', '","open":"', '","high":"', '","low":"',
  '","close":"', '","volume":', ',"amount":"', '"}'].map(latin1);
const [values, next, pointEnd, emptyEnd] = ['","values":{', '",', '"}}', '}}'].map(latin1);
/** `"key":"` of indicator value keys (a few dozen). */
const valueKeys = new Map<string, Buffer>();
const valueKey = (k: string) => { let j = valueKeys.get(k); if (j === undefined) { j = latin1(asciiJson(k) + ':"'); valueKeys.set(k, j); } return j; };

/** A stored price (1/1000 CNY) rounded half away from zero to `digits` decimals (2 or 3). */
function writePrice(w: JsonBytes, v: number, digits: number): void {
  const div = POW10[PRICE_SCALE - digits];
  if (div === 1 || v % div === 0) { w.decimal(v / div, digits); return; }
  const q = Math.trunc(v / div), r = v - q * div;
  w.decimal(q + (Math.abs(r) * 2 >= div ? Math.sign(r) : 0), digits);
}

/**
 * Writes the JSON of a Bar record (the Bar schema's fields, in its order): prices at the
 * kind's tick (2 decimals, funds 3), money at 2, volume an integer.
 */
export function barWriter(instrumentId: string, kind: string, interval: string, adjustment: string): (w: JsonBytes, b: Bar) => void {
  return memo(`b|${instrumentId}|${kind}|${interval}|${adjustment}`, () => makeBarWriter(instrumentId, kind, interval, adjustment));
}

function makeBarWriter(instrumentId: string, kind: string, interval: string, adjustment: string) {
  const head = latin1(`{"instrument_id":${asciiJson(instrumentId)},"interval":${asciiJson(interval)},"adjustment":${asciiJson(adjustment)},"timestamp":"`);
  const digits = kind === 'fund' ? 3 : 2;
  const daily = DAILY.has(interval);
  return (w: JsonBytes, b: Bar): void => {
    w.bytes(head);
    if (daily) { w.date(b.date); w.bytes(CLOSE); } else w.timestamp(b.ts);
    w.bytes(tradeDate); w.date(b.date);
    w.bytes(open); writePrice(w, b.open, digits);
    w.bytes(high); writePrice(w, b.high, digits);
    w.bytes(low); writePrice(w, b.low, digits);
    w.bytes(close); writePrice(w, b.close, digits);
    w.bytes(volume); w.uint(b.volume);
    w.bytes(amount);
    const a = b.amountExact ?? b.amount;
    if (typeof a === 'bigint') w.ascii(money2(a)); else w.decimal(a, 2);
    w.bytes(end);
  };
}

/**
 * Writes the JSON of a technical-indicator point of a bar (the TechnicalIndicatorPoint schema's
 * fields, in its order), values at 4 decimals as formatValue gives them.
 */
export function indicatorWriter(instrumentId: string, indicator: string, interval: string,
  adjustment: string): (w: JsonBytes, b: { ts: number; date: number }, v: Values) => void {
  return memo(`i|${instrumentId}|${indicator}|${interval}|${adjustment}`, () => makeIndicatorWriter(instrumentId, indicator, interval, adjustment));
}

function makeIndicatorWriter(instrumentId: string, indicator: string, interval: string, adjustment: string) {
  const head = latin1(`{"instrument_id":${asciiJson(instrumentId)},"indicator":${asciiJson(indicator)},"interval":${asciiJson(interval)},"adjustment":${asciiJson(adjustment)},"timestamp":"`);
  const daily = DAILY.has(interval);
  return (w: JsonBytes, b: { ts: number; date: number }, v: Values): void => {
    w.bytes(head);
    if (daily) { w.date(b.date); w.bytes(CLOSE); } else w.timestamp(b.ts);
    w.bytes(values);
    let first = true;
    for (const k in v) {
      if (!first) w.bytes(next);
      w.bytes(valueKey(k));
      const x = v[k], scaled = scaledValue(x);
      if (scaled === null) w.ascii(formatValue(x)); else w.decimal(scaled, 4);
      first = false;
    }
    w.bytes(first ? emptyEnd : pointEnd);
  };
}
