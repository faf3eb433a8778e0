import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';

for (const kind of STORES) {
  describe(`every store answers with the shipped calendars, corrected by loaded days (${kind.name})`, () => {
    let h: Harness, h2: Harness;
    const dir = tmp();
    const load = (name: string, text: string, to = h2) => {
      const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.csv`);
      writeFileSync(path, text);
      return ingest(to.store, [{ path, dataset: dataset(name)! }]);
    };
    // h: nothing loaded. h2: days, an equity and bars loaded before its first request (servers
    // see a load within a second; this suite does not wait).
    let loads: Awaited<ReturnType<typeof load>>[];
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      h2 = await emptyHarness(await kind.url());
      loads = [
        await load(
          'trading_days',
          'market,date,is_open\nSH,2024-03-04,0\nSZ,2024-03-04,0\nBJ,2024-03-04,false\nSH,2027-01-04,1\nSZ,2024-03-09,true\n',
        ),
        await load('instruments', 'instrument_id,kind,board,name,list_date\n600000.SH,equity,main,浦发银行,1999-11-10\n'),
        await load('bars_1d', 'instrument_id,trade_date,open,high,low,close,volume,amount\n600000.SH,2024-03-04,10,10,10,10,1,10\n'),
        await load(
          'bars_1d',
          'instrument_id,trade_date,open,high,low,close,volume,amount\n600000.SH,2024-03-01,10,10,10,10,1,10\n600000.SH,2024-03-05,10,10,10,10,1,10\n',
        ),
      ];
    });
    afterAll(async () => {
      await h?.close();
      await h2?.close();
    });

    it('holds SH, SZ and BJ and their calendars with nothing loaded', async () => {
      expect((await get(h, '/api/v1/markets')).body.data.map((m: { id: string; opened: string }) => [m.id, m.opened])).toEqual([
        ['BJ', '2021-11-15'],
        ['SH', '1990-12-19'],
        ['SZ', '1990-12-01'],
      ]);
      expect((await get(h, '/api/v1/markets/SZ')).status).toBe(200);
      const first = (await get(h, '/api/v1/markets/SZ/trading-days?page[size]=3')).body;
      expect(first.data.map((d: { date: string }) => d.date)).toEqual(['1990-12-19', '1990-12-20', '1990-12-21']);
      const y2026 = await walk(h, '/api/v1/markets/SH/trading-days?from=2026-01-01', 100);
      expect([y2026.length, y2026[0].date, y2026.at(-1).date]).toEqual([242, '2026-01-05', '2026-12-31']);
      expect((await walk(h, '/api/v1/markets/BJ/trading-days?to=2021-11-16', 10)).map((d) => d.date)).toEqual(['2021-11-15', '2021-11-16']);
    });

    it('takes a loaded day over the shipped calendar: is_open 0 closes it, 1 opens it', async () => {
      expect(loads.map((r) => r.errors)).toEqual([[], [], [expect.stringMatching(/:2:\d+: trade_date: expected a trading day of SH/)], []]);
      const h = h2;
      const sh = async (q: string) => (await walk(h, `/api/v1/markets/SH/trading-days?${q}`, 2)).map((d) => d.date);
      expect(await sh('from=2024-03-01&to=2024-03-05')).toEqual(['2024-03-01', '2024-03-05']);
      expect(await sh('from=2026-12-30')).toEqual(['2026-12-30', '2026-12-31', '2027-01-04']);
      expect((await walk(h, '/api/v1/markets/SZ/trading-days?from=2024-03-08&to=2024-03-11', 10)).map((d) => d.date)).toEqual([
        '2024-03-08',
        '2024-03-09',
        '2024-03-11',
      ]);
      // Listing age and limits count the corrected calendar: 2024-03-04 is not a day.
      const rows = (await walk(h, '/api/v1/equities/600000.SH/price-limits', 10)).map((d) => [d.trade_date, d.pre_close, d.listing_day]);
      expect(rows).toEqual([['2024-03-05', '10.00', rows[0][2]]]);
      const pools = await get(h, '/api/v1/equities/pools/limit_up?date=2024-03-04');
      expect(pools.status).toBe(400);
      expect(pools.body.errors[0].detail).toBe('2024-03-04 is not a trading day');
    });
  });
}
