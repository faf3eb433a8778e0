import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORES, type Harness } from './helpers.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { migrate } from '../src/derived/open.js';
import { dataset } from '../src/datasets/registry.js';
import { summaryLines, warningLines } from '../src/ingest/report.js';

for (const kind of STORES) {
  describe(`ingest warns of daily bars outside their price limits (${kind.name})`, () => {
    let h: Harness;
    const dir = tmp();
    const file = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const load = (files: [string, string][]) =>
      ingest(
        h.store,
        files.map(([name, path]) => ({ path, dataset: dataset(name)! })),
      );
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      const r = await load([
        ['instruments', file('instruments.csv', 'instrument_id,kind,board,name,list_date\n600000.SH,equity,main,浦发银行,1999-11-10\n')],
      ]);
      expect(r.errors).toEqual([]);
    });
    afterAll(async () => {
      await h?.close();
    });

    const bars = file(
      'bars_1d.csv',
      [
        'instrument_id,trade_date,open,high,low,close,volume,amount',
        '600000.SH,2024-03-04,10.00,10.00,10.00,10.00,100,1000.00',
        '600000.SH,2024-03-05,10.00,11.00,10.00,11.00,100,1050.00', // at the up limit 11.00: fine
        '600000.SH,2024-03-06,11.00,12.20,11.00,12.10,100,1200.00', // up limit 12.10
        '600000.SH,2024-03-07,9.10,9.50,9.00,9.20,100,920.00', // down limit 10.89 without the dividend
      ].join('\n') + '\n',
    );

    it('names the file line, instrument, date and limit, and loads the bars all the same', async () => {
      const r = await load([['bars_1d', bars]]);
      expect(r.ok).toBe(true);
      expect(r.warnings).toEqual([
        `${bars}:4: 600000.SH 2024-03-06: high 12.20 above the up limit 12.10 (pre_close 11.00, 10%, main_board); a missing corporate action?`,
        `${bars}:5: 600000.SH 2024-03-07: low 9.00 below the down limit 10.89 (pre_close 12.10, 10%, main_board); a missing corporate action?`,
      ]);
      expect(warningLines(r, 1)).toEqual([`warning: ${r.warnings[0]}`, 'warning: … and 1 more bar outside their price limits']);
      expect(summaryLines(r)).toContain("2 daily bars outside their day's price limits, loaded all the same (warnings on stderr)");
      const n = await h.store.db
        .selectFrom('bars_1d')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(4);
    });

    it('is quiet once the missing corporate action is loaded', async () => {
      const actions = file(
        'corporate_actions.csv',
        'instrument_id,ex_date,record_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price\n' +
          '600000.SH,2024-03-07,2024-03-06,2024-03-01,3.00000,0,0,0,0\n',
      );
      const r = await load([
        ['corporate_actions', actions],
        ['bars_1d', bars],
      ]);
      expect(r.ok).toBe(true);
      // 2024-03-07: reference 12.10 − 3.00 = 9.10, limits 8.19..10.01; 03-06 still breaks its limit.
      expect(r.warnings.map((w) => w.split(': ')[1])).toEqual(['600000.SH 2024-03-06']);
    });

    it("are the same read from the markets' days as computed from every loaded equity's bars (days not current)", async () => {
      // A STAR listing: no limit for five days, then 20%; its sixth day breaks it, as do the main board bars above.
      const more = file('star.csv', 'instrument_id,kind,board,name,list_date\n688999.SH,equity,star,测试,2024-03-04\n');
      const star = file(
        'star_bars.csv',
        [
          'instrument_id,trade_date,open,high,low,close,volume,amount',
          ...['04', '05', '06', '07', '08'].map(
            (d, i) => `688999.SH,2024-03-${d},${20 + i}.00,${30 + i}.00,${10 + i}.00,${20 + i}.00,100,2000.00`,
          ),
          '688999.SH,2024-03-11,24.00,30.00,24.00,28.80,100,2000.00', // up limit 28.80
        ].join('\n') + '\n',
      );
      expect((await load([['instruments', more]])).errors).toEqual([]);
      const fromDays = await load([
        ['bars_1d', bars],
        ['bars_1d', star],
      ]);
      expect(fromDays.warnings.map((w) => w.split(': ').slice(1, 3).join(': '))).toEqual([
        '600000.SH 2024-03-06: high 12.20 above the up limit 12.10 (pre_close 11.00, 10%, main_board); a missing corporate action?',
        '688999.SH 2024-03-11: high 30.00 above the up limit 28.80 (pre_close 24.00, 20%, star); a missing corporate action?',
      ]);
      await h.store.bulkTransaction((s) => s.query("delete from meta where key = 'market_days'"));
      try {
        expect(
          (
            await load([
              ['bars_1d', bars],
              ['bars_1d', star],
            ])
          ).warnings,
        ).toEqual(fromDays.warnings);
      } finally {
        await migrate(h.store);
      }
    });
  });
}
