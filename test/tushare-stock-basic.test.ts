/**
 * Today's Tushare `stock_basic` (a real-shaped export made by tests/tushare-fixtures.ts, with
 * the code ranges of 2025 and 2026: ChiNext 302132.SZ, the BSE's 920 codes, the CDR 689009.SH)
 * loads whole through `mds ingest instruments FILE --format tushare`, in UTF-8 and in GBK: each
 * row on the board its `market` column names (ChiNext's ±20% for 302132.SZ), the code ranges
 * when the column names none, and a row neither knows skipped and listed, not the file refused.
 * Search then finds every listing by the pinyin initials the vendor publishes (`cnspell`),
 * polyphones by each reading, and full-width input as the half-width it stands for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, STORES, walk, type Harness } from './helpers.js';
import { emptyHarness, mds, tmp } from './ingest-helpers.js';
import { gbkBytes, stockBasicCsv, stockBasicRows } from './tushare-fixtures.js';

const BOARD: Record<string, string> = { 主板: 'main', 创业板: 'chinext', 科创板: 'star', 北交所: 'bse', CDR: 'star' };
const date = (d: string) => (d ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : null);

for (const kind of STORES) {
  describe(`today's Tushare stock_basic (${kind.name})`, () => {
    let h: Harness;
    const dir = tmp('mds-stock-basic-');
    const file = (name: string, bytes: string | Buffer) => {
      const p = join(dir, name);
      writeFileSync(p, bytes);
      return p;
    };
    const ingest = (path: string, ...more: string[]) => mds(h.url, 'ingest', 'instruments', path, '--format', 'tushare', ...more);
    const search = async (q: string) =>
      (await walk(h, `/api/v1/instruments?kind=equity&q=${encodeURIComponent(q)}`, 100)).map((r) => r.id as string);
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
    });
    afterAll(async () => {
      await h?.close();
    });

    it('loads an export of 2026-01 whole: every row on the board of its market column (302132.SZ ChiNext, 920xxx.BJ BSE, the CDR 689009.SH STAR)', async () => {
      const rows = stockBasicRows('2026-01');
      const r = await ingest(file('stock_basic_202601.csv', stockBasicCsv('2026-01')));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`instruments: ${rows.length} rows from 1 file: ${rows.length} inserted, 0 updated, 0 unchanged`);
      const got = await walk(h, '/api/v1/equities', 100);
      expect(got.map((e) => [e.id, e.name, e.board, e.list_date, e.delist_date])).toEqual(
        rows.map((x) => [x.ts_code, x.name, BOARD[x.market], date(x.list_date), date(x.delist_date)]),
      );
      expect(got.find((e) => e.id === '302132.SZ')).toMatchObject({ name: '中航成飞', board: 'chinext', market: 'SZ' });
      expect(got.filter((e) => e.market === 'BJ').map((e) => e.id)).toEqual(['920002.BJ', '920489.BJ', '920799.BJ', '920819.BJ']);
      expect(got.find((e) => e.id === '689009.SH')).toMatchObject({ board: 'star' });
    });

    it('the same export in GBK loads with --encoding gbk (nothing changes), and the export of 2025-04 adds the NEEQ codes of then', async () => {
      const n = stockBasicRows('2026-01').length;
      const gbk = file('stock_basic_202601_gbk.csv', gbkBytes(stockBasicCsv('2026-01')));
      expect((await ingest(gbk)).stderr).toContain('not valid UTF-8 text');
      const r = await ingest(gbk, '--encoding', 'gbk');
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain(`instruments: ${n} rows from 1 file: 0 inserted, 0 updated, ${n} unchanged`);
      const april = await ingest(file('stock_basic_202504.csv', stockBasicCsv('2025-04')));
      expect([april.code, april.stderr]).toEqual([0, '']);
      expect(april.stdout).toContain(`instruments: ${n} rows from 1 file: 3 inserted, 0 updated, ${n - 3} unchanged`);
      for (const id of ['830799.BJ', '430489.BJ', '833819.BJ'])
        expect((await get(h, `/api/v1/equities/${id}`)).body.data).toMatchObject({ board: 'bse', market: 'BJ' });
    });

    it('302132.SZ has ChiNext limits (±20%), by its market column', async () => {
      const daily =
        'ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n' +
        '302132.SZ,20260106,60.50,72.00,60.10,72.00,60.00,12.0,20.0,100000.00,650000.000\n' +
        '302132.SZ,20260105,59.00,61.00,58.50,60.00,59.00,1.0,1.6949,80000.00,480000.000\n';
      const r = await mds(h.url, 'ingest', 'bars_1d', file('daily.csv', daily), '--format', 'tushare');
      expect([r.code, r.stderr]).toEqual([0, '']);
      const limits = await walk(h, '/api/v1/equities/302132.SZ/price-limits', 100);
      expect(limits.map((x) => [x.trade_date, x.pre_close, x.limit_up, x.limit_down, x.reason])).toEqual([
        ['2026-01-06', '60.00', '72.00', '48.00', 'chinext'],
      ]);
      expect((await walk(h, '/api/v1/equities/pools/limit_up?date=2026-01-06', 100)).map((m) => m.instrument_id)).toEqual(['302132.SZ']);
    });

    it('search finds every listing by the cnspell the vendor publishes, and a polyphone by each of its readings', async () => {
      for (const row of stockBasicRows('2026-01')) {
        expect(await search(row.cnspell), `${row.name} ${row.cnspell}`).toContain(row.ts_code);
        expect(await search(row.cnspell.toUpperCase()), `${row.name} ${row.cnspell}`).toContain(row.ts_code);
      }
      // The reading in context (pinyin-pro's) finds them too: 藏 cang, 阿 a, 重 zhong, 厦 sha, 行 xing.
      for (const [q, id] of [
        ['cgky', '000408.SZ'],
        ['zgky', '000408.SZ'],
        ['deaj', '000423.SZ'],
        ['deej', '000423.SZ'],
        ['zykg', '000950.SZ'],
        ['cykg', '000950.SZ'],
        ['xsjm', '001306.SZ'],
        ['xxjm', '001306.SZ'],
        ['slx', '002285.SZ'],
        ['slh', '002285.SZ'],
        ['gky', '000408.SZ'], // inside the initials
        ['ej', '000423.SZ'],
      ])
        expect(await search(q), q).toContain(id);
      expect(await search('zgkz')).toEqual([]);
      // The readings are per character: 藏格 is not found by 'zcg'.
      expect(await search('zcgky')).toEqual([]);
    });

    it('search reads full-width letters and digits as their half-width forms (NFKC), in the query and in names', async () => {
      expect((await search('ＧＺＭＴ'))[0]).toBe('600519.SH');
      expect((await search('６００５１９'))[0]).toBe('600519.SH');
      expect((await search('３０２１３２．ＳＺ'))[0]).toBe('302132.SZ');
      // A vendor file writing 深振业Ａ with a full-width Ａ: found by 深振业A, szya and 深振业Ａ.
      const r = await mds(
        h.url,
        'ingest',
        'instruments',
        file('instruments.csv', 'instrument_id,kind,board,name,list_date\n000006.SZ,equity,main,深振业Ａ,1992-04-27\n'),
      );
      expect([r.code, r.stderr]).toEqual([0, '']);
      for (const q of ['深振业A', '深振业a', '深振业Ａ', 'szya', 'ＳＺＹＡ', '振业A']) expect(await search(q), q).toEqual(['000006.SZ']);
      expect((await get(h, '/api/v1/equities/000006.SZ')).body.data.name).toBe('深振业Ａ');
      expect(await search('万科Ａ')).toEqual(['000002.SZ']);
    });

    it("the market column wins over the code ranges; a row neither knows is skipped and listed, the rest loaded; a board of another exchange is the row's error", async () => {
      const extra = [
        { ts_code: '604001.SH', symbol: '604001', name: '甲公司', market: '主板', list_date: '20260105' },
        { ts_code: '300999.SZ', symbol: '300999', name: '乙公司', market: '主板', list_date: '20260105' },
        { ts_code: '002001.SZ', symbol: '002001', name: '新和成', market: '中小板', list_date: '20040625' },
        { ts_code: '604002.SH', symbol: '604002', name: '丙公司', market: '', list_date: '20260105' },
        { ts_code: '604003.SH', symbol: '604003', name: '丁公司', market: 'CDR', list_date: '20260105' },
        { ts_code: '004001.SZ', symbol: '004001', name: '戊公司', market: '', list_date: '20260105' },
      ];
      const r = await ingest(file('stock_basic_extra.csv', stockBasicCsv('2026-01', extra)));
      expect([r.code, r.stderr]).toEqual([0, '']);
      const out = r.stdout.split('\n');
      expect(out).toContain(
        'stock_basic_extra.csv: board main from the market column for a code in no A-share equity range on 1 row (604001.SH)',
      );
      expect(out).toContain(
        'stock_basic_extra.csv: board main from the market column where the code range says chinext on 1 row (300999.SZ)',
      );
      expect(out).toContain(
        'stock_basic_extra.csv: skipped 2 rows: codes in no A-share equity range, without a board in the market column (604002.SH, 604003.SH)',
      );
      const board = async (id: string) => {
        const x = await get(h, `/api/v1/equities/${id}`);
        return x.status === 200 ? x.body.data.board : x.status;
      };
      expect([await board('604001.SH'), await board('300999.SZ'), await board('002001.SZ'), await board('004001.SZ')]).toEqual([
        'main',
        'main',
        'main',
        'main',
      ]);
      expect([await board('604002.SH'), await board('604003.SH')]).toEqual([404, 404]);

      const wrong = await ingest(
        file(
          'stock_basic_wrong.csv',
          stockBasicCsv('2026-01', [{ ts_code: '000004.SZ', name: '国农科技', market: '科创板', list_date: '19910114' }]),
        ),
      );
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/stock_basic_wrong\.csv:\d+: market: 科创板 \(star\) is a board of SH, not of 000004\.SZ/);
    });
  });
}
