/**
 * The day record format: what one trading day of one market needs for the questions asked
 * across the market (pools, breadth, every instrument's bar of the day), stored once per
 * market and day in `market_days` by derived/market-days.ts, so that a day's pool reads one row.
 * A day holds `n` records in instrument id order, one per instrument with a bar that day and one
 * per listed equity without one (suspended), in columns: inst; open, high, low, close (1/1000 CNY;
 * 0 without a bar); pre_close, up and down limits (1/1000 CNY; −1: none); volume (shares);
 * amount (fen; −1 unknown, UNKNOWN_AMOUNT); the limit-up streak and the previous one; flags
 * (DAY_FLAGS). Little-endian, float64 columns first, then int32, then uint16, after an 8-byte
 * header (n, then 0), the whole deflated (raw deflate).
 * @example const day = decodeDay(encodeDay(records)); day.close(0);
 */
import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { PoolTypeId } from '../market/pools.js';

/** Bits of a record's flags. */
export const DAY_FLAGS = {
  bar: 1,
  limitUp: 2,
  limitDown: 4,
  brokenLimitUp: 8,
  previousLimitUp: 16,
  strong: 32,
  subNew: 64,
  /** Strong for a new high (else for repeated limit-ups). */
  newHigh: 128,
  st: 256,
  /** A listed equity's day: it has a price-limit state (a suspended one has no bar). */
  equity: 512,
} as const;

/** The flag of each pool's members. */
export const POOL_FLAGS: Readonly<Record<PoolTypeId, number>> = {
  limit_up: DAY_FLAGS.limitUp,
  limit_down: DAY_FLAGS.limitDown,
  broken_limit_up: DAY_FLAGS.brokenLimitUp,
  previous_limit_up: DAY_FLAGS.previousLimitUp,
  strong: DAY_FLAGS.strong,
  sub_new: DAY_FLAGS.subNew,
};

/** One record, as written. */
export interface DayRecord {
  inst: number;
  open: number;
  high: number;
  low: number;
  close: number;
  preClose: number | null;
  up: number | null;
  down: number | null;
  volume: number;
  amount: number;
  streak: number;
  previousStreak: number;
  flags: number;
}

const F64 = ['volume', 'amount'] as const;
const I32 = ['inst', 'open', 'high', 'low', 'close', 'preClose', 'up', 'down'] as const;
const U16 = ['streak', 'previousStreak', 'flags'] as const;
const HEADER = 8;
/** Bytes of one record before deflation. */
export const DAY_RECORD_BYTES = F64.length * 8 + I32.length * 4 + U16.length * 2;

const nullable = (v: number | null) => (v === null ? -1 : v);

const DEFLATE = { level: 1 };
const deflateAsync = promisify(deflateRaw);

/** Encodes records (in instrument id order) as a stored day. */
export const encodeDay = (records: readonly DayRecord[]): Buffer => deflateRawSync(dayBytes(records), DEFLATE);

/** As encodeDay, the same bytes, deflated on libuv's thread pool (while the caller goes on). */
export const encodeDayAsync = (records: readonly DayRecord[]): Promise<Buffer> => deflateAsync(dayBytes(records), DEFLATE);

/** The records' columns before deflation. */
function dayBytes(records: readonly DayRecord[]): Uint8Array {
  const n = records.length;
  const buf = new ArrayBuffer(HEADER + n * DAY_RECORD_BYTES);
  new Uint32Array(buf, 0, 2).set([n, 0]);
  let o = HEADER;
  for (const k of F64) {
    const a = new Float64Array(buf, o, n);
    for (let i = 0; i < n; i++) a[i] = records[i][k];
    o += n * 8;
  }
  for (const k of I32) {
    const a = new Int32Array(buf, o, n);
    for (let i = 0; i < n; i++) a[i] = nullable(records[i][k]);
    o += n * 4;
  }
  for (const k of U16) {
    const a = new Uint16Array(buf, o, n);
    for (let i = 0; i < n; i++) a[i] = records[i][k];
    o += n * 2;
  }
  return new Uint8Array(buf);
}

/** A stored day, decoded: columns read by record index. */
export class DayRecords {
  readonly n: number;
  readonly volume: Float64Array;
  readonly amount: Float64Array;
  readonly inst: Int32Array;
  readonly open: Int32Array;
  readonly high: Int32Array;
  readonly low: Int32Array;
  readonly close: Int32Array;
  /** −1: none (use the accessors for null). */
  readonly preCloses: Int32Array;
  readonly ups: Int32Array;
  readonly downs: Int32Array;
  readonly streak: Uint16Array;
  readonly previousStreak: Uint16Array;
  readonly flags: Uint16Array;

  constructor(stored: Uint8Array) {
    const raw = inflateRawSync(stored);
    // Typed arrays need aligned offsets: copy unless the inflated bytes start at one.
    const bytes = raw.byteOffset % 8 === 0 ? raw : Uint8Array.prototype.slice.call(raw);
    const buf = bytes.buffer,
      base = bytes.byteOffset;
    const n = (this.n = new Uint32Array(buf, base, 1)[0]);
    if (bytes.byteLength !== HEADER + n * DAY_RECORD_BYTES)
      throw new RangeError(`a stored day of ${n} records holds ${bytes.byteLength} bytes`);
    let o = base + HEADER;
    const f64 = () => {
      const a = new Float64Array(buf, o, n);
      o += n * 8;
      return a;
    };
    const i32 = () => {
      const a = new Int32Array(buf, o, n);
      o += n * 4;
      return a;
    };
    const u16 = () => {
      const a = new Uint16Array(buf, o, n);
      o += n * 2;
      return a;
    };
    this.volume = f64();
    this.amount = f64();
    this.inst = i32();
    this.open = i32();
    this.high = i32();
    this.low = i32();
    this.close = i32();
    this.preCloses = i32();
    this.ups = i32();
    this.downs = i32();
    this.streak = u16();
    this.previousStreak = u16();
    this.flags = u16();
  }

  preClose(i: number): number | null {
    return this.preCloses[i] < 0 ? null : this.preCloses[i];
  }
  up(i: number): number | null {
    return this.ups[i] < 0 ? null : this.ups[i];
  }
  down(i: number): number | null {
    return this.downs[i] < 0 ? null : this.downs[i];
  }
  has(i: number, flag: number): boolean {
    return (this.flags[i] & flag) !== 0;
  }

  /** Record `i` as written. */
  record(i: number): DayRecord {
    return {
      inst: this.inst[i],
      open: this.open[i],
      high: this.high[i],
      low: this.low[i],
      close: this.close[i],
      preClose: this.preClose(i),
      up: this.up(i),
      down: this.down(i),
      volume: this.volume[i],
      amount: this.amount[i],
      streak: this.streak[i],
      previousStreak: this.previousStreak[i],
      flags: this.flags[i],
    };
  }
}

/** Decodes a stored day. */
export const decodeDay = (stored: Uint8Array): DayRecords => new DayRecords(stored);
