/**
 * `mds ingest --tushare DIR` on a folder of Tushare-shaped exports the test makes from the tiny
 * demo (test/tushare-exports.ts: eight APIs, stock_basic in GBK, daily per month and per date, one
 * gzipped, suspend_d per date in a folder, stk_limit per month with one changed row): one
 * transaction in the datasets' dependency order, whatever the files' names and listing order
 * (adj_factor, daily and dividend sort before the stock_basic and trade_cal they need); the store
 * it leaves serves what the demo served; a bad row anywhere loads nothing; stk_limit is compared
 * with the service's limits after the commit and the one difference listed with its values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, TINY_DEMO, harness, walk, type Harness } from './helpers.js';
import { emptyHarness, mds, snapshot, tmp } from './ingest-helpers.js';
import { DIFFERENCE, SUSPENDED, writeTushareFolder, type TushareFolder } from './tushare-exports.js';

if (!HAVE_SHARED)
  console.warn(`${SHARED} is absent: the test of Tushare's real stk_limit sample is skipped (the demo's folder still runs).`);

let source: Harness;
let folder: TushareFolder;

beforeAll(async () => {
  source = await harness(await STORES[0].url(), TINY_DEMO);
  folder = await writeTushareFolder(source);
});
afterAll(async () => {
  await source?.close();
});

/** The lines of `text` that start with `prefix`. */
const linesOf = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix));

for (const kind of STORES) {
  describe(`mds ingest --tushare (${kind.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
    });
    afterAll(async () => {
      await h?.close();
    });
    const load = (dir: string, ...more: string[]) => mds(h.url, 'ingest', '--tushare', dir, '--no-progress', ...more);

    it('a bad row in one file loads nothing (exit 2), naming the file and row; --encoding utf8 refuses the GBK stock_basic', async () => {
      const dir = tmp('mds-tushare-bad-');
      cpSync(folder.dir, dir, { recursive: true });
      const file = join(dir, 'daily_20251118.csv');
      const lines = readFileSync(file, 'utf8').split('\n');
      const f = lines[2].split(',');
      f[9] = '1234.567';
      lines[2] = f.join(',');
      writeFileSync(file, lines.join('\n'));
      const r = await load(dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${file}:3: vol: expected a decimal exact to 0 decimals (× 10^2 to shares), got "1234.567"\n`);
      expect(r.stdout).toContain('failed: 1 error; nothing was changed');
      expect(r.stdout).toContain('stk_limit: ');
      expect(linesOf(r.stdout, 'stk_limit: ')).toEqual([
        expect.stringMatching(/^stk_limit: \d+ rows read, not compared \(the load failed: nothing was loaded\)$/),
      ]);
      expect((await get(h, '/api/v1/equities')).body.data).toEqual([]);
      expect((await mds(h.url, 'versions')).stdout).not.toContain('ingest');

      const dry = await load(folder.dir, '--dry-run');
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(/\ndry run: \d+ rows in [\d.]+ s \(\d+ rows\/s\) validated; nothing was written\n/);
      expect(linesOf(dry.stdout, 'stk_limit: ')).toEqual([
        `stk_limit: ${folder.limitRows + 2} rows read, not compared (a dry run: nothing was loaded)`,
      ]);
      const empty = await load(tmp('mds-tushare-empty-'));
      expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('no Tushare exports in ')]);

      const utf8 = await load(folder.dir, '--encoding', 'utf8');
      expect(utf8.code).toBe(2);
      expect(utf8.stderr).toMatch(new RegExp(`^${join(folder.dir, 'stock_basic.csv')}:2: not valid UTF-8 text`));
      expect((await get(h, '/api/v1/equities')).body.data).toEqual([]);
    });

    it('loads the folder in one transaction, in dependency order, and serves what the demo served', async () => {
      const r = await load(folder.dir);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const n = folder.equities.length;
      expect(linesOf(r.stdout, 'tushare ')).toEqual([
        'tushare trade_cal: 1 file → trading_days',
        'tushare stock_basic: 1 file → instruments (read as stock_basic.csv GBK)',
        'tushare dividend: 1 file → corporate_actions',
        'tushare adj_factor: 1 file → adj_factors',
        expect.stringMatching(/^tushare daily: \d+ files → bars_1d$/),
        'tushare margin_detail: 1 file → margin_trading',
        'tushare suspend_d: 4 files → suspensions',
        'tushare daily_basic: 2 files → share_capital',
        "tushare stk_limit: 5 files compared with the service's price limits after the load, not stored",
      ]);
      expect(linesOf(r.stdout, 'tushare: skipped ')).toEqual([
        `tushare: skipped ${join(folder.dir, 'README.txt')}: not named by an API this command reads (adj_factor, daily, daily_basic, dividend, index_weight, margin_detail, stk_limit, stock_basic, suspend_d, trade_cal)`,
      ]);
      expect(r.stdout).toContain(`instruments: ${n} rows from 1 file: ${n} inserted, 0 updated, 0 unchanged`);
      expect(r.stdout).toContain('dividend.csv: skipped 1 row: div_proc 预案 (not implemented)');
      expect(r.stdout).toMatch(/\ncommitted: \d+ rows in [\d.]+ s \(\d+ rows\/s\); data version \d+\n/);
      expect((await mds(h.url, 'versions')).stdout.match(/ingest of \d+ files?/g)).toEqual(['ingest of 29 files']);

      // The demo's equities, bars, corporate actions and margin trading, as the demo store has them.
      const src = await snapshot(source.store),
        got = await snapshot(h.store);
      const equityRows = (csv: string) =>
        csv
          .split('\n')
          .filter((l) => l.includes(',equity,'))
          .map((l) => l.split(',').slice(0, 6).join(','));
      expect(equityRows(got['instruments.csv'])).toEqual(equityRows(src['instruments.csv']));
      expect(got['corporate_actions.csv']).toBe(src['corporate_actions.csv']);
      expect(got['margin_trading.csv']).toBe(src['margin_trading.csv']);
      for (const id of ['600519.SH', '300976.SZ', '870034.BJ', SUSPENDED.id]) {
        const want = (await walk(source, `/api/v1/equities/${id}/bars?interval=1d&from=2025-07-01`, 500)).filter(
          (b) => !(id === SUSPENDED.id && SUSPENDED.days.includes(b.trade_date)),
        );
        expect(await walk(h, `/api/v1/equities/${id}/bars?interval=1d&from=2025-07-01`, 500)).toEqual(want);
      }
      // Factors: the vendor's (Tushare's adj_factor), the demo's own from its corporate actions.
      const factors = async (x: Harness, id: string) =>
        (await walk(x, `/api/v1/equities/${id}/adjustment-factors`, 100)).map((f) => [f.trade_date, f.backward_factor, f.source]);
      expect((await factors(h, '600519.SH')).slice(1)).toEqual((await factors(source, '600519.SH')).map(([d, v]) => [d, v, 'vendor']));

      // suspend_d, a file per date: one suspension over three files, and the demo's intraday halt.
      expect(
        (await walk(h, `/api/v1/equities/${SUSPENDED.id}/suspensions`, 10)).map((s) => [s.start_date, s.end_date, s.resume_date]),
      ).toEqual([[SUSPENDED.days[0], SUSPENDED.days[1], SUSPENDED.resumed]]);
      expect((await walk(h, '/api/v1/equities/870034.BJ/suspensions', 10)).map((s) => [s.start_date, s.halt_from, s.halt_to])).toEqual([
        ['2025-11-07', '09:30', '10:30'],
      ]);
      // daily_basic, two files: one change on the first day of October, not a second on November's first.
      const capital = await walk(h, '/api/v1/equities/600519.SH/share-capital', 10);
      const inForce = (await walk(source, '/api/v1/equities/600519.SH/share-capital', 10)).pop();
      expect(capital.map((c) => [c.change_date, c.total_shares, c.float_shares])).toEqual([
        ['2025-10-09', inForce.total_shares, inForce.float_shares],
      ]);
    });

    it("lists stk_limit's one difference with its values, and the rows it does not compare", async () => {
      const again = await load(folder.dir);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('no changes: ');
      const d = folder.difference;
      expect(linesOf(again.stdout, 'stk_limit: ')).toEqual([
        `stk_limit: ${folder.limitRows + 2} rows of 5 files; ${folder.limitRows} compared with the service's limits (GET /equities/{id}/price-limits): ${folder.limitRows - 1} equal, 1 difference`,
        'stk_limit: 1 × main main_board up_limit',
        `stk_limit: ${DIFFERENCE.id} ${DIFFERENCE.date} (main main_board 10%): up_limit: exchange pre_close ${d.pre} up ${d.exchangeUp} down ${d.down}; ` +
          `service pre_close ${d.pre} up ${d.serviceUp} down ${d.down} (${d.file}:${d.line})`,
        'stk_limit: not compared: 1 row of funds the store does not hold (the service computes the limits of equities only) (1 instrument: 510300.SH)',
        'stk_limit: not compared: 1 row of B shares, which the service does not serve (1 instrument: 900901.SH)',
      ]);
      // A folder of stk_limit alone compares the store as it is.
      const only = tmp('mds-tushare-limits-');
      for (const f of readdirSync(folder.dir).filter((f) => f.startsWith('stk_limit_'))) cpSync(join(folder.dir, f), join(only, f));
      const compared = await load(only);
      expect([compared.code, compared.stderr]).toEqual([0, '']);
      expect(linesOf(compared.stdout, 'stk_limit: ')).toEqual(linesOf(again.stdout, 'stk_limit: '));
      const served = (await walk(h, `/api/v1/equities/${DIFFERENCE.id}/price-limits?date=${DIFFERENCE.date}`, 10))[0];
      expect([served.pre_close, served.limit_up, served.limit_down]).toEqual([d.pre, d.serviceUp, d.down]);
      expect(Number(d.exchangeUp) - Number(d.serviceUp)).toBeCloseTo(0.01, 6);
    });

    it.skipIf(!HAVE_SHARED)(
      "real figures: Tushare's own stk_limit sample of 2019-06-25 (000001.SZ 15.06, 12.32) equals the limits of the real close of 2019-06-24",
      async () => {
        // The close from ../shared (Tongdaxin's daily file, decoded); the limits as Tushare's documentation prints them
        // (https://tushare.pro/document/2?doc_id=183, default columns: no pre_close).
        const dir = tmp('mds-tushare-real-');
        const bars = readFileSync(join(SHARED, 'ohlcv/tdx_sz000001_daily_raw.csv'), 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('2019-06-'))
          .map((l) => l.split(','));
        expect(bars.find((b) => b[0] === '2019-06-24')?.[4]).toBe('13.69');
        const vendor = (v: string, by: number) => (Number(v) / 10 ** by).toFixed(by);
        writeFileSync(
          join(dir, 'daily_201906.csv'),
          'ts_code,trade_date,open,high,low,close,vol,amount\n' +
            bars
              .map((b) => `000001.SZ,${b[0].replace(/-/g, '')},${b.slice(1, 5).join(',')},${vendor(b[6], 2)},${vendor(b[5], 3)}\n`)
              .join(''),
        );
        writeFileSync(join(dir, 'stock_basic.csv'), 'ts_code,symbol,name,market,list_date\n000001.SZ,000001,平安银行,主板,19910403\n');
        writeFileSync(join(dir, 'stk_limit_20190625.csv'), 'trade_date,ts_code,up_limit,down_limit\n20190625,000001.SZ,15.06,12.32\n');
        const x = await emptyHarness(await kind.url());
        try {
          const r = await mds(x.url, 'ingest', '--tushare', dir, '--no-progress');
          expect([r.code, r.stderr]).toEqual([0, '']);
          expect(linesOf(r.stdout, 'stk_limit: ')).toEqual([
            "stk_limit: 1 row of 1 file; 1 compared with the service's limits (GET /equities/{id}/price-limits): 1 equal, 0 differences",
          ]);
          const served = (await walk(x, '/api/v1/equities/000001.SZ/price-limits?date=2019-06-25', 10))[0];
          expect([served.pre_close, served.limit_up, served.limit_down]).toEqual(['13.69', '15.06', '12.32']);
        } finally {
          await x.close();
        }
      },
    );
  });
}
