/**
 * Tongdaxin's 5-minute files (`vipdoc/*\/fzline/*.lc5`) beside its 1-minute files (`minline/*.lc1`):
 * the store keeps 1-minute bars and makes 5-minute bars of them on read (market/aggregate.ts), so
 * a `.lc5` file is not loaded: its bars are checked against the 5-minute bars the service makes of
 * the same instrument's `.lc1` bars, and those on days without `.lc1` bars are counted (docs/ingest.md).
 *
 * Pure functions over Buffers (the records' layout: vendors/tdx.ts decodeMinute).
 */
import { aggregateIntraday } from '../market/aggregate.js';
import { marketEpoch } from '../lib/time.js';
import type { Bar } from '../market/types.js';
import { RECORD } from './vendors/tdx.js';

/** A float32 price (CNY) in price units (1/1000 CNY), rounded half-up to 0.01 as the `.lc1` layout reads it. */
const px = (v: number) => Math.round(v * 100) * 10;

/** The bar of the `.lc1`/`.lc5` record at `o` (prices in 1/1000 CNY, amount in fen, ts its end). */
export function minuteBarAt(b: Buffer, o: number): Bar {
  const d = b.readUInt16LE(o);
  const date = (Math.floor(d / 2048) + 2004) * 10000 + (d % 2048);
  return {
    ts: marketEpoch(date, b.readUInt16LE(o + 2)),
    date,
    open: px(b.readFloatLE(o + 4)),
    high: px(b.readFloatLE(o + 8)),
    low: px(b.readFloatLE(o + 12)),
    close: px(b.readFloatLE(o + 16)),
    amount: Math.round(b.readFloatLE(o + 20) * 100),
    volume: b.readUInt32LE(o + 24),
  };
}

/** Every whole record of a minute file, as bars. */
export function minuteBars(b: Buffer): Bar[] {
  const out: Bar[] = [];
  for (let o = 0; o + RECORD <= b.length; o += RECORD) out.push(minuteBarAt(b, o));
  return out;
}

export interface Lc5Check {
  /** 5-minute bars in the file. */
  bars: number;
  /** Of them, on days with `.lc1` bars: compared. */
  checked: number;
  /** The first few that differ (`2021-06-01 09:35: close 10.00 ≠ 10.01`), and how many do. */
  differ: string[];
  differing: number;
  /** Bars and days with no `.lc1` bars: not stored. */
  unmatched: number;
  unmatchedDays: number;
}

/** Amounts are float32 sums: equal within 1 CNY or a float32's precision of the sum (2^-22 of it). */
const sameAmount = (a: number, b: number) => Math.abs(a - b) <= Math.max(100, Math.abs(b) * 2 ** -22);

const when = (b: Bar) => {
  const d = String(b.date);
  const m = Math.round((b.ts - marketEpoch(b.date, 0)) / 60);
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)} ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};
const cny = (v: number) => (v / 1000).toFixed(2);

/** What differs between a file's 5-minute bar and the one made of the 1-minute bars, or null. */
function difference(five: Bar, made: Bar | undefined): string | null {
  if (!made) return 'no 1-minute bars in its five minutes';
  for (const k of ['open', 'high', 'low', 'close'] as const) if (five[k] !== made[k]) return `${k} ${cny(five[k])} ≠ ${cny(made[k])}`;
  if (five.volume !== made.volume) return `volume ${five.volume} ≠ ${made.volume}`;
  if (!sameAmount(five.amount!, made.amount!)) return `amount ${(five.amount! / 100).toFixed(2)} ≠ ${(made.amount! / 100).toFixed(2)}`;
  return null;
}

/** A `.lc5` file's bars checked against those made of the same instrument's `.lc1` file (null: there is none). */
export function checkLc5(lc5: Buffer, lc1: Buffer | null): Lc5Check {
  const fives = minuteBars(lc5);
  const ones = lc1 ? minuteBars(lc1) : [];
  const days = new Set(ones.map((b) => b.date));
  let made: Map<number, Bar>;
  try {
    made = new Map(aggregateIntraday(ones, 5).map((b) => [b.ts, b]));
  } catch {
    made = new Map(); // 1-minute bars out of order or off the session: every bar differs
  }
  const out: Lc5Check = { bars: fives.length, checked: 0, differ: [], differing: 0, unmatched: 0, unmatchedDays: 0 };
  const unmatchedDays = new Set<number>();
  for (const five of fives) {
    if (!days.has(five.date)) {
      out.unmatched++;
      unmatchedDays.add(five.date);
      continue;
    }
    out.checked++;
    const diff = difference(five, made.get(five.ts));
    if (diff === null) continue;
    out.differing++;
    if (out.differ.length < 3) out.differ.push(`${when(five)}: ${diff}`);
  }
  out.unmatchedDays = unmatchedDays.size;
  return out;
}
