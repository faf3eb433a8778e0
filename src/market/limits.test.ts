import { describe, expect, it } from 'vitest';
import { limitPrices, limitRule, listingKind, type LimitRuleInput } from './limits.js';
import { dayLimits } from './day-limits.js';

const rule = (over: Partial<LimitRuleInput>) =>
  limitRule({ board: 'main', market: 'SH', st: false, date: 20240301, listDate: 20100104, tradingDayIndexSinceListing: 1000, ...over });

describe('limitRule', () => {
  it('gives the ordinary ratio per board', () => {
    expect(rule({})).toEqual({ ratioPct: 10, reason: 'main_board' });
    expect(rule({ board: 'chinext' })).toEqual({ ratioPct: 20, reason: 'chinext' });
    expect(rule({ board: 'star' })).toEqual({ ratioPct: 20, reason: 'star' });
    expect(rule({ board: 'bse' })).toEqual({ ratioPct: 30, reason: 'bse' });
  });

  it('switches ChiNext to 20% on 2020-08-24', () => {
    expect(rule({ board: 'chinext', date: 20200821 })).toEqual({ ratioPct: 10, reason: 'chinext' });
    expect(rule({ board: 'chinext', date: 20200824 })).toEqual({ ratioPct: 20, reason: 'chinext' });
    expect(rule({ board: 'chinext', st: true, date: 20200821 })).toEqual({ ratioPct: 5, reason: 'st_chinext' });
    expect(rule({ board: 'chinext', st: true, date: 20200824 })).toEqual({ ratioPct: 20, reason: 'st_chinext' });
  });

  it('raises the main-board ST limit to 10% on 2026-07-06', () => {
    expect(rule({ st: true, date: 20260703 })).toEqual({ ratioPct: 5, reason: 'st_main_board' });
    expect(rule({ st: true, date: 20260706 })).toEqual({ ratioPct: 10, reason: 'st_main_board' });
    expect(rule({ board: 'star', st: true })).toEqual({ ratioPct: 20, reason: 'st_star' });
    expect(rule({ board: 'bse', st: true })).toEqual({ ratioPct: 30, reason: 'st_bse' });
  });

  it('has no limit on the first 5 days of registration-system listings', () => {
    const none = { ratioPct: null, reason: 'new_listing_no_limit' };
    for (const board of ['main', 'chinext', 'star'] as const) {
      const listed = { board, listDate: 20230410, date: 20230410 };
      for (let i = 0; i < 5; i++) expect(rule({ ...listed, tradingDayIndexSinceListing: i }), `${board} ${i}`).toEqual(none);
      expect(rule({ ...listed, tradingDayIndexSinceListing: 5 }).ratioPct).not.toBeNull();
    }
    expect(rule({ board: 'chinext', listDate: 20200824, date: 20200828, tradingDayIndexSinceListing: 4 })).toEqual(none);
    expect(rule({ board: 'bse', listDate: 20230410, tradingDayIndexSinceListing: 0 })).toEqual(none);
    expect(rule({ board: 'bse', listDate: 20230410, tradingDayIndexSinceListing: 1 })).toEqual({ ratioPct: 30, reason: 'bse' });
  });

  it("limits the BSE opening day of the stocks moved from NEEQ's select tier to 30%; only its IPOs were free", () => {
    // 2021-11-15: 81 listings, 71 moved from the select tier (精选层), 10 public offerings.
    const opening = { board: 'bse' as const, market: 'BJ' as const, listDate: 20211115, date: 20211115, tradingDayIndexSinceListing: 0 };
    expect(rule({ ...opening, listingKind: 'transfer' })).toEqual({ ratioPct: 30, reason: 'bse' });
    expect(rule({ ...opening, listingKind: 'transfer', st: true })).toEqual({ ratioPct: 30, reason: 'st_bse' });
    expect(rule({ ...opening, listingKind: 'ipo' })).toEqual({ ratioPct: null, reason: 'new_listing_no_limit' });
    expect(rule(opening)).toEqual({ ratioPct: null, reason: 'new_listing_no_limit' });
    // The record's listing_kind decides; without one, a BJ listing dated 2021-11-15 is a transfer.
    expect(listingKind('BJ', 20211115, null)).toBe('transfer');
    expect(listingKind('BJ', 20211115, 'ipo')).toBe('ipo');
    expect(listingKind('BJ', 20211116, null)).toBe('ipo');
    expect(listingKind('SZ', 20211115, null)).toBe('ipo');
    expect(listingKind('BJ', 20220110, 'transfer')).toBe('transfer');
    expect(() => listingKind('BJ', 20211115, 'moved')).toThrow(RangeError);
  });

  it("bases a moved stock's opening-day limits on its last NEEQ close", () => {
    const days = (listingKind: string | null) =>
      dayLimits({
        days: [20211115, 20211116],
        board: 'bse',
        market: 'BJ',
        listDate: 20211115,
        listingKind,
        sinceListing: (d) => (d === 20211115 ? 0 : 1),
        isSt: () => false,
        actions: new Map(),
        // The close of 2021-11-12 on NEEQ's select tier, 10.00.
        prevBar: { ts: 0, date: 20211112, open: 10000, high: 10000, low: 10000, close: 10000, volume: 1, amount: 1 },
        bars: new Map([[20211115, { ts: 0, date: 20211115, open: 12000, high: 13000, low: 11000, close: 12500, volume: 1, amount: 1 }]]),
      }).map((d) => [d.date, d.preClose, d.up, d.down, d.ratioPct, d.reason, d.listingDay]);
    expect(days(null)).toEqual([
      [20211115, 10000, 13000, 7000, 30, 'bse', 1],
      [20211116, 12500, 16250, 8750, 30, 'bse', 2],
    ]);
    expect(days('ipo')[0]).toEqual([20211115, 10000, null, null, null, 'new_listing_no_limit', 1]);
  });

  it('treats pre-reform IPO first days as an unexpressed band, then the ordinary limit', () => {
    const band = { ratioPct: null, reason: 'ipo_first_day_band' };
    expect(rule({ listDate: 20230407, tradingDayIndexSinceListing: 0 })).toEqual(band);
    expect(rule({ listDate: 20230407, tradingDayIndexSinceListing: 1 })).toEqual({ ratioPct: 10, reason: 'main_board' });
    expect(rule({ board: 'chinext', listDate: 20200821, date: 20200821, tradingDayIndexSinceListing: 0 })).toEqual(band);
    // listed under the old rules, trading on after the reform: the new ordinary ratio
    expect(rule({ board: 'chinext', listDate: 20200821, date: 20200824, tradingDayIndexSinceListing: 1 })).toEqual({
      ratioPct: 20,
      reason: 'chinext',
    });
  });

  // docs/price-limits.md: one assertion per row of the table of rules.
  it("publishes no limits under the early exchanges' varying limits (SSE to 1992-05-20, SZSE to 1991-08-16)", () => {
    const early = { ratioPct: null, reason: 'early_market_limits' };
    expect(rule({ date: 19901219, listDate: 19901219, tradingDayIndexSinceListing: 0 })).toEqual(early);
    expect(rule({ date: 19920520 })).toEqual(early);
    expect(rule({ market: 'SZ', date: 19910816 })).toEqual(early);
    expect(rule({ market: 'SZ', date: 19910819 })).toEqual({ ratioPct: null, reason: 'no_limit_period' });
  });

  it('has no limits from 1992-05-21 (SSE) to 1996-12-13, 10% from 1996-12-16', () => {
    const free = { ratioPct: null, reason: 'no_limit_period' };
    expect(rule({ date: 19920521 })).toEqual(free);
    expect(rule({ market: 'SZ', date: 19961213 })).toEqual(free);
    expect(rule({ st: true, date: 19961213 })).toEqual(free);
    expect(rule({ date: 19961216 })).toEqual({ ratioPct: 10, reason: 'main_board' });
    expect(rule({ market: 'SZ', date: 19961216 })).toEqual({ ratioPct: 10, reason: 'main_board' });
  });

  it('limits ST stocks to 5% from 1998-04-22, when special treatment began', () => {
    expect(rule({ st: true, date: 19980421 })).toEqual({ ratioPct: 10, reason: 'main_board' });
    expect(rule({ st: true, date: 19980422 })).toEqual({ ratioPct: 5, reason: 'st_main_board' });
    expect(rule({ market: 'SZ', st: true, date: 20080616 })).toEqual({ ratioPct: 5, reason: 'st_main_board' });
  });

  it('had no limit on the listing day from 1996-12-16 until the 2014 band', () => {
    const none = { ratioPct: null, reason: 'new_listing_no_limit' };
    expect(rule({ listDate: 19991110, date: 19991110, tradingDayIndexSinceListing: 0 })).toEqual(none);
    expect(rule({ listDate: 19991110, date: 19991111, tradingDayIndexSinceListing: 1 })).toEqual({ ratioPct: 10, reason: 'main_board' });
    expect(rule({ board: 'chinext', market: 'SZ', listDate: 20091030, date: 20091030, tradingDayIndexSinceListing: 0 })).toEqual(none);
    expect(rule({ board: 'chinext', market: 'SZ', listDate: 20091030, date: 20091102, tradingDayIndexSinceListing: 1 })).toEqual({
      ratioPct: 10,
      reason: 'chinext',
    });
    expect(rule({ listDate: 20140117, date: 20140117, tradingDayIndexSinceListing: 0 })).toEqual({
      ratioPct: null,
      reason: 'ipo_first_day_band',
    });
  });

  it('gives STAR 20% from its opening, no limit on the first 5 days', () => {
    expect(rule({ board: 'star', listDate: 20190722, date: 20190726, tradingDayIndexSinceListing: 4 })).toEqual({
      ratioPct: null,
      reason: 'new_listing_no_limit',
    });
    expect(rule({ board: 'star', listDate: 20190722, date: 20190729, tradingDayIndexSinceListing: 5 })).toEqual({
      ratioPct: 20,
      reason: 'star',
    });
  });

  it('refuses dates before listing', () => {
    expect(() => rule({ tradingDayIndexSinceListing: -1 })).toThrow(RangeError);
  });
});

describe('limitPrices', () => {
  it('rounds half-up to 0.01 CNY', () => {
    expect(limitPrices(10010, 10)).toEqual({ up: 11010, down: 9010 }); // 11.011 / 9.009
    expect(limitPrices(1040, 5)).toEqual({ up: 1090, down: 990 }); // 1.092 / 0.988
    expect(limitPrices(10050, 5)).toEqual({ up: 10550, down: 9550 }); // 10.5525 / 9.5475
    expect(limitPrices(1050, 10)).toEqual({ up: 1160, down: 950 }); // 1.155 -> 1.16 (half up), 0.945 -> 0.95
    expect(limitPrices(25010, 20)).toEqual({ up: 30010, down: 20010 }); // 30.012 / 20.008
    expect(limitPrices(3330, 30)).toEqual({ up: 4330, down: 2330 }); // 4.329 / 2.331
    expect(limitPrices(1723500, 10)).toEqual({ up: 1895850, down: 1551150 });
  });

  it('moves at least one tick', () => {
    expect(limitPrices(50, 5)).toEqual({ up: 60, down: 40 }); // 0.0525 -> 0.05 would not move
    expect(limitPrices(190, 5)).toEqual({ up: 200, down: 180 }); // 0.1995 -> 0.20, 0.1805 -> 0.18
    expect(limitPrices(90, 5)).toEqual({ up: 100, down: 80 }); // 0.0945 -> 0.09: one tick instead
    expect(limitPrices(10, 10)).toEqual({ up: 20, down: 10 }); // never below one tick
  });

  it('rounds fund limits to 0.001', () => {
    expect(limitPrices(3999, 10, 1)).toEqual({ up: 4399, down: 3599 }); // 4.3989 / 3.5991
    expect(limitPrices(1005, 10, 1)).toEqual({ up: 1106, down: 905 }); // 1.1055 -> 1.106, 0.9045 -> 0.905
    expect(limitPrices(5, 10, 1)).toEqual({ up: 6, down: 4 });
  });

  it('validates its inputs', () => {
    expect(() => limitPrices(0, 10)).toThrow(RangeError);
    expect(() => limitPrices(1000, 4.5)).toThrow(RangeError);
    expect(() => limitPrices(1000, 10, 0)).toThrow(RangeError);
  });
});
