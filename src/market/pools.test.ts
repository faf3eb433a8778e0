import { describe, expect, it } from 'vitest';
import { intradayLimitStats, limitUpStreak, memberships, referenceInDoubt } from './pools.js';
import { PoolTracker } from './pool-tracker.js';
import type { DayLimit } from './day-limits.js';
import type { Bar } from './types.js';

const bar = (close: number, high = close, low = close, ts = 0): Bar => ({
  ts,
  date: 0,
  open: close,
  high,
  low,
  close,
  volume: 100,
  amount: close * 10,
});
/** A day state with limits ±10% of pre (prices in 1/1000 CNY). */
function day(date: number, pre: number, b: Bar | null, extra: Partial<DayLimit> = {}): DayLimit {
  const up = Math.round((pre * 1.1) / 10) * 10,
    down = Math.round((pre * 0.9) / 10) * 10;
  return { date, preClose: pre, up, down, ratioPct: 10, reason: 'main_board', st: false, listingDay: 500, bar: b, ...extra };
}

describe('pool rules', () => {
  it('counts consecutive limit-up closes, skipping suspended days', () => {
    const days = [day(1, 10000, bar(11000)), day(2, 11000, bar(12100)), day(3, 12100, null), day(4, 12100, bar(13310))];
    expect(limitUpStreak(days, 3)).toBe(3);
    expect(memberships(days)).toMatchObject({ pools: ['limit_up', 'previous_limit_up'], streak: 3, previousStreak: 2 });
  });

  it('tells limit-down, broken and strong (repeated limit-ups) apart', () => {
    expect(memberships([day(1, 10000, bar(9000))]).pools).toEqual(['limit_down']);
    expect(memberships([day(1, 10000, bar(10500, 11000, 10000))]).pools).toEqual(['broken_limit_up']);
    const twoUps = [day(1, 10000, bar(11000)), day(2, 11000, bar(12100)), day(3, 12100, bar(12000))];
    expect(memberships(twoUps)).toMatchObject({ pools: ['previous_limit_up', 'strong'], strongReason: 'repeated_limit_up' });
  });

  it('counts a price beyond a limit as at it: a high a tick above touched it, a close a tick past closed at it', () => {
    // 000001.SZ on 1997-03-17: previous close 20.33, up limit 22.36, high 22.37, close 22.33.
    expect(memberships([day(1, 20330, bar(22330, 22370, 20800))]).pools).toEqual(['broken_limit_up']);
    // and on 1997-06-20: previous close 30.86, up limit 33.95, close 33.96.
    expect(memberships([day(1, 30860, bar(33960, 33960, 31500))])).toMatchObject({ pools: ['limit_up'], streak: 1 });
    expect(memberships([day(1, 10000, bar(8990, 9500, 8990))]).pools).toEqual(['limit_down']);
    const m = (ts: number, close: number, high = close) => bar(close, high, close, ts);
    expect(intradayLimitStats([m(1, 10900), m(2, 10990, 11010), m(3, 11010), m(4, 10950)], 11000)).toEqual({
      first: 2,
      last: null,
      broken: 2,
    });
  });

  it("counts a close beyond a limit only at the day's extreme; elsewhere the reference is in doubt", () => {
    // 002415.SZ on 2016-05-18, a 10-for-10 transfer without its corporate action: down limit 29.48
    // (previous close 32.76), close 20.78; a high and low of that shape (the close at neither).
    const transfer = day(1, 32760, bar(20780, 21120, 20370));
    expect(transfer.down).toBe(29480);
    expect(memberships([transfer]).pools).toEqual([]);
    expect(new PoolTracker().push(transfer).pools).toEqual([]);
    expect(referenceInDoubt(transfer)).toBe(true);
    // 000001.SZ on 2007-06-20 (real bar), its reform's resumption (no limit) with the bonus share loaded:
    // reference 26.08 (28.69 / 1.1), up limit 28.69; the day traded 30.66–33.30 and closed 31.19.
    const resumption = day(1, 26080, bar(31190, 33300, 30660));
    expect(resumption.up).toBe(28690);
    expect(memberships([resumption]).pools).toEqual([]);
    expect(new PoolTracker().push(resumption)).toMatchObject({ pools: [], streak: 0 });
    expect(referenceInDoubt(resumption)).toBe(true);
    // Beyond the limit at the day's extreme: the exchange's limit, a few ticks off the computed one.
    const atLow = day(1, 10000, bar(8980, 9300, 8980));
    expect([memberships([atLow]).pools, referenceInDoubt(atLow)]).toEqual([['limit_down'], false]);
    const atHigh = day(1, 30860, bar(33970, 33970, 31500));
    expect([memberships([atHigh]).pools, referenceInDoubt(atHigh)]).toEqual([['limit_up'], false]);
    // At the limit, and within the limits: no doubt; a day without a bar or limits neither.
    expect(referenceInDoubt(day(1, 10000, bar(11000, 11000, 10500)))).toBe(false);
    expect(referenceInDoubt(day(1, 10000, bar(10500, 11000, 9000)))).toBe(false);
    expect(referenceInDoubt(day(1, 10000, null))).toBe(false);
    expect(referenceInDoubt(day(1, 10000, bar(20000, 21000, 19000), { up: null, down: null, ratioPct: null }))).toBe(false);
    // A limit-up streak ends at a day in doubt.
    const streak = [day(1, 10000, bar(11000)), day(2, 11000, bar(13000, 13500, 12000))];
    expect(memberships(streak)).toMatchObject({ pools: ['previous_limit_up'], streak: 0, previousStreak: 1 });
  });

  it('marks a new 60-day high close on an up day as strong, and young listings as sub-new', () => {
    const days: DayLimit[] = [];
    for (let i = 0; i < 60; i++) days.push(day(i, 10000, bar(10000 + (i % 7) * 10)));
    days.push(day(60, 10060, bar(10500)));
    expect(memberships(days)).toMatchObject({ pools: ['strong'], strongReason: 'new_high' });
    const young = [day(1, 10000, bar(10100), { listingDay: 30 })];
    expect(memberships(young).pools).toEqual(['sub_new']);
    const noLimit = [day(1, 10000, bar(10100), { listingDay: 3, ratioPct: null, up: null, down: null })];
    expect(memberships(noLimit).pools).toEqual([]);
  });

  it('times the first touch, the final seal and the breaks from 1m bars', () => {
    const up = 11000;
    const m = (ts: number, close: number, high = close, low = close) => bar(close, high, low, ts);
    const minutes = [m(1, 10800), m(2, 10900, 11000), m(3, 11000), m(4, 10950, 11000, 10950), m(5, 11000), m(6, 11000)];
    expect(intradayLimitStats(minutes, up)).toEqual({ first: 2, last: 5, broken: 2 });
    expect(intradayLimitStats([m(1, 10900), m(2, 10990, 11000)], up)).toEqual({ first: 2, last: null, broken: 1 });
  });
});
