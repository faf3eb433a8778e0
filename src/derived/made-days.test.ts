import { describe, expect, it } from 'vitest';
import { MadeDays, outsideLimits, trackMadeDays, madeDaysOf } from './made-days.js';
import { DAY_FLAGS, type DayRecord } from '../store/day-records.js';
import type { BulkSession } from '../store/types.js';

const rec = (inst: number, high: number, low: number, up: number | null, down: number | null, flags: number): DayRecord => ({
  inst,
  open: low,
  high,
  low,
  close: low,
  preClose: 10_000,
  up,
  down,
  volume: 1,
  amount: 1,
  streak: 0,
  previousStreak: 0,
  flags,
});
const EQ = DAY_FLAGS.equity | DAY_FLAGS.bar;
const isOut = (r: DayRecord) => outsideLimits(r, (r.flags & DAY_FLAGS.equity) !== 0, (r.flags & DAY_FLAGS.bar) !== 0);

describe('the days made in a transaction (made-days.ts)', () => {
  it('keep the records outside their limits of each made day, and forget those made again', () => {
    const m = new MadeDays();
    const breadth = {} as never;
    m.add(
      {
        market: 'SH',
        date: 20240306,
        records: [rec(1, 12_200, 11_000, 12_100, 9_900, EQ), rec(2, 11_000, 10_000, 11_000, 9_000, EQ)],
        breadth,
      },
      isOut,
    );
    m.add(
      {
        market: 'SH',
        date: 20240307,
        records: [rec(1, 9_500, 9_000, 13_310, 10_890, EQ), rec(3, 9_500, 9_000, 13_310, 10_890, DAY_FLAGS.bar)],
        breadth,
      },
      isOut,
    );
    m.add({ market: 'SZ', date: 20240307, records: [rec(4, 20_000, 1, null, null, EQ)], breadth }, isOut);
    expect([...m.outsideBetween(0, 99999999)].map(([d, r]) => [d, r.inst])).toEqual([
      [20240306, 1],
      [20240307, 1],
    ]);
    expect([...m.outsideBetween(20240307, 20240307)].map(([d, r]) => [d, r.inst])).toEqual([[20240307, 1]]);
    expect([m.has('SH', 20240306), m.has('SZ', 20240307), m.has('SZ', 20240306)]).toEqual([true, true, false]);
    // The SH days from 03-07 are deleted to be made again: forgotten until they are.
    m.from('SH', 20240307);
    expect([m.has('SH', 20240306), m.has('SH', 20240307), m.has('SZ', 20240307)]).toEqual([true, false, true]);
    expect([...m.outsideBetween(0, 99999999)].map(([d, r]) => [d, r.inst])).toEqual([[20240306, 1]]);
    // Made again, now within its limits.
    m.add({ market: 'SH', date: 20240306, records: [rec(1, 12_100, 11_000, 12_100, 9_900, EQ)], breadth }, isOut);
    expect([...m.outsideBetween(0, 99999999)]).toEqual([]);
  });

  it('are one tracker for the sessions of a transaction', () => {
    const a = {} as BulkSession,
      b = {} as BulkSession;
    const t = trackMadeDays(a, b);
    expect([madeDaysOf(a), madeDaysOf(b), madeDaysOf({} as BulkSession)]).toEqual([t, t, undefined]);
  });
});
