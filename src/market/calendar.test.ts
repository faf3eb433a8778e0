import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addDays, parseDate, weekday } from '../lib/time.js';
import {
  CALENDAR_FIRST,
  CALENDAR_LAST,
  closureName,
  isTradingDay,
  marketOpened,
  marketTradingDays,
  nextTradingDay,
  previousTradingDay,
  tradingDaysBetween,
  monthsHolding,
  SHIPPED_CALENDARS,
  TradingCalendar,
} from './calendar.js';

const FILE = JSON.parse(readFileSync(new URL('../../calendars/sse-szse-bse.json', import.meta.url), 'utf8')) as {
  closures: [string, string, string][];
  markets: Record<string, { first: string }>;
  last: string;
};
const CLOSURES = FILE.closures;

// Reference calendars, read in place: <repo>/../shared/data/calendar (see its README).
const CAL_DIR = fileURLToPath(new URL('../../../shared/data/calendar/', import.meta.url));
const haveRefs = existsSync(CAL_DIR);
if (!haveRefs) console.warn(`calendar.test: ${CAL_DIR} is absent; skipping the reference-calendar comparison`);

function allDates(): number[] {
  const out: number[] = [];
  for (let d = CALENDAR_FIRST; d <= CALENDAR_LAST; d = addDays(d, 1)) out.push(d);
  return out;
}

describe('closure table (calendars/sse-szse-bse.json)', () => {
  it('covers 1990-12-19 to 2026-12-31, BJ from its opening', () => {
    expect([CALENDAR_FIRST, CALENDAR_LAST]).toEqual([19901219, 20261231]);
    expect(FILE.markets).toEqual({ SH: { first: '1990-12-19' }, SZ: { first: '1990-12-19' }, BJ: { first: '2021-11-15' } });
  });

  it('is ascending, non-overlapping, weekday-bounded and named', () => {
    let prev = 0;
    for (const [a, b, name] of CLOSURES) {
      const first = parseDate(a)!,
        last = parseDate(b)!;
      expect(first, a).toBeGreaterThan(prev);
      expect(last, b).toBeGreaterThanOrEqual(first);
      expect(weekday(first), a).toBeLessThanOrEqual(5);
      expect(weekday(last), b).toBeLessThanOrEqual(5);
      expect(name.length).toBeGreaterThan(0);
      prev = last;
    }
  });
});

describe.skipIf(!haveRefs)('against the reference calendars in shared/data/calendar', () => {
  const read = (f: string) => readFileSync(CAL_DIR + f, 'utf8');
  const mine = allDates().filter(isTradingDay);

  it('equals the XSHG sessions of exchange_calendars', () => {
    const sessions = read('xshg_exchange_calendars.csv')
      .split('\n')
      .slice(1)
      .filter((l) => l.length > 0)
      .map((l) => parseDate(l.slice(0, 10))!)
      .filter((d) => d >= CALENDAR_FIRST && d <= CALENDAR_LAST);
    expect(mine).toEqual(sessions);
  });

  it('equals the akshare trade calendar', () => {
    const days = (JSON.parse(read('akshare_trade_calendar.json')) as string[])
      .map(Number)
      .filter((d) => d >= CALENDAR_FIRST && d <= CALENDAR_LAST);
    expect(mine).toEqual(days);
  });

  it('equals cn_stock_holidays except its known miss of 2018-12-31', () => {
    const holidays = new Set(read('cn_stock_holidays_data.txt').split('\n').filter(Boolean).map(Number));
    const differ = allDates().filter((d) => weekday(d) <= 5 && holidays.has(d) === isTradingDay(d));
    expect(differ).toEqual([20181231]);
    expect(isTradingDay(20181231)).toBe(false);
  });
});

describe('calendar', () => {
  it('has the yearly trading-day counts of the README', () => {
    const counts: Record<number, number> = {
      1991: 255,
      1996: 247,
      2000: 239,
      2008: 246,
      2015: 244,
      2016: 244,
      2017: 244,
      2018: 243,
      2019: 244,
      2020: 243,
      2021: 243,
      2022: 242,
      2023: 242,
      2024: 242,
      2025: 243,
      2026: 242,
    };
    for (const [y, n] of Object.entries(counts)) {
      expect(tradingDaysBetween(+y * 10000 + 101, +y * 10000 + 1231).length, y).toBe(n);
    }
  });

  it('knows the holiday spot checks', () => {
    expect(tradingDaysBetween(20240208, 20240219)).toEqual([20240208, 20240219]);
    expect(tradingDaysBetween(20260213, 20260224)).toEqual([20260213, 20260224]);
    expect(isTradingDay(20260925)).toBe(false);
    expect(tradingDaysBetween(20251001, 20251008)).toEqual([]);
    expect(isTradingDay(20251009)).toBe(true);
    expect(closureName(20240212)).toBe('Spring Festival');
    expect(closureName(20240210)).toBe('Spring Festival'); // a weekend inside the holiday
    expect(closureName(20240217)).toBeNull(); // an ordinary weekend
    expect(closureName(20240219)).toBeNull();
    expect(closureName(20181231)).toBe("New Year's Day");
    expect(closureName(19970701)).toBe('Return of Hong Kong');
    expect(closureName(19990215)).toBe('Spring Festival');
    expect(isTradingDay(19901219)).toBe(true);
    expect(isTradingDay(20070620)).toBe(true);
    expect(isTradingDay(19961001)).toBe(false);
  });

  it('steps to the next and previous trading day', () => {
    expect(nextTradingDay(20240208)).toBe(20240219);
    expect(previousTradingDay(20240219)).toBe(20240208);
    expect(nextTradingDay(20240210)).toBe(20240219); // from a closed day
    expect(previousTradingDay(20240210)).toBe(20240208);
    expect(nextTradingDay(20181228)).toBe(20190102);
    expect(previousTradingDay(20190102)).toBe(20181228);
    expect(nextTradingDay(20240131)).toBe(20240201);
  });

  it('is consistent: next/previous walk the same list', () => {
    const days = tradingDaysBetween(CALENDAR_FIRST, CALENDAR_LAST);
    expect(days[0]).toBe(CALENDAR_FIRST);
    for (let i = 1; i < days.length; i++) {
      expect(nextTradingDay(days[i - 1])).toBe(days[i]);
      expect(previousTradingDay(days[i])).toBe(days[i - 1]);
    }
  });

  it('knows nothing outside the table', () => {
    expect(isTradingDay(19901218)).toBe(false);
    expect(isTradingDay(20270104)).toBe(false);
    expect(previousTradingDay(CALENDAR_FIRST)).toBeNull();
    expect(nextTradingDay(19901218)).toBeNull();
    expect(nextTradingDay(20261231)).toBeNull();
    expect(previousTradingDay(20270104)).toBeNull();
    expect(tradingDaysBetween(19900101, 19901220)).toEqual([19901219, 19901220]);
    expect(tradingDaysBetween(20100106, 20100104)).toEqual([]);
    expect(isTradingDay(20240230)).toBe(false); // not a date
  });

  it('lists each market from its first calendar day', () => {
    expect(marketOpened('SH')).toBe(19901219);
    expect(marketOpened('SZ')).toBe(19901219);
    expect(marketOpened('BJ')).toBe(20211115);
    expect(marketTradingDays('BJ', 20211108, 20211116)).toEqual([20211115, 20211116]);
    expect(marketTradingDays('SH', 20211108, 20211109)).toEqual([20211108, 20211109]);
    expect(marketTradingDays('SZ', 19900101, 19901220)).toEqual([19901219, 19901220]);
    expect(SHIPPED_CALENDARS.SZ.days).toEqual(SHIPPED_CALENDARS.SH.days);
  });

  it('takes loaded days over the shipped ones', () => {
    const c = SHIPPED_CALENDARS.SH.withOverrides([20240210], [20240208]);
    expect(c.between(20240207, 20240219)).toEqual([20240207, 20240210, 20240219]);
    expect(c.ordinal(20240219)! - c.ordinal(20240207)!).toBe(2);
    expect(SHIPPED_CALENDARS.SH.withOverrides([], [])).toBe(SHIPPED_CALENDARS.SH);
    const extended = SHIPPED_CALENDARS.SH.withOverrides([20270104], []);
    expect(extended.next(20261231)).toBe(20270104);
    expect(new TradingCalendar([]).next(20240101)).toBeNull();
  });
});

describe('monthsHolding', () => {
  it('counts the months of the first n trading days, as listing them does', () => {
    const months = (days: number[]) => new Set(days.map((d) => Math.floor(d / 100))).size;
    for (let from = 20230101; from < 20260101; from = addDays(from, 13)) {
      for (const n of [1, 5, 21, 101, 400]) {
        for (const to of [20991231, addDays(from, 40)]) {
          expect(monthsHolding(from, to, n), `${from} ${to} ${n}`).toBe(Math.max(1, months(tradingDaysBetween(from, to).slice(0, n))));
        }
      }
    }
    expect(monthsHolding(20240315, 20991231, 101)).toBe(6);
    expect(monthsHolding(19900101, 20991231, 101)).toBeNull();
  });
});
