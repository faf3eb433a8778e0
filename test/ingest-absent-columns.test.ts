/**
 * An optional column a file leaves out keeps the stored values (ingest/keep.ts): a bars_1d file
 * without `amount` corrects closes and leaves amounts as they were, on every store, and what is
 * derived from the bars (packs, pages, indicator states) follows the stored rows. An explicit
 * empty field or NDJSON `null` still says "no value".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, STORES, type Harness } from './helpers.js';
import { emptyHarness, mds, snapshot, tmp } from './ingest-helpers.js';
import { checkBarPacks } from '../src/derived/bar-packs.js';

const dir = tmp('mds-absent-');
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
/** examples/bars_1d.csv as rows of fields, without its header. */
const BARS = readFileSync('examples/bars_1d.csv', 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));
const ID = '000001.SH';
const mine = BARS.filter((r) => r[0] === ID);
/** The stored bars_1d of ID, by date: [close, amount] as exported. */
const stored = async (h: Harness) =>
  Object.fromEntries(
    (await snapshot(h.store))['bars_1d.csv']
      .trim()
      .split('\n')
      .map((l) => l.split(','))
      .filter((r) => r[0] === ID)
      .map((r) => [r[1], [r[5], r[7]]]),
  );

describe.each(STORES)('absent optional columns keep stored values ($name)', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await emptyHarness(await url());
    const r = await mds(h.url, 'ingest', '--dir', 'examples');
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(() => h?.close());

  it('a bars_1d file without amount changes closes and keeps amounts; packs, pages and indicators follow', async () => {
    const before = await stored(h);
    expect(Object.keys(before).length).toBe(mine.length);
    // Each close set to the bar's open (within its range), no amount column.
    const path = file(
      'no-amount.csv',
      ['instrument_id,trade_date,open,high,low,close,volume', ...mine.map((r) => [...r.slice(0, 5), r[2], r[6]].join(','))].join('\n') +
        '\n',
    );
    const r = await mds(h.url, 'ingest', 'bars_1d', path);
    expect(r.code, r.stderr).toBe(0);
    const changed = mine.filter((x) => x[2] !== x[5]).length;
    expect(changed).toBeGreaterThan(0);
    expect(r.stdout).toContain(
      `bars_1d: ${mine.length} rows from 1 file: 0 inserted, ${changed} updated, ${mine.length - changed} unchanged`,
    );
    expect(await stored(h)).toEqual(Object.fromEntries(mine.map((x) => [x[1], [x[2], before[x[1]][1]]])));
    expect(Object.values(before).every(([, amount]) => amount !== '')).toBe(true);
    // Served from the stored page and packs: the new closes with the kept amounts.
    const bars = (await get(h, `/api/v1/indices/${ID}/bars?interval=1d&page[size]=100`)).body.data;
    expect(bars.map((b: any) => [b.date ?? b.timestamp, b.close, b.amount])).toEqual(
      mine.map((x) => [expect.stringContaining(x[1]), x[2], before[x[1]][1]]),
    );
    expect((await checkBarPacks(h.store)).problems).toEqual([]);
    expect((await mds(h.url, 'check')).code).toBe(0);
  });

  it('NDJSON: an absent field keeps, null says unknown; a key repeated in the command keeps the amount loaded before it', async () => {
    const [a, b] = mine;
    const obj = (x: string[], extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        instrument_id: x[0],
        trade_date: x[1],
        open: x[2],
        high: x[3],
        low: x[4],
        close: x[3],
        volume: Number(x[6]),
        ...extra,
      });
    // One file: b with an amount of 1.00, then b again without one (keeps 1.00); a with amount null.
    const path = file('bars.ndjson', [obj(b, { amount: '1.00' }), obj(b), obj(a, { amount: null })].join('\n') + '\n');
    // A second file of the same command without the amount column: keeps the first file's 1.00.
    const csv = file('bars_b.csv', `instrument_id,trade_date,open,high,low,close,volume\n${[...b.slice(0, 5), b[4], b[6]].join(',')}\n`);
    const r = await mds(h.url, 'ingest', 'bars_1d', path, csv);
    expect(r.code, r.stderr).toBe(0);
    const now = await stored(h);
    expect(now[a[1]]).toEqual([a[3], '']);
    expect(now[b[1]]).toEqual([b[4], '1.00']);
    const bars = (await get(h, `/api/v1/indices/${ID}/bars?interval=1d&page[size]=2`)).body.data;
    expect(bars.map((x: any) => [x.close, x.amount])).toEqual([
      [a[3], null],
      [b[4], '1.00'],
    ]);
    expect((await checkBarPacks(h.store)).problems).toEqual([]);
  });

  it('instruments without name_en keep their English names; a new one has none', async () => {
    const path = file('instruments.csv', `instrument_id,kind,board,name\n${ID},index,,上证综指\n000002.SH,index,,A股指数\n`);
    const r = await mds(h.url, 'ingest', 'instruments', path);
    expect(r.code, r.stderr).toBe(0);
    const rows = (await snapshot(h.store))['instruments.csv'].split('\n').filter((l) => /^00000[12]\.SH,/.test(l));
    expect(rows).toEqual([
      '000001.SH,index,,上证综指,SSE Composite Index,1991-07-15,exchange,,,,,,,1990-12-19,100.00,',
      '000002.SH,index,,A股指数,,,,,,,,,,,,',
    ]);
  });
});
