import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sniffEncoding, SNIFF_LIMIT } from './encoding-sniff.js';

const dir = mkdtempSync(join(tmpdir(), 'mds-sniff-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};

const HEAD = Buffer.from('ts_code,name,list_date\n000001.SZ,');
/** 平安银行 in GBK (two bytes a character). */
const GBK_NAME = Buffer.from([0xc6, 0xbd, 0xb0, 0xb2, 0xd2, 0xf8, 0xd0, 0xd0]);
/** U+20000 (CJK Extension B): four bytes in GB18030, not a character of GBK. */
const GB18030_ONLY = Buffer.from([0x95, 0x32, 0x82, 0x36]);

describe('sniffEncoding: the encoding of a vendor file that does not say', () => {
  it('UTF-8 text (with or without a BOM) and ASCII are UTF-8', async () => {
    expect(await sniffEncoding(file('utf8.csv', Buffer.concat([HEAD, Buffer.from('平安银行,19910403\n')])))).toBe('utf8');
    expect(await sniffEncoding(file('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), HEAD, Buffer.from('x\n')])))).toBe('utf8');
    expect(await sniffEncoding(file('ascii.csv', Buffer.concat([HEAD, Buffer.from('PAYH,19910403\n')])))).toBe('utf8');
  });

  it('GBK text is GBK, gzipped too; text of GB18030 beyond GBK is GB18030', async () => {
    const gbk = Buffer.concat([HEAD, GBK_NAME, Buffer.from(',19910403\n')]);
    expect(await sniffEncoding(file('gbk.csv', gbk))).toBe('gbk');
    expect(await sniffEncoding(file('gbk.csv.gz', gzipSync(gbk)))).toBe('gbk');
    expect(await sniffEncoding(file('gb18030.csv', Buffer.concat([HEAD, GBK_NAME, GB18030_ONLY, Buffer.from('\n')])))).toBe('gb18030');
  });

  it('decides by the first non-ASCII text within the first SNIFF_LIMIT bytes; past them, UTF-8 (refused at its line when read, if it is not)', async () => {
    const ascii = Buffer.alloc(SNIFF_LIMIT - HEAD.length - 10, 'a');
    const within = Buffer.concat([HEAD, ascii, GBK_NAME, Buffer.from('\n')]);
    expect(await sniffEncoding(file('late.csv', within))).toBe('gbk');
    const beyond = Buffer.concat([HEAD, ascii, Buffer.alloc(20, 'b'), GBK_NAME, Buffer.from('\n')]);
    expect(await sniffEncoding(file('later.csv', beyond))).toBe('utf8');
  });

  it('bytes of no encoding are UTF-8, to be refused with the hint when read', async () => {
    expect(await sniffEncoding(file('bad.csv', Buffer.concat([HEAD, Buffer.from([0xff, 0xff, 0xff]), Buffer.from('\n')])))).toBe('utf8');
  });
});
