/**
 * Ingest files in GBK/GB18030 (the usual encoding of Chinese vendor files): refused with the
 * line of the first bad bytes unless `--encoding` names it, decoded across chunk boundaries
 * when it does, and never stored with U+FFFD the file did not contain. The GBK bytes are
 * written from a table of their codes, not by an encoder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { STORES, type Harness } from './helpers.js';
import { emptyHarness, mds, snapshot, tmp } from './ingest-helpers.js';
import { ingest, type IngestResult } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { layoutOf } from '../src/ingest/vendors/index.js';
import { readRecords, type Encoding, type SourceRecord } from '../src/ingest/source.js';

/** GB2312 (so GBK and GB18030) codes of the characters used, from the code chart. */
const GBK: Record<string, number> = {
  浦: 0xc6d6,
  发: 0xb7a2,
  银: 0xd2f8,
  行: 0xd0d0,
  平: 0xc6bd,
  安: 0xb0b2,
  上: 0xc9cf,
  海: 0xbaa3,
  证: 0xd6a4,
  券: 0xc8af,
  交: 0xbdbb,
  易: 0xd2d7,
  所: 0xcbf9,
  深: 0xc9ee,
  圳: 0xdbda,
};
/** `text` as GBK bytes: ASCII as is, the characters above by their codes. */
function gbk(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (GBK[ch] !== undefined) out.push(GBK[ch] >> 8, GBK[ch] & 0xff);
    else throw new Error(`no GBK code for ${ch} in the table`);
  }
  return Buffer.from(out);
}

const MARKETS =
  'id,name,name_local,mic,timezone,currency,opened\n' +
  'SH,Shanghai Stock Exchange,上海证券交易所,XSHG,Asia/Shanghai,CNY,1990-12-19\n' +
  'SZ,Shenzhen Stock Exchange,深圳证券交易所,XSHE,Asia/Shanghai,CNY,1990-12-01\n';
const INSTRUMENTS =
  'instrument_id,kind,board,name,name_en,list_date\n' +
  '600000.SH,equity,main,浦发银行,SPD Bank,1999-11-10\n' +
  '000001.SZ,equity,main,平安银行,Ping An Bank,1991-04-03\n';
/** Tushare's stock_basic with the same two. */
const STOCK_BASIC = 'ts_code,name,list_date\n600000.SH,浦发银行,19991110\n000001.SZ,平安银行,19910403\n';

const dir = tmp('mds-encoding-');
const file = (name: string, bytes: Buffer | string) => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};

const load = (h: Harness, name: string, path: string, encoding?: Encoding, format?: string): Promise<IngestResult> => {
  const d = dataset(name)!;
  if (format === undefined) return ingest(h.store, [{ path, dataset: d, encoding }]);
  const layout = layoutOf(format, d);
  if (Array.isArray(layout)) throw new Error(`${format} does not load ${name}`);
  return ingest(h.store, [{ path, dataset: d, encoding, vendor: { layout } }]);
};
const ok = (r: IngestResult) => {
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
};
const names = async (h: Harness) =>
  (await snapshot(h.store))['instruments.csv']
    .split('\n')
    .slice(1, -1)
    .map((l) => l.split(','))
    .map((f) => `${f[0]} ${f[3]}`);
const WANT = ['000001.SZ 平安银行', '600000.SH 浦发银行'];

describe('GBK bytes of the table', () => {
  it('are what the platform decodes as GBK (the table is right)', () => {
    expect(new TextDecoder('gbk').decode(gbk(INSTRUMENTS))).toBe(INSTRUMENTS);
  });
});

describe.each(STORES)('ingest encodings ($name)', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await emptyHarness(await url());
    ok(await load(h, 'markets', file('markets.csv', gbk(MARKETS)), 'gbk'));
  });
  afterAll(() => h?.close());

  it('refuses a GBK file read as UTF-8, naming the first bad line and suggesting --encoding gbk; nothing stored', async () => {
    const before = await snapshot(h.store);
    for (const [name, bytes] of [
      ['gbk.csv', gbk(INSTRUMENTS)],
      ['gbk.csv.gz', gzipSync(gbk(INSTRUMENTS))],
    ] as const) {
      const path = file(name, bytes);
      const r = await load(h, 'instruments', path);
      expect(r.ok).toBe(false);
      expect(r.errors).toEqual([
        `${path}:2: not valid UTF-8 text at character 23 of the line: the file decodes as GB18030 (GBK is a subset of it), ` +
          'give --encoding gbk (or gb18030); nothing of the file is loaded',
      ]);
      expect(r.dataVersion).toBeNull();
    }
    expect(await snapshot(h.store)).toEqual(before);
  });

  it('loads a GBK file with --encoding gbk or gb18030, the names as written', async () => {
    ok(await load(h, 'instruments', file('gbk.csv', gbk(INSTRUMENTS)), 'gbk'));
    expect(await names(h)).toEqual(WANT);
    ok(await load(h, 'instruments', file('gb.csv', gbk(INSTRUMENTS.replace(/银行/g, '证券'))), 'gb18030'));
    expect(await names(h)).toEqual(['000001.SZ 平安证券', '600000.SH 浦发证券']);
    ok(await load(h, 'instruments', file('utf8.csv', INSTRUMENTS)));
    expect(await names(h)).toEqual(WANT);
  });

  it('refuses bytes valid in no supported encoding without the hint, and a character cut off by the end of the file', async () => {
    const stray = Buffer.concat([Buffer.from(INSTRUMENTS), Buffer.from('600001.SH,equity,main,x\xff,,1999-11-10\n', 'latin1')]);
    const a = file('stray.csv', stray);
    expect((await load(h, 'instruments', a)).errors).toEqual([
      `${a}:4: not valid UTF-8 text at character 24 of the line (give --encoding gbk or gb18030 for a file in those); nothing of the file is loaded`,
    ]);
    const cut = file('cut.csv', gbk(`${INSTRUMENTS}600001.SH,equity,main,浦发`).subarray(0, -1));
    expect((await load(h, 'instruments', cut, 'gbk')).errors).toEqual([
      `${cut}:4: not valid GBK text at character 24 of the line; nothing of the file is loaded`,
    ]);
    expect(await names(h)).toEqual(WANT);
  });

  it('stores a U+FFFD the file contains (valid UTF-8), and no other', async () => {
    ok(await load(h, 'instruments', file('fffd.csv', INSTRUMENTS.replace('浦发银行', '浦发\uFFFD银行'))));
    expect(await names(h)).toEqual(['000001.SZ 平安银行', '600000.SH 浦发\uFFFD银行']);
    ok(await load(h, 'instruments', file('utf8.csv', INSTRUMENTS)));
  });

  it('vendor layouts read the file in --encoding (tushare stock_basic in GBK)', async () => {
    const path = file('stock_basic.csv', gbk(STOCK_BASIC.replace(/银行/g, '交易')));
    const r = await load(h, 'instruments', path, undefined, 'tushare');
    expect(r.errors[0]).toMatch(new RegExp(`^${path}:2: not valid UTF-8 text at character 11 of the line: .*--encoding gbk`));
    ok(await load(h, 'instruments', path, 'gbk', 'tushare'));
    expect(await names(h)).toEqual(['000001.SZ 平安交易', '600000.SH 浦发交易']);
  });

  it('refuses bytes that are not a character of GBK, naming line and character; valid GBK still loads', async () => {
    const before = await snapshot(h.store);
    const row = (name: Buffer) =>
      Buffer.concat([gbk(INSTRUMENTS), Buffer.from('600001.SH,equity,main,'), gbk('浦'), name, Buffer.from(',,1999-11-10\n')]);
    const refused = (bytes: number[], encoding: Encoding) =>
      load(h, 'instruments', file(`bad-${bytes.join('-')}-${encoding}.csv`, row(Buffer.from(bytes))), encoding);
    // 0xFF (Node's gbk decoder makes it U+F8F5), a lead byte and a byte no trail can be,
    // GB18030's four-byte À (81 30 86 38: not GBK), GB2312's unassigned A2AB and the user-defined
    // AAA1 (both decode to the Private Use Area).
    for (const bytes of [[0xff], [0x81, 0xff], [0x81, 0x30, 0x86, 0x38], [0xa2, 0xab], [0xaa, 0xa1]]) {
      const r = await refused(bytes, 'gbk');
      expect(r.errors, bytes.join(' ')).toEqual([
        `${dir}/bad-${bytes.join('-')}-gbk.csv:4: not valid GBK text at character 24 of the line; nothing of the file is loaded`,
      ]);
      expect(r.dataVersion).toBeNull();
    }
    for (const bytes of [[0xff], [0xa2, 0xab], [0xaa, 0xa1]]) {
      expect((await refused(bytes, 'gb18030')).errors, bytes.join(' ')).toEqual([
        `${dir}/bad-${bytes.join('-')}-gb18030.csv:4: not valid GB18030 text at character 24 of the line; nothing of the file is loaded`,
      ]);
    }
    expect(await snapshot(h.store)).toEqual(before);
    // À is GB18030's; in GBK the same row loads with 发 (B7A2).
    ok(await load(h, 'instruments', file('four.csv', row(Buffer.from([0x81, 0x30, 0x86, 0x38]))), 'gb18030'));
    ok(await load(h, 'instruments', file('two.csv', row(gbk('发'))), 'gbk'));
    expect(await names(h)).toEqual([...WANT, '600001.SH 浦发']);
  });
});

describe('readRecords in GBK', () => {
  it('decodes characters cut by chunk boundaries (plain and gzip), as the whole text decodes', async () => {
    // Rows of odd byte lengths, so that 1 MiB boundaries fall inside two-byte characters.
    const rows = Array.from({ length: 160_000 }, (_, i) => `${i},${'浦发银行平安'.slice(0, 1 + (i % 6))}${'x'.repeat(i % 3)}`);
    const text = ['n,name', ...rows].join('\n') + '\n';
    const bytes = gbk(text);
    expect(bytes.length).toBeGreaterThan(2 << 20);
    // Byte offsets where characters start: some 1 MiB boundary falls inside a character.
    const starts = new Set<number>();
    for (let at = 0, i = 0; i < text.length; at += text.charCodeAt(i) < 0x80 ? 1 : 2, i++) starts.add(at);
    expect([1, 2].some((k) => !starts.has(k << 20))).toBe(true);
    const want = ['n,name', ...rows].map((l, i) => ({ line: i + 1, fields: l.split(',') }));
    for (const [name, b] of [
      ['big.csv', bytes],
      ['big.csv.gz', gzipSync(bytes)],
    ] as const) {
      const got: SourceRecord[] = [];
      for await (const batch of readRecords(file(name, b), 'csv', undefined, 'gbk')) got.push(...batch);
      expect(got, name).toEqual(want);
    }
  });
});

describe('mds ingest --encoding', () => {
  it('exits 2 naming file:line for a GBK file, 0 with --encoding gbk', async () => {
    const db = join(tmp(), 'store.sqlite');
    const markets = file('cli-markets.csv', MARKETS);
    expect((await mds(db, 'migrate')).code).toBe(0);
    expect((await mds(db, 'ingest', 'markets', markets)).code).toBe(0);
    const path = file('cli-gbk.csv', gbk(INSTRUMENTS));
    const refused = await mds(db, 'ingest', 'instruments', path);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${path}:2: not valid UTF-8 text at character 23 of the line: the file decodes as GB18030`);
    expect(refused.stderr).toContain('--encoding gbk');
    const loaded = await mds(db, 'ingest', 'instruments', path, '--encoding', 'gbk');
    expect(loaded.code, loaded.stderr).toBe(0);
    expect((await mds(db, 'export', 'instruments')).stdout).toContain('600000.SH,equity,main,浦发银行');
  });

  it('prints only the one true error for a GBK file without --encoding (canonical and vendor layouts), and exits 2 on a byte GBK lacks', async () => {
    const db = join(tmp(), 'store.sqlite');
    expect((await mds(db, 'ingest', 'markets', file('cli-markets.csv', MARKETS))).code).toBe(0);
    const hint = 'the file decodes as GB18030 (GBK is a subset of it), give --encoding gbk (or gb18030); nothing of the file is loaded';
    const canonical = file('cli-gbk.csv', gbk(INSTRUMENTS));
    const tushare = file('cli-stock_basic.csv', gbk(STOCK_BASIC));
    for (const [path, args, at] of [
      [canonical, [], 23],
      [tushare, ['--format', 'tushare'], 11],
    ] as const) {
      const r = await mds(db, 'ingest', 'instruments', path, ...args);
      expect([r.code, r.stderr]).toEqual([2, `${path}:2: not valid UTF-8 text at character ${at} of the line: ${hint}\n`]);
    }
    const ff = file('cli-ff.csv', Buffer.concat([gbk(INSTRUMENTS), Buffer.from('600001.SH,equity,main,x\xff,,1999-11-10\n', 'latin1')]));
    const r = await mds(db, 'ingest', 'instruments', ff, '--encoding', 'gbk');
    expect([r.code, r.stderr]).toEqual([2, `${ff}:4: not valid GBK text at character 24 of the line; nothing of the file is loaded\n`]);
    expect((await mds(db, 'export', 'instruments')).stdout).toBe(
      'instrument_id,kind,board,name,name_en,list_date,list_date_source,delist_date,listing_kind,total_shares,float_shares,fund_type,underlying,base_date,base_value,pinyin_initials\n',
    );
  });
});

/** `n` Tongdaxin `.day` records of 600519.SH from 2024-01-02 (prices ×100; the reserved field 0, as Tongdaxin writes it). */
function dayRecords(n: number): Buffer {
  const b = Buffer.alloc(32 * n);
  for (let i = 0; i < n; i++) {
    b.writeUInt32LE(20240102 + i, 32 * i);
    [170000, 171000, 169000, 170500].forEach((v, j) => b.writeUInt32LE(v, 32 * i + 4 + 4 * j));
    b.writeFloatLE(1_705_000_000, 32 * i + 20);
    b.writeUInt32LE(1_000_000, 32 * i + 24);
  }
  return b;
}

for (const kind of STORES) {
  describe(`mds ingest of a binary file without --format (${kind.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
      expect(
        (await mds(h.url, 'ingest', 'instruments', file('bin-instruments.csv', INSTRUMENTS.replace('600000.SH', '600519.SH')))).code,
      ).toBe(0);
    });
    afterAll(async () => {
      await h?.close();
    });
    const bars = async () => (await mds(h.url, 'export', 'bars_1d')).stdout.trim().split('\n').length - 1;
    const tdx = ', a whole Tongdaxin vipdoc folder with mds ingest --tdx VIPDOC; nothing was loaded\n';

    it('says a Tongdaxin .day or .lc1 file is binary and names --format tdx-day / tdx-lc1 and --tdx (exit 1), instead of an encoding', async () => {
      const day = file('sh600519.day', dayRecords(3));
      const r = await mds(h.url, 'ingest', 'bars_1d', day);
      expect([r.code, r.stderr]).toEqual([
        1,
        `mds: ${day}: a binary file, not CSV or NDJSON text (a NUL byte at byte 8): a Tongdaxin daily file loads with --format tdx-day (mds ingest bars_1d FILE --format tdx-day)${tdx}`,
      ]);
      expect(await bars()).toBe(0);
      const lc1 = file('sh600519.lc1', dayRecords(2));
      expect((await mds(h.url, 'ingest', 'bars_1m', lc1)).stderr).toContain(
        ': a Tongdaxin 1-minute file loads with --format tdx-lc1 (mds ingest bars_1m FILE --format tdx-lc1), a whole Tongdaxin vipdoc folder',
      );
      // Named otherwise, in a vendor layout too: both Tongdaxin formats are named.
      const named = file('bars.csv', dayRecords(2));
      const other = await mds(h.url, 'ingest', 'bars_1d', named, '--format', 'tushare');
      expect([other.code, other.stderr]).toEqual([
        1,
        `mds: ${named}: a binary file, not CSV or NDJSON text (a NUL byte at byte 8): Tongdaxin files load with --format tdx-day (.day, bars_1d) or --format tdx-lc1 (.lc1, bars_1m)${tdx}`,
      ]);
      // What the message says works.
      const loaded = await mds(h.url, 'ingest', 'bars_1d', day, '--format', 'tdx-day');
      expect([loaded.code, loaded.stderr]).toEqual([0, '']);
      expect(await bars()).toBe(3);
    });

    it('finds a NUL byte past the first chunk, gzip or not, and tells UTF-16 text from binary', async () => {
      const header = 'instrument_id,trade_date,open,high,low,close,volume,amount\n';
      // Rows of an instrument the store does not know: refused one by one, nothing written, until the NUL 1.5 MB in.
      const lines = Array.from(
        { length: 20_000 },
        (_, i) => `600001.SH,2024-01-02,1700.00,1710.00,1690.00,1705.00,${100 + i},170500.00\n`,
      ).join('');
      const text = Buffer.from(header + lines);
      const late = Buffer.concat([text, Buffer.from([0, 1, 2, 3])]);
      for (const [name, bytes] of [
        ['late-nul.csv', late],
        ['late-nul.csv.gz', gzipSync(late)],
      ] as const) {
        const r = await mds(h.url, 'ingest', 'bars_1d', file(name, bytes));
        expect(r.code, name).toBe(1);
        expect(r.stderr, name).toContain(`a binary file, not CSV or NDJSON text (a NUL byte at byte ${text.length + 1})`);
      }
      const utf16 = file('utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(header + lines.slice(0, 500), 'utf16le')]));
      expect(await mds(h.url, 'ingest', 'bars_1d', utf16)).toMatchObject({
        code: 1,
        stderr: `mds: ${utf16}: UTF-16 text (a NUL byte at byte 4): save the file as UTF-8 (or GBK, with --encoding gbk)\n`,
      });
      const noBom = file('utf16-no-bom.csv', Buffer.from(header, 'utf16le'));
      expect((await mds(h.url, 'ingest', 'bars_1d', noBom)).stderr).toContain('UTF-16 text (a NUL byte at byte 2)');
      expect(await bars()).toBe(3);
    });
  });
}
