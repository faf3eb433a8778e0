import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, HAVE_SHARED, SHARED, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, mds, snapshot, tmp } from './ingest-helpers.js';
import { loadSharedData } from './shared-data.js';
import { ingest, type IngestResult } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { layoutOf } from '../src/ingest/vendors/index.js';
import type { VendorOptions } from '../src/ingest/vendors/vendor.js';

if (!HAVE_SHARED) console.warn(`${SHARED} is absent: the vendor-format tests on the real files are skipped (fixtures still run).`);

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;

/** Loads `paths` (in `dir`) as one command with a vendor format. */
async function load(h: Harness, name: string, format: string, paths: string[], opts: VendorOptions = {}): Promise<IngestResult> {
  const d = dataset(name)!;
  const layout = layoutOf(format, d);
  if (Array.isArray(layout)) throw new Error(`${format} does not load ${name}`);
  return ingest(
    h.store,
    paths.map((path) => ({ path, dataset: d, vendor: { layout, ...opts } })),
  );
}
const canonical = (h: Harness, name: string, path: string) => ingest(h.store, [{ path, dataset: dataset(name)! }]);
const ok = (r: IngestResult) => {
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
};
const lines = (r: IngestResult) => r.files.flatMap((f) => f.vendor ?? []);
/** Rows of an exported dataset (CSV text of the store), header first. */
const exported = async (h: Harness, file: string) => (await snapshot(h.store))[file].trim().split('\n');

/** 32-byte TDX .day records. */
function dayFile(path: string, rows: [number, number, number, number, number, number, number][]) {
  const b = Buffer.alloc(rows.length * 32);
  rows.forEach(([date, o, hi, l, c, amount, volume], i) => {
    [date, o, hi, l, c].forEach((v, j) => b.writeUInt32LE(v, i * 32 + 4 * j));
    b.writeFloatLE(amount, i * 32 + 20);
    b.writeUInt32LE(volume, i * 32 + 24);
  });
  writeFileSync(path, b);
}
/** 32-byte TDX .lc1/.lc5 records. */
function minuteFile(path: string, rows: [string, string, number, number, number, number, number, number][], extra = 0) {
  const b = Buffer.alloc(rows.length * 32 + extra);
  rows.forEach(([date, time, ...v], i) => {
    const [y, m, d] = date.split('-').map(Number),
      [hh, mm] = time.split(':').map(Number);
    b.writeUInt16LE((y - 2004) * 2048 + m * 100 + d, i * 32);
    b.writeUInt16LE(hh * 60 + mm, i * 32 + 2);
    v.slice(0, 5).forEach((x, j) => b.writeFloatLE(x, i * 32 + 4 + 4 * j));
    b.writeUInt32LE(v[5], i * 32 + 24);
  });
  writeFileSync(path, b);
}

const TS_DAILY = 'ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n';

for (const kind of STORES) {
  describe(`vendor formats on ${kind.name}`, () => {
    let h: Harness;
    let dir: string;
    const file = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      dir = tmp('mds-vendors-');
      ok(await canonical(h, 'markets', join(EXAMPLES, 'markets.csv')));
      ok(await canonical(h, 'instruments', join(EXAMPLES, 'shared-data/instruments.csv')));
      // Tushare trade_cal: SSE and SZSE days of early January 2024; New Year's Day closed; a futures row skipped.
      const cal = ['exchange,cal_date,is_open,pretrade_date'];
      for (const ex of ['SSE', 'SZSE'])
        cal.push(`${ex},20240101,0,20231229`, ...[2, 3, 4, 5].map((d) => `${ex},2024010${d},1,2024010${d - 1}`));
      cal.push('CFFEX,20240102,1,20231229');
      const r = ok(await load(h, 'trading_days', 'tushare', [file('trade_cal.csv', cal.join('\n') + '\n')]));
      expect(lines(r)).toContain('skipped 1 row: exchange CFFEX (not SSE, SZSE or BSE)');
      const basic =
        'ts_code,symbol,name,area,industry,cnspell,market,list_date,act_name,act_ent_type,enname,delist_date\n' +
        '300750.SZ,300750,宁德时代,福建,电气设备,NDSD,创业板,20180611,曾毓群,民营企业,"Contemporary Amperex Technology Co., Limited",\n' +
        '688981.SH,688981,中芯国际,上海,半导体,ZXGJ,科创板,20200716,无,无,,\n';
      ok(await load(h, 'instruments', 'tushare', [file('stock_basic.csv', basic)]));
    });
    afterAll(async () => {
      await h?.close();
    });

    it('Tushare trade_cal: open days are trading days, is_open 0 days are loaded as closures', async () => {
      const days = await walk(h, '/api/v1/markets/SZ/trading-days?from=2024-01-01&to=2024-01-05', 100);
      expect(days.map((d) => d.date)).toEqual(['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05']);
      expect((await exported(h, 'trading_days.csv')).filter((l) => l.includes('2024-01-01'))).toEqual([
        'SH,2024-01-01,0',
        'SZ,2024-01-01,0',
      ]);
    });

    it('Tushare stock_basic (loaded above) → instruments with the board of the code range; daily: lots → shares, thousands of CNY → CNY, exactly', async () => {
      expect((await get(h, '/api/v1/equities/300750.SZ')).body.data).toMatchObject({
        name: '宁德时代',
        board: 'chinext',
        list_date: '2018-06-11',
      });
      expect((await get(h, '/api/v1/equities/688981.SH')).body.data).toMatchObject({
        name: '中芯国际',
        board: 'star',
        list_date: '2020-07-16',
      });

      const daily =
        TS_DAILY +
        '300750.SZ,20240103,160.01,163.5,158.88,162.3,161.0,1.3,0.8075,525152.77,8460697.377\n' +
        '300750.SZ,20240102,165.0,166.0,160.0,161.0,164.2,-3.2,-1.9488,12345,2000000.5\n';
      ok(await load(h, 'bars_1d', 'tushare', [file('daily.csv', daily)]));
      const bars = await walk(h, '/api/v1/equities/300750.SZ/bars?interval=1d&from=2024-01-01', 100);
      expect(bars.map((b) => [b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount])).toEqual([
        ['2024-01-02', '165.00', '166.00', '160.00', '161.00', 1234500, '2000000500.00'],
        ['2024-01-03', '160.01', '163.50', '158.88', '162.30', 52515277, '8460697377.00'],
      ]);
    });

    it('a vendor file with one bad record loads nothing, across every file of the command; errors name file:line and the vendor column', async () => {
      const good = file('good.csv', TS_DAILY + '688981.SH,20240102,50.0,51.0,49.5,50.5,50.0,0.5,1.0,1000,5050\n');
      const bad = file(
        'bad.csv',
        TS_DAILY +
          '688981.SH,20240103,50.0,51.0,49.5,50.5,50.0,0.5,1.0,1000,5050\n' +
          '688981.SH,20240104,50.0,51.0,49.5,50.5,50.0,0.5,1.0,1000.555,5050\n' +
          '688981.SH,20240105,50.0,51.0,49.5,50.5,50.0,0.5,1.0,1000,5050\n',
      );
      const r = await load(h, 'bars_1d', 'tushare', [good, bad]);
      expect(r.ok).toBe(false);
      expect(r.errors).toEqual([`${bad}:3: vol: expected a decimal exact to 0 decimals (× 10^2 to shares), got "1000.555"`]);
      expect(r.files.map((f) => f.inserted)).toEqual([0, 0]);
      expect(await walk(h, '/api/v1/equities/688981.SH/bars?interval=1d&from=2024-01-01', 100)).toEqual([]);
      const amount = await load(h, 'bars_1d', 'tushare', [
        file('amount.csv', TS_DAILY + '688981.SH,20240102,50.0,51.0,49.5,50.5,50.0,0.5,1.0,1000,5050.123456\n'),
      ]);
      expect(amount.errors).toEqual([
        `${join(dir, 'amount.csv')}:2: amount: expected a decimal exact to 2 decimals (× 10^3 to CNY), got "5050.123456"`,
      ]);
    });

    it('Tushare margin_detail → margin_trading: balances and flows in CNY and shares; the total must be the sum', async () => {
      const head = 'trade_date,ts_code,name,rzye,rqye,rzmre,rqyl,rzche,rqchl,rqmcl,rzrqye\n';
      // 2024-01-03: a float's artifact past the fen (rounded half-up and counted); 2024-01-02 as exported.
      const detail =
        head +
        '20240103,300750.SZ,宁德时代,9133900515.08,25120434.6,565834713.0000001,154780,602201036.0,9100,12400,9159020949.68\n' +
        '20240102,300750.SZ,宁德时代,9170266838.08,23541255.0,478235121.0,151480,502345120.0,8300,10200,9193808093.08\n';
      const r = ok(await load(h, 'margin_trading', 'tushare', [file('margin_detail.csv', detail)]));
      expect(r.files[0].inserted).toBe(2);
      const rows = await walk(h, '/api/v1/equities/300750.SZ/margin-trading?from=2024-01-01', 100);
      expect(rows).toEqual([
        {
          instrument_id: '300750.SZ',
          trade_date: '2024-01-02',
          financing_balance: '9170266838.08',
          financing_bought: '478235121.00',
          financing_repaid: '502345120.00',
          short_balance: '23541255.00',
          short_shares: 151480,
          short_sold: 10200,
          short_repaid: 8300,
          total_balance: '9193808093.08',
        },
        {
          instrument_id: '300750.SZ',
          trade_date: '2024-01-03',
          financing_balance: '9133900515.08',
          financing_bought: '565834713.00',
          financing_repaid: '602201036.00',
          short_balance: '25120434.60',
          short_shares: 154780,
          short_sold: 12400,
          short_repaid: 9100,
          total_balance: '9159020949.68',
        },
      ]);
      // The exchange's identity across the two days: 9,170,266,838.08 + 565,834,713 − 602,201,036 = 9,133,900,515.08.
      expect(lines(r).join('\n')).toContain('rzmre rounded half-up to 2 decimals');
      const bad = await load(h, 'margin_trading', 'tushare', [
        file('margin_bad.csv', head + '20240104,300750.SZ,宁德时代,100.00,1.00,0,0,0,0,0,100.50\n'),
      ]);
      expect(bad.errors).toEqual([
        `${join(dir, 'margin_bad.csv')}:2: total_balance: expected total_balance = financing_balance + short_balance`,
      ]);
    });

    it('Tushare daily_basic → share_capital: a change each day the counts differ (newest-first export read whole), 万股 × 10,000', async () => {
      const basic =
        'ts_code,trade_date,close,turnover_rate,pe,pb,total_share,float_share,free_share,total_mv,circ_mv\n' +
        '300750.SZ,20240105,160.0,0.5,20.1,4.2,439907.2278,391061.2345,200000.0,70385156.45,62569797.52\n' +
        '300750.SZ,20240104,158.0,0.6,19.9,4.1,439907.2278,391061.2345,200000.0,69505341.99,61787675.05\n' +
        '300750.SZ,20240103,162.3,0.7,20.4,4.3,439907.2278,388012.0000,200000.0,71396943.07,62974347.60\n';
      const r = ok(await load(h, 'share_capital', 'tushare', [file('daily_basic.csv', basic)]));
      expect(lines(r).join('\n')).toContain('skipped 1 row: share capital unchanged since the previous day');
      expect(await walk(h, '/api/v1/equities/300750.SZ/share-capital', 10)).toEqual([
        {
          instrument_id: '300750.SZ',
          change_date: '2024-01-03',
          announce_date: null,
          reason: 'other',
          total_shares: 4399072278,
          float_shares: 3880120000,
          restricted_shares: 518952278,
        },
        {
          instrument_id: '300750.SZ',
          change_date: '2024-01-04',
          announce_date: null,
          reason: 'other',
          total_shares: 4399072278,
          float_shares: 3910612345,
          restricted_shares: 488459933,
        },
      ]);
      const bad = await load(h, 'share_capital', 'tushare', [
        file('daily_basic_bad.csv', 'ts_code,trade_date,total_share,float_share\n300750.SZ,20240108,439907.22785,1.0\n'),
      ]);
      expect(bad.errors).toEqual([
        `${join(dir, 'daily_basic_bad.csv')}:2: total_share: expected a decimal exact to 0 decimals (× 10^4 to shares), got "439907.22785"`,
      ]);
    });

    it('Tushare suspend_d → suspensions: runs of S days on the calendar, resumed on the R day; a timing is an intraday halt', async () => {
      const rows =
        'ts_code,trade_date,suspend_timing,suspend_type\n' +
        '688981.SH,20240105,,S\n' +
        '300750.SZ,20240104,,R\n' +
        '688981.SH,20240103,09:30-10:30,S\n' +
        '300750.SZ,20240103,,S\n' +
        '300750.SZ,20240102,,S\n' +
        '600000.SH,20240102,,R\n';
      const r = ok(await load(h, 'suspensions', 'tushare', [file('suspend_d.csv', rows)]));
      expect(lines(r).join('\n')).toContain('skipped 1 row: R (resumed) without a suspension before it in the file');
      const whole = { halt_from: null, halt_to: null, reason: null, announce_date: null, source: 'exchange' };
      expect(await walk(h, '/api/v1/equities/300750.SZ/suspensions', 10)).toEqual([
        { instrument_id: '300750.SZ', start_date: '2024-01-02', end_date: '2024-01-03', resume_date: '2024-01-04', ...whole },
      ]);
      expect(
        (await walk(h, '/api/v1/equities/688981.SH/suspensions', 10)).map((s) => [
          s.start_date,
          s.end_date,
          s.resume_date,
          s.halt_from,
          s.halt_to,
        ]),
      ).toEqual([
        ['2024-01-03', '2024-01-03', null, '09:30', '10:30'],
        ['2024-01-05', null, null, null, null],
      ]);
      const bad = await load(h, 'suspensions', 'tushare', [
        file('suspend_bad.csv', 'ts_code,trade_date,suspend_timing,suspend_type\n300750.SZ,20240105,,X\n'),
      ]);
      expect(bad.errors).toEqual([`${join(dir, 'suspend_bad.csv')}:2: suspend_type: expected S (suspended) or R (resumed), got "X"`]);
    });

    it('Tushare adj_factor and dividend (implemented rows only: pre-tax cash, bonus and transfer per share)', async () => {
      ok(
        await load(h, 'adj_factors', 'tushare', [
          file('adj_factor.csv', 'ts_code,trade_date,adj_factor\n300750.SZ,20240103,108.031\n300750.SZ,20240102,107.5\n'),
        ]),
      );
      expect((await exported(h, 'adj_factors.csv')).filter((l) => l.startsWith('300750.SZ'))).toEqual([
        '300750.SZ,2024-01-02,107.5',
        '300750.SZ,2024-01-03,108.031',
      ]);
      const div =
        'ts_code,end_date,ann_date,div_proc,stk_div,stk_bo_rate,stk_co_rate,cash_div,cash_div_tax,record_date,ex_date,pay_date,div_listdate,imp_ann_date,base_date,base_share\n' +
        '300750.SZ,20221231,20230310,实施,0.3,0.1,0.2,0.45,0.5,20240103,20240104,20240104,20240105,20231228,20221231,244046.0\n' +
        '300750.SZ,20231231,20240315,预案,0.0,,,2.20,2.20,,,,,,20231231,439900.0\n' +
        '300750.SZ,20231231,20240315,股东大会通过,0.0,,,2.20,2.20,,,,,,20231231,439900.0\n';
      const r = ok(await load(h, 'corporate_actions', 'tushare', [file('dividend.csv', div)]));
      expect(lines(r)).toEqual([
        'skipped 1 row: div_proc 预案 (not implemented)',
        'skipped 1 row: div_proc 股东大会通过 (not implemented)',
      ]);
      expect((await exported(h, 'corporate_actions.csv')).filter((l) => l.startsWith('300750.SZ'))).toEqual([
        '300750.SZ,2024-01-04,2024-01-03,2024-01-04,2023-12-28,0.50000,0.100000,0.200000,0.000000,0.00',
      ]);
    });

    it('TDX .day and .lc1 binaries: volumes of indices in lots, errors at file:record N, 5-minute files refused', async () => {
      const stock = join(dir, 'sh600000.day'),
        index = join(dir, 'sh000001.day');
      dayFile(stock, [
        [20240102, 1012, 1030, 1001, 1025, 123456789, 1200300],
        [20240103, 1025, 1040, 1020, 1033, 98765432, 950000],
      ]);
      dayFile(index, [[20240102, 296213, 297400, 293500, 296219, 3.3e11, 3012345]]);
      const r = ok(await load(h, 'bars_1d', 'tdx-day', [stock, index]));
      expect(lines(r)).toEqual([
        'instrument 600000.SH inferred from the file name',
        'instrument 000001.SH inferred from the file name',
        'volume read as lots of 100 shares (000001.SH is an index)',
      ]);
      const bars = await walk(h, '/api/v1/equities/600000.SH/bars?interval=1d&from=2024-01-01', 100);
      // float32(123456789) is 123456792: the amount is the float as TDX stores it.
      expect(bars.map((b) => [b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.amount])).toEqual([
        ['2024-01-02', '10.12', '10.30', '10.01', '10.25', 1200300, '123456792.00'],
        ['2024-01-03', '10.25', '10.40', '10.20', '10.33', 950000, '98765432.00'],
      ]);
      const ix = await walk(h, '/api/v1/indices/000001.SH/bars?interval=1d&from=2024-01-01&to=2024-01-02', 100);
      expect(ix.map((b) => [b.close, b.volume])).toEqual([['2962.19', 301234500]]);

      const lc1 = join(dir, 'sh688001.lc1');
      minuteFile(
        lc1,
        [
          ['2024-01-02', '09:31', 36.71, 37.02, 36.71, 36.8, 256647, 7000],
          ['2024-01-02', '09:32', 36.8, 36.8, 36.75, 36.75, 40737, 1100],
        ],
        20,
      );
      const partial = await load(h, 'bars_1m', 'tdx-lc1', [lc1]);
      expect(partial.errors).toEqual([`${lc1}:record 3: a partial record of 20 bytes at the end (records are 32 bytes)`]);
      minuteFile(lc1, [
        ['2024-01-02', '09:31', 36.71, 37.02, 36.71, 36.8, 256647, 7000],
        ['2024-01-02', '09:32', 36.8, 36.8, 36.75, 36.75, 40737, 1100],
        ['2024-01-02', '11:31', 36.8, 36.8, 36.75, 36.75, 1, 1],
      ]);
      const late = await load(h, 'bars_1m', 'tdx-lc1', [lc1]);
      expect(late.errors).toEqual([
        `${lc1}:record 3: timestamp: expected the end of a 1m bar: a whole minute within 09:30-11:30 or 13:01-15:00 market time`,
      ]);
      minuteFile(lc1, [
        ['2024-01-02', '09:31', 36.71, 37.02, 36.71, 36.8, 256647, 7000],
        ['2024-01-02', '09:32', 36.8, 36.8, 36.75, 36.75, 40737, 1100],
      ]);
      ok(await load(h, 'bars_1m', 'tdx-lc1', [lc1]));
      const mins = await walk(h, '/api/v1/equities/688001.SH/bars?interval=1m&from=2024-01-02&to=2024-01-02', 100);
      expect(mins.map((b) => [b.timestamp, b.open, b.high, b.low, b.close, b.volume, b.amount])).toEqual([
        ['2024-01-02T09:31:00+08:00', '36.71', '37.02', '36.71', '36.80', 7000, '256647.00'],
        ['2024-01-02T09:32:00+08:00', '36.80', '36.80', '36.75', '36.75', 1100, '40737.00'],
      ]);
      const lc5 = join(dir, 'sh688001.lc5');
      minuteFile(lc5, [
        ['2024-01-03', '09:35', 36.71, 37.02, 36.71, 36.8, 256647, 7000],
        ['2024-01-03', '09:40', 36.8, 36.8, 36.75, 36.75, 40737, 1100],
      ]);
      const five = await load(h, 'bars_1m', 'tdx-lc1', [lc5]);
      expect(five.errors).toEqual([
        `${lc5}:record 2: time: bars 5 minutes apart (09:35, 09:40): a 5-minute file; there is no 5m dataset ` +
          '(5m bars are aggregated from bars_1m on read), load the 1-minute file',
      ]);
    });

    it('Hikyuu daily: pre-listing and zero-volume rows skipped and counted; amounts in 10k CNY and volumes in lots converted', async () => {
      const csv =
        'date,open,high,low,close,amount_10k_cny,volume_lots\n' +
        '2019-07-19,30.00,31.00,29.00,30.50,100.0,10\n' +
        '2024-01-03,40.10,41.00,39.90,40.50,1234.5,3050\n' +
        '2024-01-04,40.50,40.50,40.50,40.50,0.0,0\n' +
        '2024-01-05,40.60,41.20,40.00,41.00,2000.07,4000\n';
      const r = ok(await load(h, 'bars_1d', 'hikyuu', [file('hikyuu_sh688001_daily.csv', csv)]));
      expect(lines(r)).toEqual([
        'instrument 688001.SH inferred from the file name',
        'skipped 1 row: before the list_date 2019-07-22 (pre-listing quotes)',
        'skipped 1 row: zero volume (a suspended day: O=H=L=C=the previous close)',
      ]);
      expect(r.datasets[0]).toMatchObject({ rows: 2, inserted: 2 });
      const bars = await walk(h, '/api/v1/equities/688001.SH/bars?interval=1d&from=2024-01-03&to=2024-01-05', 100);
      expect(bars.map((b) => [b.trade_date, b.open, b.close, b.volume, b.amount])).toEqual([
        ['2024-01-03', '40.10', '40.50', 305000, '12345000.00'],
        ['2024-01-05', '40.60', '41.00', 400000, '20000700.00'],
      ]);
    });

    it('Sina qfq factors become backward factors q(listing)/q(d), half-up at 16 decimals; the sentinel row is skipped', async () => {
      const qfq =
        'date,qfq_factor\n2024-01-04,1.0000000000000000\n2024-01-03,7.0000000000000000\n2024-01-02,3.0000000000000000\n1900-01-01,3.0000000000000000\n';
      const r = ok(await load(h, 'adj_factors', 'sina', [file('sina_688981SH_qfq_factor.csv', qfq)]));
      expect(lines(r)).toContain('skipped 1 row: the 1900-01-01 sentinel row');
      expect((await exported(h, 'adj_factors.csv')).filter((l) => l.startsWith('688981.SH'))).toEqual([
        '688981.SH,2024-01-02,1',
        '688981.SH,2024-01-03,0.4285714285714286',
        '688981.SH,2024-01-04,3',
      ]);
    });

    it('a file that does not name its instrument unambiguously is a usage error; --instrument names it', async () => {
      const csv = 'date,amount,close,high,low,open,volume\n20240102,1000.0,10.0,10.5,9.5,10.0,100\n';
      const p = file('stockstats_000001_daily.csv', csv);
      await expect(load(h, 'bars_1d', 'stockstats', [p])).rejects.toThrow(
        `${p}: the file does not name its instrument unambiguously (000001.SH, 000001.SZ); give --instrument CODE.MARKET`,
      );
      const r = ok(await load(h, 'bars_1d', 'stockstats', [p], { instrument: '000001.SZ' }));
      expect(lines(r)).toEqual([]);
      const bars = await walk(h, '/api/v1/equities/000001.SZ/bars?interval=1d&from=2024-01-02&to=2024-01-02', 10);
      expect(bars.map((b) => [b.close, b.volume, b.amount])).toEqual([['10.00', 100, '1000.00']]);
    });
  });

  describe.skipIf(!HAVE_SHARED)(`the whole of ../shared/data on ${kind.name}`, () => {
    let h: Harness;
    let results: IngestResult[];
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      results = await loadSharedData(h.store);
    });
    afterAll(async () => {
      await h?.close();
    });
    const src = (f: string) => {
      const [head, ...ls] = readFileSync(join(SHARED, f), 'utf8').trim().split(/\r?\n/);
      return ls.map((l) => Object.fromEntries(l.split(',').map((v, i) => [head.split(',')[i], v])) as Record<string, string>);
    };

    it('reports what it skipped per file and reason', () => {
      const all = results.flatMap((r) => r.files.map((f) => [f.path.split('/').pop(), f.vendor ?? []]));
      expect(Object.fromEntries(all)).toMatchObject({
        'hikyuu_sz000001_daily_raw_1991_2011.csv': expect.arrayContaining([
          'skipped 47 rows: before the list_date 1991-04-03 (pre-listing quotes)',
          'skipped 32 rows: zero volume (a suspended day: O=H=L=C=the previous close)',
        ]),
        'hikyuu_sz000002_daily_raw_1991_2011.csv': expect.arrayContaining([
          'skipped 12 rows: before the list_date 1991-01-29 (pre-listing quotes)',
          'skipped 18 rows: zero volume (a suspended day: O=H=L=C=the previous close)',
        ]),
        'xshg_exchange_calendars.csv': ['skipped 12 rows: sessions before 1990-12-19 (the exchange had not opened)'],
        'hikyuu_stkweight_events_to_2011.csv': [
          'skipped 42 rows: has_price_event 0 (a share-capital change, no ex-rights event)',
          'skipped 3 rows: distributes nothing (e.g. a rights price without rights shares: a secondary offering)',
        ],
      });
    });

    it('000002.SZ (Hikyuu): bars from the listing day, none on suspended days, amount = 10k CNY × 10,000, volume = lots × 100', async () => {
      const rows = src('ohlcv/hikyuu_sz000002_daily_raw_1991_2011.csv').filter((s) => s.date >= '1991-01-29' && s.volume_lots !== '0');
      const api = await walk(h, '/api/v1/equities/000002.SZ/bars?interval=1d&from=1990-01-01', 1000);
      expect(api).toHaveLength(rows.length);
      expect(api[0].trade_date).toBe('1991-01-29');
      /** 10k CNY with one decimal → fen: tenths of 10,000 CNY are 100,000 fen. */
      const fen = (s: string) => {
        const [i, f = ''] = s.split('.');
        expect(f.length).toBeLessThanOrEqual(1);
        return BigInt(i + f.padEnd(1, '0')) * 100000n;
      };
      api.forEach((b, i) => {
        const s = rows[i];
        expect([b.trade_date, b.close, b.volume, BigInt(b.amount.replace('.', ''))]).toEqual([
          s.date,
          s.close,
          Number(s.volume_lots) * 100,
          fen(s.amount_10k_cny),
        ]);
      });
    });

    it('002032.SZ (stockstats): prices and volumes as written, amounts to the fen', async () => {
      const rows = src('ohlcv/stockstats_002032_daily.csv');
      const api = await walk(h, '/api/v1/equities/002032.SZ/bars?interval=1d&from=2004-01-01', 1000);
      expect(api.map((b) => [b.trade_date.replace(/-/g, ''), Number(b.open), Number(b.close), b.volume])).toEqual(
        rows.map((s) => [s.date, Number(s.open), Number(s.close), Number(s.volume)]),
      );
      const i = rows.findIndex((s) => s.amount === '1446880.625');
      expect(api[i].amount).toBe('1446880.63');
    });

    it("000002.SZ adjustment factors are Sina's hfq factors (loaded after the qfq file, they win); Hikyuu events of all four equities", async () => {
      const hfq = src('adjustments/sina_000002SZ_hfq_factor.csv')
        .filter((s) => s.date !== '1900-01-01')
        .map((s) => `000002.SZ,${s.date},${s.hfq_factor.replace(/0+$/, '').replace(/\.$/, '')}`)
        .reverse();
      expect((await exported(h, 'adj_factors.csv')).slice(1)).toEqual(hfq);
      const events = (await exported(h, 'corporate_actions.csv')).slice(1);
      expect(new Set(events.map((l) => l.slice(0, 9)))).toEqual(new Set(['000001.SZ', '000002.SZ', '600000.SH', '600519.SH']));
      expect(events).toContain('600519.SH,2011-07-01,2011-06-30,,2011-06-30,2.30000,0.100000,0.000000,0.000000,0.00');
      expect(events).toContain('600000.SH,2010-06-10,2010-06-09,,2010-06-09,0.15000,0.300000,0.000000,0.000000,0.00');
    });
  });
}

describe('mds ingest --format (CLI)', () => {
  const db = () => join(tmp(), 'store.sqlite');
  it.skipIf(!HAVE_SHARED)(
    'loads czsc files (no amount: unknown); refuses TDX 5-minute files with one error, exit 2; a format for another dataset is a usage error',
    async () => {
      const url = db();
      expect((await mds(url, 'ingest', 'instruments', join(EXAMPLES, 'shared-data/instruments.csv'))).code).toBe(0);
      const czsc = await mds(url, 'ingest', 'bars_1m', join(SHARED, 'ohlcv/czsc_000001.XSHG_1MIN.csv'), '--format', 'czsc');
      expect([czsc.code, czsc.stderr]).toEqual([0, '']);
      expect(czsc.stdout).toContain('bars_1m: 2640 rows from 1 file: 2640 inserted, 0 updated, 0 unchanged');
      expect(czsc.stdout).toContain('bars_1d derived from bars_1m: 11 inserted, 0 updated, 0 unchanged');
      const daily = await mds(url, 'ingest', 'bars_1d', join(SHARED, 'ohlcv/czsc_000001.SH_D.csv'), '--format', 'czsc');
      expect([daily.code, daily.stderr]).toEqual([0, '']);
      // The 11 days derived from the minutes are loaded now (4 equal to what was derived).
      expect(daily.stdout).toContain('bars_1d: 3332 rows from 1 file: 3321 inserted, 7 updated, 4 unchanged');
      const bad = join(tmp(), 'czsc.csv');
      writeFileSync(
        bad,
        'symbol,dt,open,close,high,low,vol\n000001.XSHG,2020-07-01 09:31,2991.18,2990.43,2991.5,2990.34,7208583.5\n' +
          'XSHG,2020-07-01 09:32:00,2990.32,2986.91,2990.32,2986.78,311297200.0\n',
      );
      const errs = await mds(url, 'ingest', 'bars_1m', bad, '--format', 'czsc');
      expect([errs.code, errs.stderr.trim().split('\n')]).toEqual([
        2,
        [
          `${bad}:2: dt: expected the bar's end YYYY-MM-DD HH:MM:00, got "2020-07-01 09:31"`,
          `${bad}:3: symbol: expected an instrument such as 000001.SH or 000001.XSHG, got "XSHG"`,
        ],
      ]);
      const five = await mds(url, 'ingest', 'bars_1m', join(SHARED, 'ohlcv/tdx_sh688001_5min.csv'), '--format', 'tdx-csv');
      expect(five.code).toBe(2);
      expect(five.stderr).toContain('tdx_sh688001_5min.csv:3: time: bars 5 minutes apart (09:35, 09:40): a 5-minute file');
      const wrong = await mds(url, 'ingest', 'corporate_actions', join(SHARED, 'ohlcv/tdx_sh688001_1min.csv'), '--format', 'tdx-csv');
      expect([wrong.code, wrong.stderr.trim()]).toEqual([1, 'mds: --format tdx-csv loads bars_1d, bars_1m, not corporate_actions']);
      const one = await mds(url, 'ingest', 'bars_1m', join(SHARED, 'ohlcv/tdx_sh688001_1min.csv'), '--format', 'tdx-csv');
      expect(one.code).toBe(0);
      expect(one.stdout).toContain('tdx_sh688001_1min.csv: instrument 688001.SH inferred from the file name\n');
      expect(one.stdout).toContain('bars_1m: 2880 rows from 1 file: 2880 inserted, 0 updated, 0 unchanged');
    },
  );
});
