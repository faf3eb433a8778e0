/**
 * `mds ingest --tdx PATH` run again (ingest/tdx-update.ts, docs/ingest.md "Keeping it current"):
 * an install the test makes in a temp folder from real files of ../shared (three `.day` files,
 * an `.lc1`, the gbbq and name tables), first with the last records cut off, loaded, then
 * completed as the client appends the day: the second run reads only the new records, and the
 * store equals a fresh load of the whole files, on both stores. A record changed before the last
 * loaded one, and a changed gbbq row, are read again as corrections. Skipped without ../shared.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, STORES, type Harness } from './helpers.js';
import { FILES, install, lastDayCut, lastDayRecords } from './tdx-helpers.js';
import { emptyHarness, mds, snapshot, tmp } from './ingest-helpers.js';
import { decodeDay } from '../src/store/day-records.js';
import { changesSince } from '../src/store/versions.js';
import { gbbqRecords, GBBQ_HEADER, GBBQ_RECORD, SHARE_CATEGORIES } from '../src/ingest/vendors/tdx-gbbq.js';

/** A volume changed in record `back` from the end of a `.day` file: a correction before its last record. */
function changeVolume(b: Buffer, back: number) {
  const o = b.length - 32 * back + 24;
  b.writeUInt32LE(b.readUInt32LE(o) + 100, o);
}

/** 600519.SH's first share-change row of the gbbq with its total after (its unenciphered last field) + 1 (10,000 shares). */
function changeGbbqRow(b: Buffer) {
  const recs = gbbqRecords(b)!;
  const i = recs.findIndex((r) => r.market === 1 && r.code === '600519' && SHARE_CATEGORIES.has(r.category));
  const o = GBBQ_HEADER + i * GBBQ_RECORD + 25;
  b.writeFloatLE(b.readFloatLE(o) + 1, o);
}

/**
 * 600519.SH's 2018-06-15 ex-date with 0.5 bonus shares per 10 besides its cash (none before): the
 * bonus float's last byte (its exponent) is the record's one unenciphered byte before the last
 * field, 0x00 of 0.0 made 0x3f (0.5).
 */
function changeBonus(b: Buffer) {
  const i = gbbqRecords(b)!.findIndex((r) => r.market === 1 && r.code === '600519' && r.date === 20180615 && r.category === 1);
  const o = GBBQ_HEADER + i * GBBQ_RECORD + 24;
  if (b[o] !== 0) throw new Error(`gbbq: 600519 2018-06-15 bonus byte ${b[o]}, not 0.0's`);
  b[o] = 0x3f;
}

const versions = async (h: Harness) =>
  (await h.store.select<{ version: number; origin: string }>('select version, origin from data_versions order by version', [])).map((v) => [
    Number(v.version),
    v.origin,
  ]);

describe.skipIf(!HAVE_SHARED).each(STORES)('mds ingest --tdx again on $name', ({ url }) => {
  let a: Harness, fresh: Harness;
  beforeAll(async () => {
    a = await emptyHarness(await url());
    fresh = await emptyHarness(await url());
  });
  afterAll(async () => {
    await a?.close();
    await fresh?.close();
  });

  it('reads only the records appended since the last run, and the store equals a fresh load of the whole files', async () => {
    const lc1 = lastDayRecords();
    // The bar files and the gbbq are followed (tdx_files); the name tables are small and read every run.
    const root = install(tmp('mds-tdx-update-'), lastDayCut(lc1));
    const first = await mds(a.url, 'ingest', '--tdx', root);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('tdx: 5 files read whole (none loaded before)');
    // The client appends the day: the whole files.
    install(root);
    const again = await mds(a.url, 'ingest', '--tdx', root);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      'tdx update: 4 files with new records (to 2023-02-24); 1 file unchanged, not read; 0 files new, read whole; 0 files changed before',
    );
    // Only the new records were read: 1 daily bar a file, the last day's minutes.
    expect(again.stdout).toMatch(new RegExp(`bars_1d: 3 rows from 3 files: 3 inserted, 0 updated, 0 unchanged`));
    expect(again.stdout).toMatch(new RegExp(`bars_1m: ${lc1} rows from 1 file: ${lc1} inserted, 0 updated, 0 unchanged`));
    const whole = await mds(fresh.url, 'ingest', '--tdx', install(tmp('mds-tdx-whole-')));
    expect(whole.code, whole.stderr).toBe(0);
    expect(await snapshot(a.store)).toEqual(await snapshot(fresh.store));
    const v = await versions(a);
    expect(v.at(-1)![1]).toBe('tdx update: 4 appended, 0 new');
    // Nothing new: nothing read, no data version.
    const idle = await mds(a.url, 'ingest', '--tdx', root);
    expect(idle.stdout).toContain('tdx update: 0 files with new records; 5 files unchanged, not read');
    expect(await versions(a)).toEqual(v);
    const check = await mds(a.url, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('reads a file changed before its last loaded record, and a changed gbbq row, again whole as a correction', async () => {
    const edit = (rel: string, b: Buffer) => {
      if (rel === 'vipdoc/sz/lday/sz000001.day') changeVolume(b, 10);
      if (rel === 'T0002/hq_cache/gbbq') changeGbbqRow(b);
    };
    const root = install(tmp('mds-tdx-fix-'), () => 0, edit);
    const before = (await a.store.select<{ n: number }>('select count(*) as n from share_capital', []))[0];
    const r = await mds(a.url, 'ingest', '--tdx', root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 files changed before their last loaded record, read again whole as corrections');
    expect(r.stdout).toContain('tdx update: correction: vipdoc/sz/lday/sz000001.day');
    expect(r.stdout).toContain('tdx update: correction: T0002/hq_cache/gbbq');
    expect(r.stdout).toMatch(/bars_1d: \d+ rows from 1 file: 0 inserted, 1 updated/);
    expect((await versions(a)).at(-1)![1]).toBe(
      'tdx update: 0 appended, 0 new, 2 corrected (T0002/hq_cache/gbbq, vipdoc/sz/lday/sz000001.day)',
    );
    const whole = await mds(
      fresh.url,
      'ingest',
      '--tdx',
      install(tmp('mds-tdx-whole-'), () => 0, edit),
      '--full',
    );
    expect(whole.code, whole.stderr).toBe(0);
    expect(await snapshot(a.store)).toEqual(await snapshot(fresh.store));
    expect((await a.store.select<{ n: number }>('select count(*) as n from share_capital', []))[0]).toEqual(before);
  });

  it('reads a gbbq with one changed ex-date again: that row alone is logged, and no day before its ex-date is made again', async () => {
    const edit = (rel: string, b: Buffer) => {
      if (rel === 'vipdoc/sz/lday/sz000001.day') changeVolume(b, 10);
      if (rel === 'T0002/hq_cache/gbbq') {
        changeGbbqRow(b);
        changeBonus(b);
      }
    };
    // A day of SH before the ex-date and one on it, marked: a day made again loses its mark.
    const [[[before]], [[on]]] = [
      await a.store.selectRows("select max(date) from market_breadth where market = 'SH' and date < 20180615", []),
      await a.store.selectRows("select min(date) from market_breadth where market = 'SH' and date >= 20180615", []),
    ];
    const listed = async (d: unknown) =>
      Number((await a.store.selectRows("select listed from market_breadth where market = 'SH' and date = ?", [d]))[0][0]);
    const was = [await listed(before), await listed(on)];
    const mark = (d: unknown, n: number) =>
      a.store.bulkTransaction((s) => s.query("update market_breadth set listed = ? where market = 'SH' and date = ?", [n, d]));
    await mark(before, -7);
    await mark(on, -7);
    const v = Number((await versions(a)).at(-1)![0]);
    const r = await mds(
      a.url,
      'ingest',
      '--tdx',
      install(tmp('mds-tdx-gbbq-'), () => 0, edit),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'tdx update: 0 files with new records; 4 files unchanged, not read; 0 files new, read whole; 1 file changed',
    );
    expect(r.stdout).toMatch(/corporate_actions: \d+ rows from 1 file: 0 inserted, 1 updated/);
    // The change log lists the row that changed, not every instrument of the gbbq; share capital did not change.
    const [next] = await changesSince((sql, params) => a.store.selectRows(sql, params), v);
    expect(next.origin).toBe('tdx update: 0 appended, 0 new, 1 corrected (T0002/hq_cache/gbbq)');
    expect(next.changes.filter((c) => c.dataset === 'corporate_actions' || c.dataset === 'share_capital')).toEqual([
      { dataset: 'corporate_actions', rows: 1, instruments: ['600519.SH'], from: 20180615, to: 20180615 },
    ]);
    // The days from the ex-date on were made again, those before it not.
    expect([await listed(before), await listed(on)]).toEqual([-7, was[1]]);
    await mark(before, was[0]);
    const whole = await mds(
      fresh.url,
      'ingest',
      '--tdx',
      install(tmp('mds-tdx-whole-'), () => 0, edit),
      '--full',
    );
    expect(whole.code, whole.stderr).toBe(0);
    expect(await snapshot(a.store)).toEqual(await snapshot(fresh.store));
    const check = await mds(a.url, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('loads a listing (a file new to the store) with the days from its first on made again, equal to a fresh load', async () => {
    const [b, c] = [await emptyHarness(await url()), await emptyHarness(await url())];
    try {
      // 600519.SH as a listing of the last three days: no file the evening before.
      const listing = 'vipdoc/sh/lday/sh600519.day';
      const listed = (root: string) => {
        const whole = readFileSync(FILES[listing]);
        writeFileSync(join(root, listing), whole.subarray(whole.length - 3 * 32));
        return root;
      };
      const lc1 = lastDayRecords();
      const root = install(tmp('mds-tdx-listing-'), lastDayCut(lc1));
      unlinkSync(join(root, listing));
      expect((await mds(b.url, 'ingest', '--tdx', root)).code).toBe(0);
      const r = await mds(b.url, 'ingest', '--tdx', listed(install(root)));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        'tdx update: 3 files with new records (to 2023-02-24); 1 file unchanged, not read; 1 file new, read whole;',
      );
      expect((await mds(c.url, 'ingest', '--tdx', listed(install(tmp('mds-tdx-listed-'))))).code).toBe(0);
      // Exports in instrument order: the stores number the listing apart (the lines compared sorted).
      const sorted = async (h: Harness) =>
        Object.fromEntries(Object.entries(await snapshot(h.store)).map(([f, text]) => [f, text.split('\n').sort()]));
      expect(await sorted(b)).toEqual(await sorted(c));
      // The markets' days and breadth as made whole by the fresh load (records by id: the stores number instruments apart).
      const days = async (h: Harness) => {
        const ids = new Map((await h.store.selectRows('select inst, id from instruments', [])).map(([i, id]) => [Number(i), id]));
        const rows = await h.store.selectRows('select market, date, data from market_days order by market, date', []);
        return rows.map(([m, d, data]) => {
          const day = decodeDay(data as Uint8Array);
          const recs = Array.from({ length: day.n }, (_, i) => ({ ...day.record(i), inst: ids.get(day.record(i).inst) }));
          return [m, Number(d), recs.sort((x, y) => String(x.inst).localeCompare(String(y.inst)))];
        });
      };
      const breadth = (h: Harness) => h.store.selectRows('select * from market_breadth order by market, date', []);
      expect(await days(b)).toEqual(await days(c));
      expect(await breadth(b)).toEqual(await breadth(c));
      const check = await mds(b.url, 'check');
      expect(check.code, check.stdout + check.stderr).toBe(0);
    } finally {
      await b.close();
      await c.close();
    }
  });

  it("fails on a record the client is still writing and leaves the store and the files' states as they were", async () => {
    const root = install(tmp('mds-tdx-partial-'));
    const file = join(root, 'vipdoc/sh/lday/sh600519.day');
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.alloc(10)]));
    const states = () => a.store.select('select * from tdx_files order by path', []);
    const [v, before, bars] = [await versions(a), await states(), await snapshot(a.store)];
    const r = await mds(a.url, 'ingest', '--tdx', root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:record 1818: a partial record of 10 bytes at the end (records are 32 bytes)`);
    expect([await versions(a), await states(), await snapshot(a.store)]).toEqual([v, before, bars]);
  });
});
if (!HAVE_SHARED)
  describe('mds ingest --tdx again', () => {
    it.skip('skipped: ../shared/data is absent (test/shared-data.ts)', () => {});
  });
