/**
 * An equity whose listing date is unknown (null, e.g. created by `mds ingest --tdx` for a stock
 * trading on the folder's first day) is taken as listed before its first stored bar: it has price
 * limits from the day after that bar, no new-listing days, and is in the pools by the rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';

for (const kind of STORES) {
  describe(`an equity with an unknown listing date (${kind.name})`, () => {
    let h: Harness;
    const dir = tmp();
    const file = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    let warnings: string[] = [];
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      const r = await ingest(h.store, [
        {
          path: file(
            'instruments.csv',
            'instrument_id,kind,board,name,list_date\n600000.SH,equity,main,浦发银行,\n300001.SZ,equity,chinext,特锐德,\n',
          ),
          dataset: dataset('instruments')!,
        },
        {
          path: file(
            'bars_1d.csv',
            [
              'instrument_id,trade_date,open,high,low,close,volume,amount',
              '600000.SH,2016-01-04,18.00,18.20,17.60,18.00,100,1800.00',
              '600000.SH,2016-01-05,18.00,18.00,16.20,16.20,100,1620.00', // limit-down: 18.00 × 0.9
              '600000.SH,2016-01-06,16.20,18.00,16.20,17.00,100,1700.00', // high above the up limit 17.82
              '300001.SZ,2016-01-04,20.00,20.00,20.00,20.00,100,2000.00',
              '300001.SZ,2016-01-05,22.00,22.00,22.00,22.00,100,2200.00', // limit-up: 20.00 × 1.1 (ChiNext before 2020-08-24)
            ].join('\n') + '\n',
          ),
          dataset: dataset('bars_1d')!,
        },
      ]);
      expect(r.errors).toEqual([]);
      warnings = r.warnings;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('has price limits from the day after its first stored bar, with no listing day', async () => {
      const rows = await walk(h, '/api/v1/equities/600000.SH/price-limits', 100);
      expect(rows.map((r) => [r.trade_date, r.pre_close, r.limit_up, r.limit_down, r.reason, r.listing_day])).toEqual([
        ['2016-01-05', '18.00', '19.80', '16.20', 'main_board', null],
        ['2016-01-06', '16.20', '17.82', '14.58', 'main_board', null],
      ]);
    });

    it('is in the pools of its limit days, and never in sub_new', async () => {
      const ids = async (type: string, date: string) =>
        (await walk(h, `/api/v1/equities/pools/${type}?date=${date}`, 100)).map((m) => m.instrument_id);
      expect(await ids('limit_down', '2016-01-05')).toEqual(['600000.SH']);
      expect(await ids('limit_up', '2016-01-05')).toEqual(['300001.SZ']);
      expect(await ids('sub_new', '2016-01-05')).toEqual([]);
      expect((await get(h, '/api/v1/equities/pools/limit_down?date=2016-01-06')).body.data).toEqual([]);
    });

    it('gets the limit check of ingest', () => {
      expect(warnings.map((w) => w.split(': ').slice(1, 3).join(': '))).toEqual([
        '600000.SH 2016-01-06: high 18.00 above the up limit 17.82 (pre_close 16.20, 10%, main_board); a missing corporate action?',
      ]);
    });
  });
}
