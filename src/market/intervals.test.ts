import { describe, expect, it } from 'vitest';
import { INTERVAL_IDS, INTERVALS, type PeriodInterval } from './intervals.js';
import { aggregatePeriods } from './aggregate.js';
import { closeEpoch } from './sessions.js';
import { CALENDAR_FIRST, CALENDAR_LAST, marketTradingDays } from './calendar.js';
import { addDays, weekday } from '../lib/time.js';
import { MARKET_IDS, type Bar } from './types.js';

describe('INTERVALS', () => {
  it('lists the ten intervals in the API order', () => {
    expect(INTERVAL_IDS).toEqual(['1m', '5m', '15m', '30m', '60m', '1d', '1w', '1mo', '1q', '1y']);
  });

  it('says where each interval comes from and how long its bars are', () => {
    expect(INTERVAL_IDS.map((id) => [id, INTERVALS[id].kind, INTERVALS[id].minutes, INTERVALS[id].maxDays])).toEqual([
      ['1m', 'minute', 1, null],
      ['5m', 'intraday', 5, null],
      ['15m', 'intraday', 15, null],
      ['30m', 'intraday', 30, null],
      ['60m', 'intraday', 60, null],
      ['1d', 'daily', null, 1],
      ['1w', 'period', null, 5],
      ['1mo', 'period', null, 23],
      ['1q', 'period', null, 66],
      ['1y', 'period', null, 252],
    ]);
  });

  it('stamps daily and longer bars at the close, shorter ones at their bucket end', () => {
    expect(INTERVAL_IDS.filter((id) => INTERVALS[id].daily)).toEqual(['1d', '1w', '1mo', '1q', '1y']);
    for (const id of INTERVAL_IDS) expect(INTERVALS[id].daily, id).toBe(INTERVALS[id].minutes === null);
  });

  it('bounds each period by the trading days it holds, in any week, month or quarter and every shipped year', () => {
    const bar = (d: number): Bar => ({ ts: closeEpoch(d), date: d, open: 1, high: 1, low: 1, close: 1, volume: 1, amount: 1 });
    const most = (days: Bar[], id: PeriodInterval) => Math.max(...aggregatePeriods(days, id).map((b) => b.volume));
    // A week, month or quarter of weekdays only (no holiday): the most any calendar gives.
    const weekdays: Bar[] = [];
    for (let d = 20240101; d <= 20261231; d = addDays(d, 1)) if (weekday(d) <= 5) weekdays.push(bar(d));
    for (const id of ['1w', '1mo', '1q'] as const) expect(most(weekdays, id), id).toBe(INTERVALS[id].maxDays);
    // A year of weekdays (261) is more than the exchanges open: the shipped calendars bound it,
    // from 1994 on (1991-1993 held 255, 255 and 257 days).
    for (const market of MARKET_IDS) {
      const days = marketTradingDays(market, 19940101, CALENDAR_LAST).map(bar);
      for (const id of ['1w', '1mo', '1q', '1y'] as const)
        expect(most(days, id), `${market} ${id}`).toBeLessThanOrEqual(INTERVALS[id].maxDays!);
      expect(most(marketTradingDays(market, CALENDAR_FIRST, 19931231).map(bar), '1y')).toBeLessThanOrEqual(257);
    }
  });
});
