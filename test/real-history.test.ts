/**
 * Real A-share history, end to end: the whole of ../shared/data (1990–2025) loaded into an empty
 * store with the commands of docs/ingest.md, then the calendar, price limits, listing age, pools
 * and adjusted prices the service serves, against values computed here from the source files and
 * two independent calendars (never from the service's own code).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness } from './ingest-helpers.js';
import { loadSharedData, tdxDayRecords } from './shared-data.js';
import type { IngestResult } from '../src/ingest/load.js';

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the real-history suite is skipped.`);

type Rec = Record<string, string>;
const csv = (file: string): Rec[] => {
  const [head, ...lines] = readFileSync(join(SHARED, file), 'utf8').trim().split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
};
const iso = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;

/** Exact decimal text → integer at 10^scale (throws when not exact). */
function scaled(s: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > scale) throw new Error(`more than ${scale} decimals: ${s}`);
  const v = BigInt(m[2] + frac.padEnd(scale, '0'));
  return m[1] ? -v : v;
}
const divHalfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);
const cents = (s: string) => Number(scaled(s, 2));
const money = (c: number | null) => (c === null ? null : `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);

// The SSE/SZSE calendar from akshare (identical to exchange_calendars' XSHG sessions).
const CALENDAR = HAVE_SHARED
  ? (JSON.parse(readFileSync(join(SHARED, 'calendar/akshare_trade_calendar.json'), 'utf8')) as string[]).map(iso)
  : [];

interface Day {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
}
interface Event {
  cash: bigint;
  bonus: bigint;
  transfer: bigint;
  rights: bigint;
  price: bigint;
}

/** An equity's traded days from its source file (zero-volume and pre-listing rows are no trades). */
function days(file: string, listDate: string): Day[] {
  return csv(file)
    .filter((r) => (r.volume_lots ?? r.volume_shares) !== '0' && r.date >= listDate)
    .map((r) => ({ date: r.date, open: cents(r.open), high: cents(r.high), low: cents(r.low), close: cents(r.close) }));
}

/** Hikyuu's ex-rights events of one instrument that distribute something, per 10 shares, at 10^6. */
function events(id: string): Map<string, Event> {
  const S = (s: string) => scaled(s, 6);
  return new Map(
    csv('adjustments/hikyuu_stkweight_events_to_2011.csv')
      .filter((e) => e.ts_code === id)
      .filter((e) =>
        ['bonus_shares_per10', 'rights_shares_per10', 'cash_dividend_per10_cny', 'transfer_shares_per10'].some((k) => S(e[k]) !== 0n),
      )
      .map((e) => [
        e.date,
        {
          cash: S(e.cash_dividend_per10_cny),
          bonus: S(e.bonus_shares_per10),
          transfer: S(e.transfer_shares_per10),
          rights: S(e.rights_shares_per10),
          price: S(e.rights_shares_per10) === 0n ? 0n : S(e.rights_price_cny),
        },
      ]),
  );
}

/** 除权参考价 in cents, rounded half-up: (10·Cp − cash + price·rights) / (10 + bonus + transfer + rights), per 10 shares. */
function reference(prev: number, e: Event): number {
  const M = 1_000_000n;
  const num = 10n * BigInt(prev) * M * M - e.cash * 100n * M + e.price * 100n * e.rights;
  return Number(divHalfUp(num, (10n * M + e.bonus + e.transfer + e.rights) * M));
}

interface Expected {
  date: string;
  pre: number | null;
  up: number | null;
  down: number | null;
  pct: number | null;
  reason: string;
  listingDay: number;
  suspended: boolean;
}

/**
 * The limit rows of a main-board equity as docs/price-limits.md states the rules, from the files:
 * every calendar day from listing to the last traded day.
 */
function expectedLimits(
  market: 'SH' | 'SZ',
  listDate: string,
  traded: Day[],
  ev: Map<string, Event>,
  board: 'main' | 'star' = 'main',
): Expected[] {
  const byDate = new Map(traded.map((d) => [d.date, d]));
  const last = traded[traded.length - 1].date;
  // Rows start at the listing day, or the day after the first bar when the data start later.
  const start = traded[0].date <= listDate ? listDate : CALENDAR[CALENDAR.indexOf(traded[0].date) + 1];
  const cal = CALENDAR.filter((d) => d >= start && d <= last);
  const listIdx = CALENDAR.findIndex((d) => d >= listDate);
  const out: Expected[] = [];
  let base: number | null = start === listDate ? null : traded[0].close;
  cal.forEach((date) => {
    const i = CALENDAR.indexOf(date) - listIdx;
    const e = ev.get(date);
    const pre: number | null = base === null ? null : e ? reference(base, e) : base;
    let pct: number | null = board === 'star' ? 20 : 10,
      reason = board === 'star' ? 'star' : 'main_board';
    if (date < (market === 'SH' ? '1992-05-21' : '1991-08-17')) {
      pct = null;
      reason = 'early_market_limits';
    } else if (date < '1996-12-16') {
      pct = null;
      reason = 'no_limit_period';
    } else if (i < (board === 'star' ? 5 : 1)) {
      pct = null;
      reason = 'new_listing_no_limit';
    }
    let up: number | null = null,
      down: number | null = null;
    if (pre !== null && pct !== null) {
      up = Math.max(Number(divHalfUp(BigInt(pre) * BigInt(100 + pct), 100n)), pre + 1);
      down = Math.max(Math.min(Number(divHalfUp(BigInt(pre) * BigInt(100 - pct), 100n)), pre - 1), 1);
    }
    const bar = byDate.get(date);
    out.push({ date, pre, up, down, pct: up === null ? null : pct, reason, listingDay: i + 1, suspended: !bar });
    base = bar ? bar.close : pre;
  });
  return out;
}

const served = (r: Record<string, unknown>): Expected => ({
  date: r.trade_date as string,
  pre: r.pre_close === null ? null : cents(r.pre_close as string),
  up: r.limit_up === null ? null : cents(r.limit_up as string),
  down: r.limit_down === null ? null : cents(r.limit_down as string),
  pct: r.limit_pct === null ? null : Number(r.limit_pct),
  reason: r.reason as string,
  listingDay: r.listing_day as number,
  suspended: r.suspended as boolean,
});

const EQUITIES: Record<string, { market: 'SH' | 'SZ'; list: string; board?: 'main' | 'star'; days: Day[] }> = HAVE_SHARED
  ? {
      '600000.SH': { market: 'SH' as const, list: '1999-11-10', days: days('ohlcv/tdx_sh600000_daily_raw.csv', '1999-11-10') },
      '000002.SZ': { market: 'SZ' as const, list: '1991-01-29', days: days('ohlcv/hikyuu_sz000002_daily_raw_1991_2011.csv', '1991-01-29') },
      // Hikyuu's 1991–2011 file, then TDX's 2000–2021 file over it (loaded later: its bars win where both have one).
      '000001.SZ': {
        market: 'SZ' as const,
        list: '1991-04-03',
        days: (() => {
          const tdx = days('ohlcv/tdx_sz000001_daily_raw.csv', '1991-04-03');
          const have = new Set(tdx.map((d) => d.date));
          // And the vendor binary sz000001.day, equal to TDX's CSV where both are, to 2023-02-24.
          const binary = tdxDayRecords('ohlcv/tdx_day/sz000001.day')
            .filter((d) => !have.has(d.date))
            .map(({ date, open, high, low, close }) => ({ date, open, high, low, close }));
          return [
            ...days('ohlcv/hikyuu_sz000001_daily_raw_1991_2011.csv', '1991-04-03').filter((d) => !have.has(d.date)),
            ...tdx,
            ...binary,
          ].sort((a, b) => a.date.localeCompare(b.date));
        })(),
      },
      // TDX 2015-09-02 … 2023-02-24 (the CSV, and the .day binary it decodes); events to 2011 only.
      '600519.SH': {
        market: 'SH' as const,
        list: '2001-08-27',
        days: days('ohlcv/tdx_sh600519_daily_raw_2015_2023.csv', '2001-08-27'),
      },
      // Only 1m bars are stored: its daily bars are derived from them (first open, max high, min low, last close).
      '688001.SH': {
        market: 'SH' as const,
        list: '2019-07-22',
        board: 'star' as const,
        days: (() => {
          const out: Day[] = [];
          for (const r of csv('ohlcv/tdx_sh688001_1min.csv')) {
            const m = { date: r.date, open: cents(r.open), high: cents(r.high), low: cents(r.low), close: cents(r.close) };
            const d = out[out.length - 1];
            if (d?.date !== r.date) out.push(m);
            else {
              d.high = Math.max(d.high, m.high);
              d.low = Math.min(d.low, m.low);
              d.close = m.close;
            }
          }
          return out;
        })(),
      },
      '002032.SZ': {
        market: 'SZ' as const,
        list: '2004-08-17',
        days: csv('ohlcv/stockstats_002032_daily.csv').map((r) => ({
          date: iso(r.date),
          open: cents(r.open),
          high: cents(r.high),
          low: cents(r.low),
          close: cents(r.close),
        })),
      },
    }
  : {};

for (const kind of STORES) {
  describe.skipIf(!HAVE_SHARED)(`real A-share history 1990–2025 in an empty ${kind.name} store`, () => {
    let h: Harness;
    let loads: IngestResult[];
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      loads = await loadSharedData(h.store);
    }, 300_000);
    afterAll(async () => {
      await h?.close();
    });

    it('serves the SSE/SZSE calendar of both calendar files from 1990-12-19, and BJ from 2021-11-15', async () => {
      const xshg = readFileSync(join(SHARED, 'calendar/xshg_exchange_calendars.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.slice(0, 10))
        .filter((d) => d >= '1990-12-19');
      expect(xshg).toEqual(CALENDAR);
      for (const m of ['SH', 'SZ']) {
        expect(
          (await walk(h, `/api/v1/markets/${m}/trading-days`, 1000)).map((d) => d.date),
          m,
        ).toEqual(CALENDAR);
      }
      expect((await walk(h, '/api/v1/markets/BJ/trading-days', 1000)).map((d) => d.date)).toEqual(
        CALENDAR.filter((d) => d >= '2021-11-15'),
      );
      expect((await get(h, '/api/v1/markets/SZ')).body.data).toMatchObject({ id: 'SZ', mic: 'XSHE' });
    });

    for (const id of ['600000.SH', '000001.SZ', '000002.SZ', '002032.SZ', '688001.SH', '600519.SH']) {
      it(`${id}: every price-limit row from listing to the last bar equals the rules applied to the files`, async () => {
        const e = EQUITIES[id]!;
        const want = expectedLimits(e.market, e.list, e.days, events(id), e.board);
        const got = (await walk(h, `/api/v1/equities/${id}/price-limits`, 1000)).map(served);
        expect(got.length).toBe(want.length);
        const bad = got.filter((g, i) => JSON.stringify(g) !== JSON.stringify(want[i]));
        expect(bad.slice(0, 5)).toEqual([]);
        // and nothing after the last bar
        const after = await get(h, `/api/v1/equities/${id}/price-limits?from=${want[want.length - 1].date}`);
        expect(after.body.data.map((r: Record<string, unknown>) => r.trade_date)).toEqual([want[want.length - 1].date]);
      });
    }

    it("600519.SH 2015–2023: no bar outside its day's limits, rows from the day after the first bar, none suspended", async () => {
      const e = EQUITIES['600519.SH']!;
      const limits = await walk(h, '/api/v1/equities/600519.SH/price-limits', 1000);
      expect(limits.length).toBe(e.days.length - 1);
      expect([limits[0].trade_date, limits.at(-1).trade_date]).toEqual([e.days[1].date, '2023-02-24']);
      expect(limits.filter((l) => l.suspended)).toEqual([]);
      const byDate = new Map(e.days.map((d) => [d.date, d]));
      const outside = limits.filter((l) => {
        const d = byDate.get(l.trade_date)!;
        return d.high > cents(l.limit_up) || d.low < cents(l.limit_down);
      });
      expect(outside).toEqual([]);
      // A 1,000-yuan stock: the limit is 10% of the previous close, to the fen.
      const [last] = limits.slice(-1);
      const prev = e.days[e.days.length - 2].close;
      expect([cents(last.pre_close), cents(last.limit_up), cents(last.limit_down)]).toEqual([
        prev,
        Number(divHalfUp(BigInt(prev) * 110n, 100n)),
        Number(divHalfUp(BigInt(prev) * 90n, 100n)),
      ]);
      expect(money(e.days.at(-1)!.close)).toBe('1788.00');
    });

    it('counts listing age from the listing date: 000002.SZ is on its 4,642nd trading day on 2010-01-04', async () => {
      const [row] = (await get(h, '/api/v1/equities/000002.SZ/price-limits?date=2010-01-04')).body.data;
      expect(row).toMatchObject({ listing_day: 4642, limit_pct: '10', reason: 'main_board' });
      expect(row.limit_up).not.toBeNull();
      const [sh] = (await get(h, '/api/v1/equities/600000.SH/price-limits?date=2008-06-16')).body.data;
      expect(sh).toMatchObject({
        trade_date: '2008-06-16',
        listing_day: CALENDAR.indexOf('2008-06-16') - CALENDAR.indexOf('1999-11-10') + 1,
      });
    });

    /** Closed at the up limit, or beyond it at the day's high. */
    const closedUp = (r: Expected, bar: Day) => r.up !== null && (bar.close === r.up || (bar.close > r.up && bar.close === bar.high));
    /** Pool membership computed from the files: limit-up, limit-down, broken and previous limit-up, sub-new. */
    const limitRows = new Map<string, Expected[]>();
    function expectedPools(date: string): Record<string, string[]> {
      const pools: Record<string, string[]> = { limit_up: [], limit_down: [], broken_limit_up: [], previous_limit_up: [], sub_new: [] };
      for (const [id, e] of Object.entries(EQUITIES)) {
        if (!limitRows.has(id)) limitRows.set(id, expectedLimits(e.market, e.list, e.days, events(id), e.board));
        const rows = limitRows.get(id)!;
        const i = rows.findIndex((r) => r.date === date);
        if (i < 0 || rows[i].suspended) continue;
        const bar = e.days.find((d) => d.date === date)!;
        const r = rows[i];
        // A high at or beyond the up limit reached it (a few 1997 bars are a tick past the limit); a close beyond
        // a limit closed at it only when it is the day's extreme on that side (else the reference is in doubt).
        if (closedUp(r, bar)) pools.limit_up.push(id);
        if (r.down !== null && (bar.close === r.down || (bar.close < r.down && bar.close === bar.low))) pools.limit_down.push(id);
        if (r.up !== null && bar.high >= r.up && bar.close < r.up) pools.broken_limit_up.push(id);
        let p = i - 1;
        while (p >= 0 && rows[p].suspended) p--;
        if (
          p >= 0 &&
          closedUp(
            rows[p],
            e.days.find((d) => d.date === rows[p].date)!,
          )
        )
          pools.previous_limit_up.push(id);
        if (r.listingDay <= 250 && r.pct !== null) pools.sub_new.push(id);
      }
      return pools;
    }

    it('answers pools for stored days of the 1990s, 2000s and 2020s as the files give them', async () => {
      const seen: Record<string, number> = {};
      // 000001.SZ's highs of 1997-03-17 and 1997-04-28 are a tick above the up limit (broken), its close of 1997-06-20 too.
      for (const date of [
        '1997-03-17',
        '1997-04-28',
        '1997-06-02',
        '1997-06-03',
        '1997-06-20',
        '1997-06-23',
        '2004-09-01',
        '2005-03-01',
        '2007-06-20',
        '2007-06-21',
        '2008-09-19',
        '2008-09-22',
        '2010-01-04',
        '2016-01-04',
        '2016-01-07',
        '2021-04-26',
        '2021-05-10',
        '2021-06-02',
        '2022-10-24',
        '2023-02-24',
      ]) {
        const want = expectedPools(date);
        for (const [pool, ids] of Object.entries(want)) {
          const r = await get(h, `/api/v1/equities/pools/${pool}?date=${date}`);
          expect(r.status, `${pool} ${date}`).toBe(200);
          expect(r.body.data.map((m: { instrument_id: string }) => m.instrument_id).sort(), `${pool} ${date}`).toEqual(ids.sort());
          seen[pool] = (seen[pool] ?? 0) + ids.length;
        }
      }
      // The dates hold real members: limit-ups of 1997 and 2008, 002032.SZ sub-new in its first year.
      expect(seen.limit_up).toBeGreaterThanOrEqual(4);
      expect(seen.broken_limit_up).toBeGreaterThanOrEqual(2);
      expect(seen.previous_limit_up).toBeGreaterThanOrEqual(2);
      expect(seen.sub_new).toBeGreaterThanOrEqual(2);
      // 000001.SZ's share-reform resumption of 2007-06-20 (no limit; its bonus share loaded): a close of 31.19 beyond
      // the up limit of 28.69, below the day's high of 33.30, is no limit-up, and the day says its reference is in doubt.
      expect((await get(h, '/api/v1/equities/pools/limit_up?date=2007-06-20')).body.data).toEqual([]);
      expect((await get(h, '/api/v1/equities/pools/previous_limit_up?date=2007-06-21')).body.data).toEqual([]);
      const [resumption] = (await get(h, '/api/v1/equities/000001.SZ/price-limits?date=2007-06-20')).body.data;
      expect([resumption.pre_close, resumption.limit_up, resumption.reference_in_doubt]).toEqual(['26.08', '28.69', true]);
      const [tickPast] = (await get(h, '/api/v1/equities/000001.SZ/price-limits?date=1997-06-20')).body.data;
      expect([tickPast.limit_up, tickPast.reference_in_doubt]).toEqual(['33.95', false]);
      const vanke2010 = await get(h, '/api/v1/equities/pools/sub_new?date=2010-01-04');
      expect(vanke2010.body.data.map((m: { instrument_id: string }) => m.instrument_id)).not.toContain('000002.SZ');
    });

    it('rounds SH and SZ limits half-up: the real closes at a limit where truncation gives another price are at it', async () => {
      // A limit move: the close at the day's high (low) and at the served up (down) limit. Where the previous
      // close times 1.1 (0.9) is not a whole fen, truncation toward it would give the limit a fen closer.
      let halfUpOnly = 0;
      for (const id of ['600000.SH', '000001.SZ', '000002.SZ', '002032.SZ']) {
        const byDate = new Map(EQUITIES[id]!.days.map((d) => [d.date, d]));
        for (const l of await walk(h, `/api/v1/equities/${id}/price-limits?from=1996-12-16`, 1000)) {
          const bar = byDate.get(l.trade_date);
          if (!bar || l.limit_up === null || l.limit_pct !== '10') continue;
          const pre = BigInt(cents(l.pre_close));
          const [up, down] = [cents(l.limit_up), cents(l.limit_down)];
          if (bar.close === up && bar.close === bar.high && (pre * 110n) % 100n !== 0n && Number((pre * 110n) / 100n) !== up) halfUpOnly++;
          if (bar.close === down && bar.close === bar.low && (pre * 90n) % 100n !== 0n && Number((pre * 90n + 99n) / 100n) !== down)
            halfUpOnly++;
        }
      }
      expect(halfUpOnly).toBe(62);
    });

    it('follows the Sina factors for 000002.SZ adjusted prices on every day', async () => {
      const hfq = csv('adjustments/sina_000002SZ_hfq_factor.csv')
        .filter((r) => r.date !== '1900-01-01')
        .map((r) => ({ date: r.date, f: scaled(r.hfq_factor, 16) }))
        .sort((a, b) => a.date.localeCompare(b.date));
      const factorOn = (d: string) => [...hfq].reverse().find((r) => r.date <= d)!.f;
      const latest = hfq[hfq.length - 1].f;
      const S = 10n ** 16n;
      const raw = EQUITIES['000002.SZ']!.days;
      const back = await walk(h, '/api/v1/equities/000002.SZ/bars?interval=1d&adjustment=backward&from=1991-01-01', 1000);
      const fwd = await walk(h, '/api/v1/equities/000002.SZ/bars?interval=1d&adjustment=forward&from=1991-01-01', 1000);
      expect(back.map((b) => b.trade_date)).toEqual(raw.map((d) => d.date));
      raw.forEach((d, i) => {
        expect(back[i].close, d.date).toBe(money(Number(divHalfUp(BigInt(d.close) * factorOn(d.date), S))));
        expect(fwd[i].close, d.date).toBe(money(Number(divHalfUp(BigInt(d.close) * factorOn(d.date), latest))));
      });
    });

    it('answers CCI 0 on every flat 14-bar window (H + L + C the same on each bar) of 000001.SZ and 000002.SZ', async () => {
      let flat = 0,
        moved = 0;
      for (const id of ['000001.SZ', '000002.SZ']) {
        for (const adjustment of ['none', 'forward', 'backward']) {
          const q = `interval=1d&adjustment=${adjustment}&from=1991-01-01`;
          const bars = await walk(h, `/api/v1/equities/${id}/bars?${q}`, 1000);
          const points = await walk(h, `/api/v1/equities/${id}/technical-indicators/cci?${q}`, 1000);
          expect(points.map((p) => p.timestamp)).toEqual(bars.map((b) => b.timestamp));
          // H + L + C in cents, from the served decimals.
          const sum = bars.map((b) => cents(b.high) + cents(b.low) + cents(b.close));
          for (let i = 13; i < bars.length; i++) {
            const w = sum.slice(i - 13, i + 1);
            if (w.every((x) => x === w[0])) {
              flat++;
              expect(points[i].values.cci, `${id} ${adjustment} ${bars[i].trade_date}`).toBe('0.0000');
            } else if (points[i].values.cci !== '0.0000') moved++;
          }
        }
      }
      // The files hold flat windows (suspensions recorded as bars at the last close), and CCI moves elsewhere.
      expect(flat).toBeGreaterThanOrEqual(47);
      expect(moved).toBeGreaterThan(10_000);
    });

    it('warned at ingest of 600000.SH bars outside their limits after 2011, where the events file ends', () => {
      const warnings = loads.flatMap((r) => r.warnings);
      const spd = warnings.filter((w) => w.includes(' 600000.SH '));
      expect(spd.length).toBeGreaterThan(0);
      for (const w of spd) {
        expect(w).toMatch(/tdx_sh600000_daily_raw\.csv:\d+: 600000\.SH \d{4}-\d\d-\d\d: (high|low) /);
        const [, line, date] = /csv:(\d+): 600000\.SH (\S+):/.exec(w)!;
        expect(csv('ohlcv/tdx_sh600000_daily_raw.csv')[Number(line) - 2].date).toBe(date);
      }
    });
  });
}
