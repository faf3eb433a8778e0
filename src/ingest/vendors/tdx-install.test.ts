/**
 * The readers of a Tongdaxin install's other files (gbbq, name tables, `.lc5`) on the real files
 * of ../shared/data/tdx_install (its README gives their layouts and the figures checked here).
 * Skipped, saying why, without ../shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { f32Text, GBBQ_HEADER, GBBQ_RECORD, gbbqCount, gbbqRecordAt, gbbqRecords } from './tdx-gbbq.js';
import { tnfCount, tnfDate, tnfRecords } from './tdx-tnf.js';
import { checkLc5, minuteBars } from '../tdx-minutes.js';

const INSTALL = fileURLToPath(new URL('../../../../shared/data/tdx_install/', import.meta.url));
const HAVE = existsSync(INSTALL);
if (!HAVE) console.warn(`tdx-install.test: ${INSTALL} is absent; skipping the Tongdaxin install readers`);
const file = (p: string) => readFileSync(INSTALL + p);

describe.skipIf(!HAVE)('gbbq: the ex-rights and share-change table', () => {
  const b = HAVE ? file('T0002/hq_cache/gbbq') : Buffer.alloc(0);
  const recs = HAVE ? gbbqRecords(b)! : [];

  it('deciphers all 116,212 records of SH and SZ, to 2021-11-15, sorted by code then date', () => {
    expect(gbbqCount(b)).toBe(116_212);
    expect(recs).toHaveLength(116_212);
    expect(new Set(recs.map((r) => r.market))).toEqual(new Set([0, 1]));
    expect(recs.every((r) => /^\d{6}$/.test(r.code))).toBe(true);
    expect(Math.max(...recs.map((r) => r.date))).toBe(20211115);
    // Within a code, dates never go back.
    let back = 0;
    for (let i = 1; i < recs.length; i++) if (recs[i].code === recs[i - 1].code && recs[i].date < recs[i - 1].date) back++;
    expect(back).toBe(0);
    // One record read alone is the same as read with the rest, and the buffer is left as it was.
    const copy = Buffer.from(b);
    expect(gbbqRecordAt(b, GBBQ_HEADER + 1000 * GBBQ_RECORD)).toEqual(recs[1000]);
    expect(b.equals(copy)).toBe(true);
  });

  it("gives 600519.SH's published dividends 2015–2021 as its category-1 rows, and its total after the 2015 bonus", () => {
    const moutai = recs.filter((r) => r.market === 1 && r.code === '600519' && r.date >= 20150101 && r.date <= 20211231);
    // 10派43.74送1, then cash only: 61.71, 67.87, 109.99, 145.39, 170.25, 192.93 per 10 shares.
    expect(moutai.filter((r) => r.category === 1).map((r) => [r.date, ...r.fields.map(f32Text)])).toEqual([
      [20150717, '43.74', '0', '1', '0'],
      [20160701, '61.71', '0', '0', '0'],
      [20170707, '67.87', '0', '0', '0'],
      [20180615, '109.99', '0', '0', '0'],
      [20190628, '145.39', '0', '0', '0'],
      [20200624, '170.25', '0', '0', '0'],
      [20210625, '192.93', '0', '0', '0'],
    ]);
    // Category 2 (送配股上市) on 2015-07-20: float and total before, float and total after, 万股.
    expect(moutai.filter((r) => r.category === 2).map((r) => [r.date, ...r.fields.map(f32Text)])).toEqual([
      [20150720, '114199.8', '114199.8', '125619.78', '125619.78'],
    ]);
  });

  it('is another layout when the size is not the count of records', () => {
    expect(gbbqCount(b.subarray(0, b.length - 1))).toBeNull();
    expect(gbbqRecords(Buffer.alloc(3))).toBeNull();
  });
});

describe('f32Text: what the writer of a float32 typed', () => {
  it('is the shortest decimal of the same float32', () => {
    expect([43.74, 192.93, 125619.78, 10.45102, 0.1, 0, 35640625.71].map((v) => f32Text(Math.fround(v)))).toEqual([
      '43.74',
      '192.93',
      '125619.78',
      '10.45102',
      '0.1',
      '0',
      '35640624', // beyond a float32's 7 digits: the float itself
    ]);
  });
});

describe.skipIf(!HAVE)('name tables (shm.tnf, szm.tnf)', () => {
  it('give names as Tongdaxin writes them, pinyin initials and indices, after the record size is checked', () => {
    const sh = file('T0002/hq_cache/shm.tnf'),
      sz = file('T0002/hq_cache/szm.tnf');
    expect([tnfCount(sh), tnfCount(sz), tnfDate(sh), tnfDate(sz)]).toEqual([12_386, 6_187, 20170113, 20170113]);
    const byCode = (b: Buffer) => new Map(tnfRecords(b)!.map((r) => [r.code, r]));
    const s = byCode(sh),
      z = byCode(sz);
    expect(s.get('600519')).toEqual({ code: '600519', name: '贵州茅台', initials: 'GZMT' });
    expect(s.get('000001')).toEqual({ code: '000001', name: '上证指数', initials: 'SZZS' });
    expect(z.get('000001')).toEqual({ code: '000001', name: '平安银行', initials: 'PAYH' });
    expect(z.get('000002')).toEqual({ code: '000002', name: '万 科Ａ', initials: 'WKA' });
    expect(z.get('399001')?.name).toBe('深证成指');
    expect(tnfRecords(sh.subarray(0, sh.length - 2))).toBeNull();
  });
});

describe.skipIf(!HAVE)('.lc5 against .lc1', () => {
  it("688001.SH's 5-minute bars of 2021-06-01..03 equal those the service makes of its 1-minute bars", () => {
    const lc1 = file('vipdoc/sh/minline/sh688001.lc1'),
      lc5 = file('vipdoc/sh/fzline/sh688001.lc5');
    expect(checkLc5(lc5, lc1)).toEqual({ bars: 144, checked: 144, differ: [], differing: 0, unmatched: 0, unmatchedDays: 0 });
    // Without the .lc1: every bar is of a day with no 1-minute bars.
    expect(checkLc5(lc5, null)).toMatchObject({ checked: 0, unmatched: 144, unmatchedDays: 3 });
    // A changed close is found, and named.
    const bad = Buffer.from(lc5);
    bad.writeFloatLE(bad.readFloatLE(16) + 0.01, 16);
    const c = checkLc5(bad, lc1);
    expect(c.differing).toBe(1);
    expect(c.differ[0]).toMatch(/^2021-06-01 09:35: close /);
    expect(minuteBars(lc1)).toHaveLength(12 * 240);
  });
});
