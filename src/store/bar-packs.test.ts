import { describe, expect, it } from 'vitest';
import type { Bar } from '../market/types.js';
import { decodeBars, decodePack, encodePack, RECORD_BYTES } from './bar-packs.js';

const RECORDS = [
  [20240102, 10_000, 10_500, 9_800, 10_200, 2 ** 31 + 7, 2 ** 40 + 3],
  [20240103, 2 ** 31, 2 ** 32 + 1, 1, 2 ** 31 - 1, 0, Number.MAX_SAFE_INTEGER],
  [20240104, -1, -(2 ** 31) - 5, -(2 ** 53) + 1, 0, 123_456_789_012, -42],
];

describe('bar pack codec', () => {
  it('round-trips integer fields past 2^31 and negative ones, little-endian float64', () => {
    const buf = encodePack(RECORDS);
    expect(buf.byteLength).toBe(RECORDS.length * RECORD_BYTES);
    expect(decodePack(buf, RECORDS.length)).toEqual(RECORDS);
    expect(buf.readDoubleLE(RECORD_BYTES + 5 * 8)).toBe(0);
    expect(buf.readDoubleLE(6 * 8)).toBe(2 ** 40 + 3);
    expect(decodePack(encodePack([]), 0)).toEqual([]);
  });

  it('decodes bars in place from a view at any offset: daily (ts 0) and 1m (the pack date)', () => {
    // The pack sits inside a larger buffer, as a driver's pooled allocation may hand it over.
    const whole = Buffer.concat([Buffer.alloc(13, 0xff), encodePack(RECORDS), Buffer.alloc(5, 0xff)]);
    const data = whole.subarray(13, 13 + RECORDS.length * RECORD_BYTES);
    const daily: Bar[] = [];
    decodeBars(daily, data, 3, null, 0, Infinity, Infinity);
    expect(daily).toEqual(RECORDS.map(([date, open, high, low, close, volume, amount]) => ({ ts: 0, date, open, high, low, close, volume, amount })));
    const minute: Bar[] = [];
    decodeBars(minute, data, 3, 20240105, 0, Infinity, Infinity);
    expect(minute.map((b) => [b.ts, b.date])).toEqual(RECORDS.map((r) => [r[0], 20240105]));
  });

  it('keeps keys within [lo, hi] and stops at the limit, counting bars already held', () => {
    const data = encodePack(RECORDS);
    const dates = (lo: number, hi: number, limit: number, held: Bar[] = []) => {
      decodeBars(held, data, 3, null, lo, hi, limit);
      return held.map((b) => b.date);
    };
    expect(dates(20240103, 20240103, 10)).toEqual([20240103]);
    expect(dates(20240101, 20240110, 2)).toEqual([20240102, 20240103]);
    expect(dates(20240103, 20240110, 3)).toEqual([20240103, 20240104]);
    const held = [{ ts: 0, date: 1 } as Bar];
    expect(dates(0, Infinity, 2, held)).toEqual([1, 20240102]);
    expect(dates(20240105, 20240110, 10)).toEqual([]);
  });

  it('rejects a pack whose length does not match its record count', () => {
    expect(() => decodePack(encodePack(RECORDS), 2)).toThrow(RangeError);
    expect(() => decodeBars([], encodePack(RECORDS).subarray(1), 3, null, 0, Infinity, 10)).toThrow(RangeError);
  });
});
