import { daysToDate, MARKET_OFFSET_SECONDS } from '../lib/time.js';
import { copyAt, dateAt, decimalAt, pair, priceAt, scaledAt, uintAt } from './digits.js';
import { amount, amountNull, asciiJson, close, closeTradeDate, end, high, low, OFFSET, tradeDateKey, volume } from './text.js';
import type { Values } from '../indicators/types.js';

const SLAB = 256 * 1024;

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
  /** Where the next body may start in the slab: at most its length (then the next body starts a fresh slab). */
  used = 0;

  /** A writer at the free end of the slab, empty. Write a body from here to `take()` synchronously (no await in between). */
  start(): JsonBytes {
    // Past the end nothing could be copied from (a state only a bug could leave): start afresh.
    if (!(this.used <= this.slab.length)) this.reset();
    return new JsonBytes(this);
  }

  /**
   * One body: what `write` writes from `start()` to `take()`. When it throws, the renderer is
   * reset (the next body starts a fresh slab: nothing a failed body left can reach a later
   * one), and the error goes on to the caller.
   */
  render(write: (w: JsonBytes) => void): Buffer {
    try {
      const w = this.start();
      write(w);
      return w.take();
    } catch (e) {
      this.reset();
      throw e;
    }
  }

  /** The slab counts as full: the next body starts a fresh one (bodies taken keep the old one alive). */
  reset(): void {
    this.used = this.slab.length;
  }

  /**
   * Whether a body can be rendered now (the readiness probe): a small page rendered as any page is
   * and read back; null when it reads back, else why not.
   */
  probe(): string | null {
    try {
      const text = this.render((w) => {
        w.bytes(PROBE_OPEN);
        w.uint(PROBE_NUMBER);
        w.byte(93);
        w.byte(125);
      }).toString('latin1');
      return text === PROBE ? null : `a probe body read back as ${JSON.stringify(text.slice(0, 80))}`;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }
}

const PROBE_OPEN = Buffer.from('{"data":['),
  PROBE_NUMBER = 1234567890,
  PROBE = `{"data":[${PROBE_NUMBER}]}`;

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
    // The next body starts 8-aligned, or, when the slab ends within those bytes (a grown slab's
    // length is any even number), at its end: the next body then starts a fresh slab.
    if (this.buf === owner.slab) owner.used = Math.min((this.pos + 7) & ~7, this.buf.length);
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

/**
 * The values of an indicator point after its trade date, written at `p` of `b` (room
 * made by the caller): the position after them, or -1, having written nothing that counts,
 * when a key is absent or a value takes formatValue's exact path.
 */
export type PointBody = (b: Uint8Array, p: number, v: Values) => number;
