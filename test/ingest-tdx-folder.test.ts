/**
 * `mds ingest --tdx VIPDOC` on a generated mini Tongdaxin folder (binary layouts of
 * src/ingest/vendors/tdx.ts): instruments created with kind, board, fund type and listing date,
 * files and bars skipped per reason, fund prices ×1000, all-or-nothing, idempotent. With
 * MDS_TDX_VIPDOC (a real `vipdoc` folder, docs/ingest.md) a subset of it is loaded too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORES, type Harness } from './helpers.js';
import { emptyHarness, mds, tmp } from './ingest-helpers.js';
import { RECORD } from '../src/ingest/vendors/tdx.js';

/** A `.day` record: date YYYYMMDD, prices as the file stores them (×100, funds ×1000), amount, volume. */
function day(date: number, o: number, h: number, l: number, c: number, volume = 1000, amount = 10_000): Buffer {
  const b = Buffer.alloc(RECORD);
  b.writeUInt32LE(date, 0);
  [o, h, l, c].forEach((v, j) => b.writeUInt32LE(v, 4 + 4 * j));
  b.writeFloatLE(amount, 20);
  b.writeUInt32LE(volume, 24);
  return b;
}

/** A `.lc1` record: date YYYYMMDD, minutes since midnight (the bar's end), float prices. */
function lc1(date: number, minute: number, o: number, h: number, l: number, c: number, volume = 100, amount = 1_000): Buffer {
  const b = Buffer.alloc(RECORD);
  const y = Math.floor(date / 10000);
  b.writeUInt16LE((y - 2004) * 2048 + (date % 10000), 0);
  b.writeUInt16LE(minute, 2);
  [o, h, l, c, amount].forEach((v, j) => b.writeFloatLE(v, 4 + 4 * j));
  b.writeUInt32LE(volume, 24);
  return b;
}

/** A mini vipdoc folder under `root`: `files` by path relative to vipdoc. */
function folder(root: string, files: Record<string, Buffer[]>): string {
  for (const [rel, recs] of Object.entries(files)) {
    const p = join(root, 'vipdoc', rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, Buffer.concat(recs));
  }
  return root;
}

const MINI: Record<string, Buffer[]> = {
  // SH's first day in the folder is 2016-01-04 (F): 600000 traded on it, so listed before.
  'sh/lday/sh600000.day': [
    day(20160104, 1800, 1820, 1760, 1800),
    day(20160105, 1800, 1800, 1620, 1620),
    day(20160106, 1620, 1700, 1620, 1700),
  ],
  'sh/lday/sh688001.day': [day(20160105, 3000, 3100, 2900, 3050), day(20160106, 3050, 3050, 3000, 3000)],
  'sh/lday/sh000001.day': [day(20160104, 353600, 353900, 329600, 329600, 2000)],
  // An ETF: prices ×1000; a Saturday record (Tongdaxin writes some for funds) is skipped.
  'sh/lday/sh510300.day': [day(20160104, 3279, 3420, 3231, 3372), day(20160109, 3372, 3372, 3372, 3372)],
  'sh/lday/sh110059.day': [day(20160104, 10000, 10100, 9900, 10050)],
  'sh/lday/sh880001.day': [day(20160104, 100000, 101000, 99000, 100500)],
  'sh/minline/sh600000.lc1': [lc1(20160106, 571, 16.2, 16.3, 16.2, 16.25), lc1(20160106, 572, 16.25, 16.4, 16.25, 16.4)],
  'sz/lday/sz000001.day': [day(20160104, 1100, 1110, 1090, 1100)],
  'sz/lday/sz300750.day': [day(20160106, 2000, 2100, 1990, 2050)],
  // BJ: NEEQ bars before 2021-11-15 are skipped; an all-NEEQ file is not loaded.
  'bj/lday/bj430047.day': [
    day(20211112, 1000, 1000, 1000, 1000),
    day(20211115, 1000, 1100, 1000, 1050),
    day(20211116, 1050, 1060, 1040, 1050),
  ],
  'bj/lday/bj830799.day': [day(20211111, 1000, 1000, 1000, 1000), day(20211112, 1000, 1000, 1000, 1000)],
};

for (const kind of STORES) {
  describe(`mds ingest --tdx: a Tongdaxin folder in one command (${kind.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await emptyHarness(await kind.url());
    });
    afterAll(async () => {
      await h?.close();
    });

    const count = async (table: 'instruments' | 'bars_1d' | 'bars_1m') =>
      Number(
        (
          await h.store.db
            .selectFrom(table)
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('loads nothing when a file is corrupt, naming file:record', async () => {
      const root = folder(tmp('mds-tdx-'), { ...MINI, 'sz/lday/sz000001.day': [day(20160104, 1100, 1110, 1090, 1100), Buffer.alloc(7)] });
      const r = await mds(h.url, 'ingest', '--tdx', join(root, 'vipdoc'));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `${join(root, 'vipdoc', 'sz', 'lday', 'sz000001.day')}:record 2: a partial record of 7 bytes at the end (records are 32 bytes)`,
      );
      expect(r.stdout).toContain('nothing was changed');
      expect([await count('instruments'), await count('bars_1d'), await count('bars_1m')]).toEqual([0, 0, 0]);
    });

    it('names each record that is not a bar (no date), and counts a folder named like a file as skipped, not a store error', async () => {
      const garbage = Buffer.alloc(2 * RECORD, 0xab);
      const root = folder(tmp('mds-tdx-'), { ...MINI, 'sh/lday/sh600004.day': [garbage] });
      mkdirSync(join(root, 'vipdoc', 'sh', 'lday', 'sh600009.day'));
      const r = await mds(h.url, 'ingest', '--tdx', join(root, 'vipdoc'));
      expect(r.code).toBe(2);
      const file = join(root, 'vipdoc', 'sh', 'lday', 'sh600004.day');
      expect(r.stderr).toContain(`${file}:record 1: trade_date: expected a date YYYYMMDD, got ${garbage.readUInt32LE(0)}`);
      expect(r.stderr).toContain(`${file}:record 2: trade_date: expected a date YYYYMMDD`);
      expect(r.stdout).toContain('skipped 1 file: folders or other non-files named like shCODE.day');
      expect([await count('instruments'), await count('bars_1d')]).toEqual([0, 0]);
    });

    it('creates the instruments it does not know, loads the bars and counts what it skipped', async () => {
      const root = folder(tmp('mds-tdx-'), MINI);
      const r = await mds(h.url, 'ingest', '--tdx', root);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')).toEqual(
        expect.arrayContaining([
          'skipped 1 file: bonds',
          'skipped 1 file: Tongdaxin sector indices',
          'skipped 1 file: BJ files with every bar before the market opened on 2021-11-15 (NEEQ trading)',
          'skipped 1 bar: bars on days the SH market was closed',
          'skipped 1 bar: bars before the BJ market opened on 2021-11-15 (NEEQ trading)',
          'instruments: 7 rows from 1 file: 7 inserted, 0 updated, 0 unchanged',
          'bars_1d: 11 rows from 7 files: 11 inserted, 0 updated, 0 unchanged',
          'bars_1m: 2 rows from 1 file: 2 inserted, 0 updated, 0 unchanged',
        ]),
      );
      const rows = await h.store.db
        .selectFrom('instruments')
        .select(['id', 'kind', 'board', 'fund_type', 'name', 'list_date', 'list_date_source'])
        .orderBy('id')
        .execute();
      expect(rows.map((x) => ({ ...x, list_date: x.list_date === null ? null : Number(x.list_date) }))).toEqual([
        {
          id: '000001.SH',
          kind: 'index',
          board: null,
          fund_type: null,
          name: '000001',
          list_date: null,
          list_date_source: 'before_first_bar',
        },
        {
          id: '000001.SZ',
          kind: 'equity',
          board: 'main',
          fund_type: null,
          name: '000001',
          list_date: null,
          list_date_source: 'before_first_bar',
        },
        {
          id: '300750.SZ',
          kind: 'equity',
          board: 'chinext',
          fund_type: null,
          name: '300750',
          list_date: 20160106,
          list_date_source: 'first_bar',
        },
        {
          id: '430047.BJ',
          kind: 'equity',
          board: 'bse',
          fund_type: null,
          name: '430047',
          list_date: 20211115,
          list_date_source: 'first_bar',
        },
        {
          id: '510300.SH',
          kind: 'fund',
          board: null,
          fund_type: 'etf',
          name: '510300',
          list_date: null,
          list_date_source: 'before_first_bar',
        },
        {
          id: '600000.SH',
          kind: 'equity',
          board: 'main',
          fund_type: null,
          name: '600000',
          list_date: null,
          list_date_source: 'before_first_bar',
        },
        {
          id: '688001.SH',
          kind: 'equity',
          board: 'star',
          fund_type: null,
          name: '688001',
          list_date: 20160105,
          list_date_source: 'first_bar',
        },
      ]);
      const bars = await h.store.db
        .selectFrom('bars_1d as b')
        .innerJoin('instruments as i', 'i.inst', 'b.inst')
        .select(['i.id', 'b.date', 'b.open', 'b.high', 'b.low', 'b.close', 'b.volume'])
        .where('i.id', 'in', ['510300.SH', '000001.SH', '430047.BJ'])
        .orderBy('i.id')
        .orderBy('b.date')
        .execute();
      expect(
        bars.map((b) => [b.id, Number(b.date), Number(b.open), Number(b.high), Number(b.low), Number(b.close), Number(b.volume)]),
      ).toEqual([
        ['000001.SH', 20160104, 3_536_000, 3_539_000, 3_296_000, 3_296_000, 200_000], // index volume in lots of 100
        ['430047.BJ', 20211115, 10_000, 11_000, 10_000, 10_500, 1000],
        ['430047.BJ', 20211116, 10_500, 10_600, 10_400, 10_500, 1000],
        ['510300.SH', 20160104, 3_279, 3_420, 3_231, 3_372, 1000], // 3.372 CNY: thousandths
      ]);
      expect(await count('bars_1m')).toBe(2);
      const check = await mds(h.url, 'check');
      expect(check.code, check.stdout + check.stderr).toBe(0);
    });

    it('a second run changes nothing, and leaves known instruments as they are', async () => {
      await h.store.db.updateTable('instruments').set({ name: '浦发银行' }).where('id', '=', '600000.SH').execute();
      const root = folder(tmp('mds-tdx-'), MINI);
      const r = await mds(h.url, 'ingest', '--tdx', join(root, 'vipdoc'));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('instruments: 0 rows from 1 file: 0 inserted, 0 updated, 0 unchanged');
      expect(r.stdout).toContain('bars_1d: 11 rows from 7 files: 0 inserted, 0 updated, 11 unchanged');
      expect(r.stdout).toContain('no changes:');
      const x = await h.store.db.selectFrom('instruments').select('name').where('id', '=', '600000.SH').executeTakeFirstOrThrow();
      expect(x.name).toBe('浦发银行');
    });

    it('refuses what is not a Tongdaxin folder, and --tdx with other arguments (exit 1)', async () => {
      const empty = tmp('mds-tdx-');
      expect(await mds(h.url, 'ingest', '--tdx', empty)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('not a Tongdaxin vipdoc folder'),
      });
      expect(await mds(h.url, 'ingest', 'bars_1d', '--tdx', empty)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('--tdx PATH loads the install alone'),
      });
    });
  });
}

const REAL = process.env.MDS_TDX_VIPDOC;
describe.skipIf(!REAL)('mds ingest --tdx on a subset of a real Tongdaxin folder (MDS_TDX_VIPDOC)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await emptyHarness(await STORES[0].url());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('loads 600000, 510300 and 000001 of SH with their values', async () => {
    const root = tmp('mds-tdx-real-');
    mkdirSync(join(root, 'sh', 'lday'), { recursive: true });
    for (const f of ['sh600000.day', 'sh510300.day', 'sh000001.day', 'sh880001.day'])
      symlinkSync(join(REAL!, 'sh', 'lday', f), join(root, 'sh', 'lday', f));
    const r = await mds(h.url, 'ingest', '--tdx', root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('skipped 1 file: Tongdaxin sector indices');
    const close = await h.store.db
      .selectFrom('bars_1d as b')
      .innerJoin('instruments as i', 'i.inst', 'b.inst')
      .select(['i.id', 'b.close'])
      .where('b.date', '=', 20150902)
      .orderBy('i.id')
      .execute();
    expect(close.map((c) => [c.id, Number(c.close)])).toEqual([
      ['000001.SH', 3_160_170],
      ['510300.SH', 3_372],
      ['600000.SH', 14_890],
    ]);
  });
});
if (!REAL)
  describe('mds ingest --tdx on a real folder', () => {
    it.skip('skipped: set MDS_TDX_VIPDOC to a Tongdaxin vipdoc folder (docs/ingest.md) to run it', () => {});
  });
