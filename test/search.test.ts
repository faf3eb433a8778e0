/**
 * searchInstruments on the demo: by code and id, by Chinese name, by pinyin initials (polyphones
 * by each reading: 平安银行 is payh, and payx), by English name, across kinds or one; ranked (the
 * exact match first), paged without loss or repetition; full-width input read as half-width
 * (NFKC); refusals name q. Real names and their vendor initials: tushare-stock-basic.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

describe.each(STORES)('instrument search on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url());
  });
  afterAll(async () => {
    await h?.close();
  });
  const ids = async (q: string, extra = '') =>
    (await walk(h, `/api/v1/instruments?q=${encodeURIComponent(q)}${extra}`, 1000)).map((r) => r.id as string);

  it('finds by code, id, Chinese name, pinyin initials and English name, the best match first', async () => {
    expect((await ids('600519'))[0]).toBe('600519.SH');
    expect((await ids('600519.sh'))[0]).toBe('600519.SH');
    expect(await ids('贵州茅台')).toEqual(['600519.SH']);
    expect((await ids('茅台')).includes('600519.SH')).toBe(true);
    expect((await ids('gzmt'))[0]).toBe('600519.SH');
    expect((await ids('GZMT'))[0]).toBe('600519.SH');
    expect((await ids('payh'))[0]).toBe('000001.SZ');
    expect((await ids('hs300'))[0]).toBe('000300.SH');
    expect(await ids('moutai')).toContain('600519.SH');
    // A code prefix ranks the codes it starts before anything else, in id order.
    const prefix = await walk(h, '/api/v1/instruments?q=6005', 1000);
    expect(prefix.length).toBeGreaterThan(0);
    expect(prefix.every((r) => r.code.startsWith('6005'))).toBe(true);
    expect(prefix.map((r) => r.id)).toEqual(prefix.map((r) => r.id).sort());
  });

  it('reads full-width letters and digits as half-width (NFKC), and a polyphone by any of its readings', async () => {
    expect((await ids('ＧＺＭＴ'))[0]).toBe('600519.SH');
    expect((await ids('ｇｚｍｔ'))[0]).toBe('600519.SH');
    expect((await ids('６００５１９'))[0]).toBe('600519.SH');
    expect((await ids('６００５１９．ＳＨ'))[0]).toBe('600519.SH');
    expect((await ids('６００５')).length).toBe((await ids('6005')).length);
    // 行 is háng in 银行 and xíng elsewhere: either finds 平安银行, and 贵州茅台 by no other letters.
    expect((await ids('payx'))[0]).toBe('000001.SZ');
    expect((await ids('payh'))[0]).toBe('000001.SZ');
    expect(await ids('gzmx')).toEqual([]);
  });

  it('narrows by kind, pages without loss or repetition, and refuses a missing or blank q', async () => {
    const all = await ids('s');
    expect(all.length).toBeGreaterThan(20);
    expect((await walk(h, '/api/v1/instruments?q=s', 3)).map((r) => r.id)).toEqual(all);
    const funds = await walk(h, '/api/v1/instruments?q=etf&kind=fund', 1000);
    expect(funds.length).toBeGreaterThan(0);
    expect(funds.every((r) => r.kind === 'fund')).toBe(true);
    const none = await get(h, '/api/v1/instruments');
    expect([none.status, none.body.errors[0].source]).toEqual([400, { parameter: 'q' }]);
    const blank = await get(h, '/api/v1/instruments?q=%20%20');
    expect([blank.status, blank.body.errors[0].source]).toEqual([400, { parameter: 'q' }]);
  });
});
