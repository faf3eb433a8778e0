import { describe, expect, it } from 'vitest';
import type { Bar } from '../market/types.js';
import { dailyPackKey, dailyPackStart, decodeBars, decodePack, encodePack, mergePacks, orderRecords, RECORD_BYTES } from './packs.js';
import { PackSlices } from '../query/pack-slices.js';
import { UNKNOWN_AMOUNT } from './schema.js';
import { Renderer } from '../render/json-bytes.js';
import { barFieldsWriter } from '../render/bar-writers.js';
import { WriterCache } from '../render/writer-cache.js';

const RECORDS = [
  [20240102, 10_000, 10_500, 9_800, 10_200, 2 ** 31 + 7, 2 ** 40 + 3],
  [20240103, 2 ** 31, 2 ** 32 + 1, 1, 2 ** 31 - 1, 0, Number.MAX_SAFE_INTEGER],
  [20240104, -1, -(2 ** 31) - 5, -(2 ** 53) + 1, 0, 123_456_789_012, -42],
];

describe('daily pack keys', () => {
  it('keys a date by its month, and a month by its first day', () => {
    expect([20240101, 20240315, 20241231, 19901219].map(dailyPackKey)).toEqual([202401, 202403, 202412, 199012]);
    expect(dailyPackStart(202403)).toBe(20240301);
    expect(dailyPackKey(dailyPackStart(202412))).toBe(202412);
  });
});

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
    expect(daily).toEqual(
      RECORDS.map(([date, open, high, low, close, volume, amount]) => ({ ts: 0, date, open, high, low, close, volume, amount })),
    );
    const minute: Bar[] = [];
    decodeBars(minute, data, 3, 20240105, 0, Infinity, Infinity);
    expect(minute.map((b) => [b.ts, b.date])).toEqual(RECORDS.map((r) => [r[0], 20240105]));
  });

  it('decodes the stored amount UNKNOWN_AMOUNT (-1) as null, in bars and in the JSON written from a pack', () => {
    const data = encodePack([
      [20240102, 10_000, 10_500, 9_800, 10_200, 300, UNKNOWN_AMOUNT],
      [20240103, 10_000, 10_500, 9_800, 10_200, 300, 0],
    ]);
    const bars: Bar[] = [];
    decodeBars(bars, data, 2, null, 0, Infinity, Infinity);
    expect(bars.map((b) => b.amount)).toEqual([null, 0]);
    const slices = new PackSlices(10, barFieldsWriter(new WriterCache(), '600000.SH', 'equity', '1m', 'none'));
    slices.add(data, 2, 20240102, 0, Infinity);
    const w = new Renderer().start();
    w.byte(91);
    slices.write(w, 2);
    w.byte(93);
    const json = JSON.parse(w.take().toString());
    expect(json.map((b: { amount: string | null }) => b.amount)).toEqual([null, '0.00']);
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

describe('bar pack merge', () => {
  /** Records with keys `keys` and every other field `tag` (tells which side a record came from). */
  const recs = (keys: number[], tag: number) => keys.map((k) => [k, tag, tag + 1, tag - 1, tag, 2 ** 40 + tag, 2 ** 50 - tag]);
  const merged = (a: number[][], b: number[][]) => {
    const out = mergePacks(encodePack(a), a.length, encodePack(b), b.length);
    return decodePack(out, out.byteLength / RECORD_BYTES);
  };
  /** The expected merge: every key of either side, b's record where both have it. */
  const want = (a: number[][], b: number[][]) => {
    const m = new Map(a.map((r) => [r[0], r]));
    for (const r of b) m.set(r[0], r);
    return [...m.values()].sort((x, y) => x[0] - y[0]);
  };

  it('interleaves runs of either side in key order, the second side winning on equal keys', () => {
    const cases: [number[], number[]][] = [
      [[], []],
      [[1, 2, 3], []],
      [[], [1, 2, 3]],
      [
        [1, 2, 3],
        [4, 5],
      ],
      [
        [4, 5],
        [1, 2, 3],
      ],
      [
        [1, 3, 5, 7],
        [2, 4, 6, 8],
      ],
      [
        [1, 2, 3],
        [1, 2, 3],
      ],
      [[1, 5, 9], [5]],
      [[5], [1, 5, 9]],
      [
        [1, 2, 3, 10, 11],
        [3, 4, 5, 6, 10],
      ],
      [
        [-7, 0, 1.7e9],
        [-8, 0, 1.8e9],
      ],
    ];
    for (const [ka, kb] of cases) {
      const a = recs(ka, 100),
        b = recs(kb, 200);
      expect(merged(a, b), `${ka} + ${kb}`).toEqual(want(a, b));
    }
    // Random runs.
    let seed = 1;
    const rnd = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let t = 0; t < 200; t++) {
      const pick = () => [...new Set(Array.from({ length: rnd(30) }, () => rnd(60)))].sort((x, y) => x - y);
      const a = recs(pick(), 100),
        b = recs(pick(), 200);
      expect(merged(a, b)).toEqual(want(a, b));
    }
  });

  it('orders records written in any order, keeping the last of each key', () => {
    const written = [
      [5, 1],
      [3, 1],
      [5, 2],
      [1, 1],
      [3, 2],
      [9, 1],
      [5, 3],
      [1, 2],
    ].map(([k, v]) => [k, v, v, v, v, v, v]);
    const out = orderRecords(encodePack(written), written.length);
    expect(decodePack(out, out.byteLength / RECORD_BYTES).map((r) => [r[0], r[1]])).toEqual([
      [1, 2],
      [3, 2],
      [5, 3],
      [9, 1],
    ]);
    const sorted = recs([1, 2, 3], 7);
    expect(decodePack(orderRecords(encodePack(sorted), 3), 3)).toEqual(sorted);
    expect(orderRecords(encodePack([]), 0).byteLength).toBe(0);
  });

  it('rejects packs whose length does not match their record count', () => {
    expect(() => mergePacks(encodePack(RECORDS), 2, encodePack([]), 0)).toThrow(RangeError);
    expect(() => orderRecords(encodePack(RECORDS), 4)).toThrow(RangeError);
  });
});
