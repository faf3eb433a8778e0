import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DayLimit } from './day-limits.js';
import { PoolTracker } from './pool-tracker.js';
import { memberships, STRONG_HIGH_DAYS } from './pools.js';

/** A day state from a few small integers: limits 1100/900 around 1000, closes near them. */
const state = (date: number, x: { traded: boolean; close: number; high: number; pre: boolean; listingDay: number }): DayLimit => {
  const close = 900 + x.close * 20,
    high = Math.max(close, 900 + x.high * 20);
  return {
    date,
    preClose: x.pre ? 1000 : null,
    up: 1100,
    down: 900,
    ratioPct: 10,
    reason: 'main_board',
    st: false,
    listingDay: x.listingDay,
    bar: x.traded ? { ts: 0, date, open: close, high, low: 900, close, volume: 100, amount: 1000 } : null,
  };
};

const day = fc.record({
  traded: fc.integer({ min: 0, max: 9 }).map((k) => k > 1),
  close: fc.integer({ min: 0, max: 10 }),
  high: fc.integer({ min: 0, max: 12 }),
  pre: fc.boolean(),
  listingDay: fc.integer({ min: 1, max: 400 }),
});

describe('PoolTracker', () => {
  it('gives, day after day, what memberships gives for the window ending at the day (streaks under the window)', () => {
    fc.assert(
      fc.property(fc.array(day, { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 200 }), (xs, cut) => {
        const states = xs.map((x, i) => state(20240000 + i, x));
        let t = new PoolTracker();
        states.forEach((d, i) => {
          // Carried across a stored state at one day: the same as going on.
          if (i === cut) t = PoolTracker.from(JSON.parse(JSON.stringify(t.state())));
          const got = t.push(d);
          const want = memberships(states.slice(Math.max(0, i - STRONG_HIGH_DAYS), i + 1));
          if (want.streak < STRONG_HIGH_DAYS && want.previousStreak < STRONG_HIGH_DAYS - 1) expect(got).toEqual(want);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('finds a new high over 59 traded days and repeated limit-ups', () => {
    const t = new PoolTracker();
    const flat = { traded: true, close: 5, high: 5, pre: true, listingDay: 300 };
    for (let i = 0; i < STRONG_HIGH_DAYS - 1; i++) expect(t.push(state(i, flat)).pools).toEqual([]);
    expect(t.push(state(99, { ...flat, close: 6, high: 6 }))).toEqual({
      pools: ['strong'],
      streak: 0,
      previousStreak: 0,
      strongReason: 'new_high',
    });
    expect(t.push(state(100, { ...flat, close: 10, high: 10 })).pools).toEqual(['limit_up']);
    expect(t.push(state(101, { ...flat, traded: false })).pools).toEqual([]);
    expect(t.push(state(102, { ...flat, close: 10, high: 10 }))).toEqual({
      pools: ['limit_up', 'previous_limit_up'],
      streak: 2,
      previousStreak: 1,
      strongReason: null,
    });
    expect(t.push(state(103, { ...flat, close: 9, high: 10 }))).toEqual({
      pools: ['broken_limit_up', 'previous_limit_up', 'strong'],
      streak: 0,
      previousStreak: 2,
      strongReason: 'repeated_limit_up',
    });
  });
});
