/**
 * Price-limit rules on a store made from files (issue 37), on every store: the BSE's limits
 * truncated toward the previous close, the 5% limit of a share with the split-share reform's
 * `S` mark, closes beyond a limit (a limit move only at the day's extreme; elsewhere the day's
 * reference is in doubt), a loaded suspension still open at the data's last day, and breadth of
 * a day that is not a trading day. The figures are the issue's: published limit prices
 * (430047.BJ, S佳通) and real bars (000001.SZ, 600000.SH), with a bar of 002415.SZ's shape.
 * A store whose days were made by the code before (another `market_days` version, other
 * answers) gets these answers from `mds migrate`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, mds, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { MARKET_DAYS } from '../src/derived/market-days.js';
import { decodeDay, encodeDay, DAY_FLAGS } from '../src/store/day-records.js';
import { daysBetween, writeDays } from '../src/store/tables/market-days.js';
import { setMeta } from '../src/store/meta.js';
import { breadthOf } from '../src/derived/market-sweep.js';

const INSTRUMENTS = [
  'instrument_id,kind,board,name,list_date',
  '430047.BJ,equity,bse,诺思兰德,',
  '600182.SH,equity,main,S佳通,',
  '600733.SH,equity,main,S前锋,',
  '600036.SH,equity,main,招商银行,',
  '600016.SH,equity,main,民生银行,',
  '002415.SZ,equity,main,海康威视,',
  '600000.SH,equity,main,浦发银行,',
  '000001.SZ,equity,main,平安银行,',
];
const BARS = [
  'instrument_id,trade_date,open,high,low,close,volume,amount',
  // 430047.BJ: previous close 15.29; the BSE's up limit is 19.87 (15.29 x 1.3 = 19.877, rounded down).
  '430047.BJ,2025-04-02,15.00,15.40,14.90,15.29,100,1529.00',
  '430047.BJ,2025-04-03,16.00,19.87,16.00,19.87,100,1987.00',
  // S佳通: previous close 13.42, a 5% limit-up at 14.09 (13.42 x 1.05 = 14.091).
  '600182.SH,2026-01-29,13.40,13.50,13.30,13.42,100,1342.00',
  '600182.SH,2026-01-30,13.60,14.09,13.55,14.09,100,1409.00',
  // S前锋 (600733.SH, real bars): its last close before its reform's suspension, 10送25 on 2018-09-19, the
  // resumption as 北汽蓝谷 (no limit that day), then a close 10% up: the S mark held no more (market/day-limits.ts reformEnd).
  '600733.SH,2018-02-01,52.69,52.69,52.69,52.69,100,5269.00',
  '600733.SH,2018-09-27,14.66,14.66,9.50,9.50,100,950.00',
  '600733.SH,2018-09-28,9.01,10.45,9.01,10.45,100,1045.00',
  '600733.SH,2018-10-08,11.50,11.50,10.38,10.80,100,1080.00',
  // 600036.SH: bars to 2026-01-29, suspended from 2026-01-30 by an announcement without an end.
  '600036.SH,2026-01-28,40.00,40.50,39.80,40.10,100,4010.00',
  '600036.SH,2026-01-29,40.10,40.20,39.90,40.00,100,4000.00',
  // 600016.SH: bars to 2026-01-28, and an open suspension only from 2026-01-30 (2026-01-29 unknown).
  '600016.SH,2026-01-27,5.00,5.10,4.95,5.05,100,505.00',
  '600016.SH,2026-01-28,5.05,5.10,5.00,5.08,100,508.00',
  // 002415.SZ on 2016-05-18: a 10-for-10 transfer, not loaded; a close of 20.78 against a down limit
  // of 29.48 (previous close 32.76), neither the day's high nor its low.
  '002415.SZ,2016-05-17,32.50,33.00,32.40,32.76,100,3276.00',
  '002415.SZ,2016-05-18,20.50,21.12,20.37,20.78,100,2078.00',
  // 600000.SH: the last close before its reform's suspension, and the resumption (real bars), 10送3 loaded.
  '600000.SH,2006-03-20,10.75,10.93,10.53,10.86,100,1086.00',
  '600000.SH,2006-05-12,10.06,10.66,9.80,10.21,100,1021.00',
  // 000001.SZ: the resumption of 2007-06-20 (10送1 loaded), the ex-date of 2015-04-13 (not loaded), real bars.
  '000001.SZ,2007-05-31,27.01,28.69,26.30,28.69,100,2869.00',
  '000001.SZ,2007-06-20,33.00,33.30,30.66,31.19,100,3119.00',
  '000001.SZ,2007-06-21,32.44,34.31,31.25,34.31,100,3431.00',
  '000001.SZ,2015-04-10,18.00,19.80,17.85,19.80,100,1980.00',
  '000001.SZ,2015-04-13,17.00,17.16,16.15,16.54,100,1654.00',
];
const ACTIONS = [
  'instrument_id,ex_date,record_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price',
  '600000.SH,2006-05-12,2006-05-11,2006-05-08,0,0.3,0,0,0',
  '000001.SZ,2007-06-20,2007-06-19,2007-06-15,0,0.1,0,0,0',
  '600733.SH,2018-09-19,2018-09-18,2018-09-13,0,2.5,0,0,0',
];
const SUSPENSIONS = [
  'instrument_id,start_date,end_date,resume_date,halt_from,halt_to,reason,announce_date',
  '600036.SH,2026-01-30,,,,,重大事项,2026-01-29',
  '600016.SH,2026-01-30,,,,,重大事项,2026-01-29',
];

const row = (r: Record<string, unknown>) => [
  r.trade_date,
  r.pre_close,
  r.limit_up,
  r.limit_down,
  r.limit_pct,
  r.reason,
  r.reference_in_doubt,
];

for (const kind of STORES) {
  describe(`price-limit rules of issue 37 (${kind.name})`, () => {
    let h: Harness;
    let url: string;
    const dir = tmp('mds-limit-rules-');
    const file = (name: string, lines: string[]) => {
      const p = join(dir, name);
      writeFileSync(p, lines.join('\n') + '\n');
      return p;
    };
    const limits = async (id: string, q = '') => (await walk(h, `/api/v1/equities/${id}/price-limits${q}`, 100)).map(row);
    const pool = async (type: string, date: string) =>
      (await walk(h, `/api/v1/equities/pools/${type}?date=${date}`, 100)).map((m) => m.instrument_id);
    const breadth = async (market: string, date: string) => (await get(h, `/api/v1/markets/${market}/breadth?date=${date}`)).body.data[0];

    beforeAll(async () => {
      url = await kind.url();
      h = await emptyHarness(url);
      const r = await ingest(h.store, [
        { path: file('instruments.csv', INSTRUMENTS), dataset: dataset('instruments')! },
        { path: file('bars_1d.csv', BARS), dataset: dataset('bars_1d')! },
        { path: file('corporate_actions.csv', ACTIONS), dataset: dataset('corporate_actions')! },
      ]);
      expect(r.errors).toEqual([]);
      // The suspensions come in a load of their own: the days they change are made again then.
      const s = await ingest(h.store, [{ path: file('suspensions.csv', SUSPENSIONS), dataset: dataset('suspensions')! }]);
      expect(s.errors).toEqual([]);
    });
    afterAll(async () => {
      await h?.close();
    });

    it("truncates the BSE's limits toward the previous close, as it publishes them (430047.BJ: 19.87 / 10.71)", async () => {
      expect(await limits('430047.BJ')).toEqual([['2025-04-03', '15.29', '19.87', '10.71', '30', 'bse', false]]);
      expect(await pool('limit_up', '2025-04-03')).toEqual(['430047.BJ']);
      expect(await breadth('BJ', '2025-04-03')).toMatchObject({ listed: 1, advancers: 1, limit_up: 1, limit_down: 0 });
      const [bar] = (await get(h, '/api/v1/markets/BJ/bars?date=2025-04-03')).body.data;
      expect([bar.limit_up, bar.limit_down]).toEqual(['19.87', '10.71']);
    });

    it('limits S佳通, a share not through the split-share reform, to 5%', async () => {
      expect(await limits('600182.SH')).toEqual([['2026-01-30', '13.42', '14.09', '12.75', '5', 'share_reform_pending', false]]);
      expect(await pool('limit_up', '2026-01-30')).toEqual(['600182.SH']);
    });

    it("ends S前锋's S mark on its first close beyond 5% within 10%: 10% from then on, in the pools too", async () => {
      const days = ['2018-09-27', '2018-09-28', '2018-10-08'];
      expect((await limits('600733.SH')).filter((r) => days.includes(r[0] as string)).map((r) => r.slice(0, 6))).toEqual([
        ['2018-09-27', '15.05', '15.80', '14.30', '5', 'share_reform_pending'],
        ['2018-09-28', '9.50', '10.45', '8.55', '10', 'main_board'],
        ['2018-10-08', '10.45', '11.50', '9.41', '10', 'main_board'],
      ]);
      expect(await pool('limit_up', '2018-09-28')).toEqual(['600733.SH']);
    });

    it("counts a close beyond a limit only at the day's extreme, and says when the day's reference is in doubt", async () => {
      // 002415.SZ: close 20.78, down limit 29.48, low 20.37: no limit-down, the reference in doubt.
      expect(await limits('002415.SZ')).toEqual([['2016-05-18', '32.76', '36.04', '29.48', '10', 'main_board', true]]);
      expect(await pool('limit_down', '2016-05-18')).toEqual([]);
      expect(await breadth('SZ', '2016-05-18')).toMatchObject({ listed: 1, decliners: 1, limit_down: 0 });
      // 600000.SH, resumption after its reform: 10.86 / 1.3 = 8.35, up limit 9.19, close 10.21 below the high.
      expect(await limits('600000.SH', '?date=2006-05-12')).toEqual([['2006-05-12', '8.35', '9.19', '7.52', '10', 'main_board', true]]);
      expect(await pool('limit_up', '2006-05-12')).toEqual([]);
      expect(await breadth('SH', '2006-05-12')).toMatchObject({ limit_up: 0 });
      // 000001.SZ, resumption of 2007-06-20: 28.69 / 1.1 = 26.08, up limit 28.69, close 31.19 below the high of 33.30;
      // the next day's close of 34.31, its high and 10% up, is a limit-up (no streak before it).
      const pa = await limits('000001.SZ', '?from=2007-06-20&to=2007-06-21');
      expect(pa).toEqual([
        ['2007-06-20', '26.08', '28.69', '23.47', '10', 'main_board', true],
        ['2007-06-21', '31.19', '34.31', '28.07', '10', 'main_board', false],
      ]);
      expect(await pool('limit_up', '2007-06-20')).toEqual([]);
      expect(await pool('broken_limit_up', '2007-06-20')).toEqual([]);
      const [up] = await walk(h, '/api/v1/equities/pools/limit_up?date=2007-06-21', 100);
      expect([up.instrument_id, up.consecutive_limit_ups]).toEqual(['000001.SZ', 1]);
      expect(await pool('previous_limit_up', '2007-06-21')).toEqual([]);
      // 000001.SZ, ex-date of 2015-04-13 without its action: close 16.54 against a down limit of 17.82, low 16.15.
      expect(await limits('000001.SZ', '?date=2015-04-13')).toEqual([['2015-04-13', '19.80', '21.78', '17.82', '10', 'main_board', true]]);
      expect(await pool('limit_down', '2015-04-13')).toEqual([]);
      expect(await breadth('SZ', '2015-04-13')).toMatchObject({ limit_down: 0 });
    });

    it('keeps an equity suspended to the latest stored day while a loaded suspension is open from the day after its last bar', async () => {
      const cmb = await walk(h, '/api/v1/equities/600036.SH/price-limits?from=2026-01-29', 100);
      expect(cmb.map((r) => [r.trade_date, r.pre_close, r.limit_up, r.suspended])).toEqual([
        ['2026-01-29', '40.10', '44.11', false],
        ['2026-01-30', '40.00', '44.00', true],
      ]);
      // 600016.SH's suspension starts a day after the day after its last bar: 2026-01-29 is unknown, its rows end there.
      expect((await walk(h, '/api/v1/equities/600016.SH/price-limits', 100)).map((r) => r.trade_date)).toEqual(['2026-01-28']);
      expect(await breadth('SH', '2026-01-30')).toMatchObject({ listed: 2, suspended: 1, advancers: 1 });
      // S佳通's first stored bar, 2026-01-29, has no reference (no limits) but its listing date is unknown:
      // listed and traded that day, as on a folder's first day.
      expect(await breadth('SH', '2026-01-29')).toMatchObject({ listed: 2, suspended: 0 });
      // A later day of the market (S佳通 trades on) finds 600036.SH still suspended.
      const more = await ingest(h.store, [
        {
          path: file('bars-more.csv', [BARS[0], '600182.SH,2026-02-02,14.10,14.20,13.90,14.00,100,1400.00']),
          dataset: dataset('bars_1d')!,
        },
      ]);
      expect(more.errors).toEqual([]);
      expect((await get(h, '/api/v1/equities/600036.SH/price-limits?date=2026-02-02')).body.data.map(row)).toEqual([
        ['2026-02-02', '40.00', '44.00', '36.00', '10', 'main_board', false],
      ]);
      expect(await breadth('SH', '2026-02-02')).toMatchObject({ listed: 2, suspended: 1 });
      // Its end loaded (it resumes on 2026-02-03): its rows end with its last bar again.
      const ended = await ingest(h.store, [
        {
          path: file('suspensions-ended.csv', [SUSPENSIONS[0], '600036.SH,2026-01-30,2026-02-02,2026-02-03,,,重大事项,2026-01-29']),
          dataset: dataset('suspensions')!,
        },
      ]);
      expect(ended.errors).toEqual([]);
      expect((await walk(h, '/api/v1/equities/600036.SH/price-limits?from=2026-01-29', 100)).map((r) => r.trade_date)).toEqual([
        '2026-01-29',
      ]);
      expect(await breadth('SH', '2026-02-02')).toMatchObject({ listed: 1, suspended: 0 });
      expect((await mds(url, 'check')).code).toBe(0);
    });

    it('answers 400 for breadth of a day that is not a trading day, as listMarketBars does', async () => {
      for (const path of ['/api/v1/markets/SH/breadth?date=2026-01-31', '/api/v1/markets/SH/bars?date=2026-01-31']) {
        const r = await get(h, path);
        expect(r.status, path).toBe(400);
        expect(r.body.errors).toEqual([
          expect.objectContaining({
            code: 'invalid_parameter',
            source: { parameter: 'date' },
            detail: '2026-01-31 is not a trading day of SH',
          }),
        ]);
      }
      // A window may hold days that are not trading days.
      const w = await get(h, '/api/v1/markets/SH/breadth?from=2026-01-29&to=2026-02-01');
      expect(w.body.data.map((b: { trade_date: string }) => b.trade_date)).toEqual(['2026-01-29', '2026-01-30']);
    });

    it('gives a store whose days were made by the code before these rules their answers at `mds migrate`', async () => {
      // The days as the code before made them: 430047.BJ with half-up limits (19.88) and not limit-up, recorded
      // with that code's version of market_days.
      await h.store.bulkTransaction(async (s) => {
        const stored = (await daysBetween(s, 'BJ', 20250403, 20250403)).get(20250403)!;
        const day = decodeDay(stored);
        const records = Array.from({ length: day.n }, (_, i) => day.record(i));
        for (const r of records)
          if (r.up === 19870) {
            r.up = 19880;
            r.down = 10700;
            r.flags &= ~DAY_FLAGS.limitUp;
          }
        await writeDays(s, [{ market: 'BJ', date: 20250403, n: records.length, data: encodeDay(records), breadth: breadthOf(records) }]);
        await setMeta(s, MARKET_DAYS.name, 'c731f1c8');
      });
      expect(MARKET_DAYS.version()).not.toBe('c731f1c8');
      const m = await mds(url, 'migrate');
      expect(m.code).toBe(0);
      expect(m.stdout).toContain(`market_days: stored version c731f1c8, code version ${MARKET_DAYS.version()}`);
      // The rebuild is a new data version: the app answers from it.
      expect(await pool('limit_up', '2025-04-03')).toEqual(['430047.BJ']);
      const [bar] = (await get(h, '/api/v1/markets/BJ/bars?date=2025-04-03')).body.data;
      expect([bar.limit_up, bar.limit_down]).toEqual(['19.87', '10.71']);
      expect(await breadth('BJ', '2025-04-03')).toMatchObject({ limit_up: 1 });
      expect((await mds(url, 'check')).code).toBe(0);
    });
  });
}
