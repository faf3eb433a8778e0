import { describe, expect, it } from 'vitest';
import { hasReformMark, limitPrices, limitRounding, limitRule, listingKind, type LimitRuleInput } from './limits.js';
import { dayLimits, reformEnd, suspendedToEnd } from './day-limits.js';
import { TradingCalendar } from './calendar.js';

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
        name: null,
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

  it('limits shares not through the split-share reform (the S mark) to 5% from 2007-01-08', () => {
    const s = { reformPending: true };
    // S深发展A (000001.SZ) moved 7.44% on 2007-01-05 and at most 5% from 2007-01-08.
    expect(rule({ ...s, market: 'SZ', date: 20070105 })).toEqual({ ratioPct: 10, reason: 'main_board' });
    expect(rule({ ...s, market: 'SZ', date: 20070108 })).toEqual({ ratioPct: 5, reason: 'share_reform_pending' });
    // S佳通 (600182.SH) in 2025 and 2026: 5%, after the ST limit went to 10% as well; an S*ST share too.
    expect(rule({ ...s, date: 20250403 })).toEqual({ ratioPct: 5, reason: 'share_reform_pending' });
    expect(rule({ ...s, date: 20260130 })).toEqual({ ratioPct: 5, reason: 'share_reform_pending' });
    expect(rule({ ...s, st: true, date: 20260706 })).toEqual({ ratioPct: 5, reason: 'share_reform_pending' });
    expect(rule({ st: true, date: 20260706 })).toEqual({ ratioPct: 10, reason: 'st_main_board' });
    // Days without limits stay so; the mark is the main board's (ChiNext opened after the reform).
    expect(rule({ ...s, date: 19950103 })).toEqual({ ratioPct: null, reason: 'no_limit_period' });
    expect(rule({ ...s, board: 'chinext', market: 'SZ' })).toEqual({ ratioPct: 20, reason: 'chinext' });
  });

  it('reads the S mark from a name: S before the short name or its ST mark', () => {
    for (const name of ['S佳通', 'SST自仪', 'S*ST石岘', 'S 石化', 'S深发展A', 'Ｓ佳通']) expect(hasReformMark(name), name).toBe(true);
    for (const name of ['ST华兴', '*ST天夏', '佳通轮胎', 'Sunrise Tech', 'STAR 50', '', null])
      expect(hasReformMark(name), String(name)).toBe(false);
  });

  it('refuses dates before listing', () => {
    expect(() => rule({ tradingDayIndexSinceListing: -1 })).toThrow(RangeError);
  });
});

describe('limitPrices toward the previous close (the BSE)', () => {
  it("truncates the BSE's limits toward the previous close from its opening, as it publishes them", () => {
    // 430047.BJ, previous close 15.29 (2025-04-03, 2026-01-30): 19.87 / 10.71, half-up 19.88 / 10.70.
    expect(limitPrices(15290, 30, 10, 'toward_close')).toEqual({ up: 19870, down: 10710 });
    expect(limitPrices(15290, 30)).toEqual({ up: 19880, down: 10700 });
    // Exact products are the same either way; one tick at least.
    expect(limitPrices(10000, 30, 10, 'toward_close')).toEqual({ up: 13000, down: 7000 });
    expect(limitPrices(3330, 30, 10, 'toward_close')).toEqual({ up: 4320, down: 2340 }); // 4.329 / 2.331
    expect(limitPrices(30, 30, 10, 'toward_close')).toEqual({ up: 40, down: 20 }); // 0.039 -> 0.03 would not move
    expect(limitPrices(10, 30, 10, 'toward_close')).toEqual({ up: 20, down: 10 }); // never below one tick
    expect(limitRounding('BJ', 20211115)).toBe('toward_close');
    expect(limitRounding('BJ', 20211112)).toBe('half_up');
    expect(limitRounding('SH', 20250403)).toBe('half_up');
    expect(limitRounding('SZ', 20250403)).toBe('half_up');
  });

  it('gives the day states of a BSE stock and of S佳通 their published limits', () => {
    const states = (market: 'BJ' | 'SH', board: 'bse' | 'main', name: string | null, date: number, close: number) =>
      dayLimits({
        days: [date],
        board,
        market,
        listDate: null,
        listingKind: null,
        name,
        sinceListing: () => Infinity,
        isSt: () => false,
        actions: new Map(),
        prevBar: { ts: 0, date: 0, open: close, high: close, low: close, close, volume: 1, amount: 1 },
        bars: new Map(),
      }).map((d) => [d.up, d.down, d.ratioPct, d.reason]);
    expect(states('BJ', 'bse', '诺思兰德', 20250403, 15290)).toEqual([[19870, 10710, 30, 'bse']]);
    // S佳通 (600182.SH): ±5% of 13.42 is 14.091 / 12.749, half-up.
    expect(states('SH', 'main', 'S佳通', 20260130, 13420)).toEqual([[14090, 12750, 5, 'share_reform_pending']]);
    expect(states('SH', 'main', '佳通轮胎', 20260130, 13420)).toEqual([[14760, 12080, 10, 'main_board']]);
  });

  it("ends a name's S mark on its first close beyond its 5% limits and within the 10% ones: the share was through its reform by then", () => {
    // 600733.SH, S前锋 in a name table of 2017-01-13, its real closes (vipdoc): suspended from 2018-02-02, 10 for 25
    // bonus shares on 2018-09-19, resumed as 北汽蓝谷 on 2018-09-27 after its reform (no limit that day: its close is
    // beyond 10% too), then 10% up the next day.
    const bar = (date: number, close: number, high = close, low = close) => ({
      ts: 0,
      date,
      open: close,
      high,
      low,
      close,
      volume: 1,
      amount: 1,
    });
    const bars = [bar(20180201, 52690), bar(20180927, 9500, 14660), bar(20180928, 10450), bar(20181008, 10800), bar(20181009, 11700)];
    const input = (name: string, closes = bars) => ({
      days: [20180201, 20180919, 20180927, 20180928, 20181008, 20181009],
      board: 'main' as const,
      market: 'SH' as const,
      listDate: null,
      listingKind: null,
      name,
      sinceListing: () => Infinity,
      isSt: () => false,
      actions: new Map([
        [20180919, { ex_date: 20180919, cash_per_share: 0, bonus_ratio: 2_500_000, transfer_ratio: 0, rights_ratio: 0, rights_price: 0 }],
      ]),
      prevBar: bar(20180131, 52690),
      bars: new Map(closes.map((b) => [b.date, b])),
    });
    expect(reformEnd(input('S前锋'))).toBe(20180928);
    const states = (name: string, reformedFrom: number | null) =>
      dayLimits({ ...input(name), reformedFrom }).map((d) => [d.date, d.preClose, d.up, d.down, d.ratioPct, d.reason]);
    expect(states('S前锋', 20180928)).toEqual([
      [20180201, 52690, 55320, 50060, 5, 'share_reform_pending'],
      [20180919, 15050, 15800, 14300, 5, 'share_reform_pending'],
      [20180927, 15050, 15800, 14300, 5, 'share_reform_pending'],
      [20180928, 9500, 10450, 8550, 10, 'main_board'],
      [20181008, 10450, 11500, 9410, 10, 'main_board'],
      [20181009, 10800, 11880, 9720, 10, 'main_board'],
    ]);
    // Held on every day, the mark would put 2018-09-28's close of 10.45 beyond the up limit of 9.98.
    expect(states('S前锋', null)[3]).toEqual([20180928, 9500, 9980, 9030, 5, 'share_reform_pending']);
    // S佳通 (600182.SH) closed 5% down five days running in 2018-10 (real closes) and never beyond: its mark holds.
    const jt = [bar(20181008, 22490), bar(20181009, 21370), bar(20181010, 20300), bar(20181011, 19290), bar(20181012, 18330)];
    expect(reformEnd({ ...input('S佳通', jt), days: jt.map((b) => b.date), actions: new Map(), prevBar: bar(20180928, 23670) })).toBeNull();
    // A name without the mark has none to end.
    expect(reformEnd(input('北汽蓝谷'))).toBeNull();
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

describe('suspendedToEnd', () => {
  it('keeps an equity suspended to the end when an open suspension starts no later than the day after its last bar', () => {
    const cal = new TradingCalendar([20261109, 20261110, 20261111, 20261112, 20261113, 20261116]);
    // 601591.SH in the demo: last bar 2026-11-10, suspended from 2026-11-11 by announcement.
    expect(suspendedToEnd(cal, 20261110, 20261111)).toBe(true);
    expect(suspendedToEnd(cal, 20261113, 20261116)).toBe(true); // over a weekend
    expect(suspendedToEnd(cal, 20261110, 20261109)).toBe(true); // announced before bars that came after
    expect(suspendedToEnd(cal, 20261110, 20261112)).toBe(false); // 2026-11-11 unknown
    expect(suspendedToEnd(cal, 20261110, null)).toBe(false);
    expect(suspendedToEnd(cal, null, 20261111)).toBe(false);
    expect(suspendedToEnd(cal, 20261116, 20261117)).toBe(false); // no day after the last bar
  });
});
