/**
 * GET /api/v1/changes (docs/api.md, "Changes"): the change log over HTTP, a record per data
 * version after `after`, with what each changed; paged, filtered by dataset and instrument, as
 * CSV and NDJSON files. Versions are recorded here with known changes (store/versions.ts), so
 * every record is compared with what was recorded. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, parseCsv, STORES, walk, type Harness } from './helpers.js';
import { currentVersion, recordVersion, type DataChange } from '../src/store/versions.js';

/** 2026-11-20 15:30:00 +08:00 in epoch ms, and a second after each version. */
const AT = Date.parse('2026-11-20T15:30:00+08:00');
const RECORDED: { origin: string; changes: DataChange[] }[] = [
  {
    origin: 'ingest of 2 files',
    changes: [
      { dataset: 'bars_1d', rows: 2, instruments: ['000001.SZ', '600519.SH'], from: 20261119, to: 20261120 },
      { dataset: 'income_statements', rows: 1, instruments: ['600519.SH'], from: 20260930, to: 20260930 },
    ],
  },
  {
    origin: 'derivation market_days rebuilt (test)',
    changes: [{ dataset: 'market_days', rows: 5, instruments: null, from: 20261120, to: 20261120 }],
  },
  { origin: 'ingest of 1 file', changes: [{ dataset: 'instruments', rows: 1, instruments: ['000002.SZ'], from: null, to: null }] },
  { origin: 'recorded without changes', changes: [] },
];

/** A change as the API shows it. */
const shown = (c: DataChange) => ({
  dataset: c.dataset,
  rows: c.rows,
  instruments: c.instruments ?? 'all',
  from: c.from === null ? null : `${String(c.from).slice(0, 4)}-${String(c.from).slice(4, 6)}-${String(c.from).slice(6)}`,
  to: c.to === null ? null : `${String(c.to).slice(0, 4)}-${String(c.to).slice(4, 6)}-${String(c.to).slice(6)}`,
});

describe.each(STORES)('GET /api/v1/changes on $name', ({ url }) => {
  let h: Harness;
  let base: number;
  const expected = (i: number, only?: (c: DataChange) => boolean) => ({
    version: base + 1 + i,
    committed_at: new Date(AT + i * 1000 + 8 * 3600_000).toISOString().slice(0, 19) + '+08:00',
    origin: RECORDED[i].origin,
    changes: RECORDED[i].changes.filter(only ?? (() => true)).map(shown),
  });

  beforeAll(async () => {
    h = await harness(await url(), null);
    base = await currentVersion((q, p) => h.store.selectRows(q, p));
    for (const [i, r] of RECORDED.entries()) await h.store.bulkTransaction((s) => recordVersion(s, r.origin, r.changes, AT + i * 1000));
  }, 120_000);
  afterAll(() => h?.close());

  it('lists every version after `after`, ascending, with what it changed', async () => {
    const r = await get(h, `/api/v1/changes?after=${base}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(RECORDED.map((_, i) => expected(i)));
    expect(r.body.meta.next_cursor).toBeNull();
    expect((await get(h, `/api/v1/changes?after=${base + 2}`)).body.data).toEqual([expected(2), expected(3)]);
    // From the first: the versions of the migration come first, then these.
    const all = (await get(h, '/api/v1/changes')).body.data;
    expect(all.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: base + 4 }, (_, i) => i + 1));
  });

  it('pages by version: a walk of pages of 1 holds the same records', async () => {
    expect(await walk(h, `/api/v1/changes?after=${base}`, 1)).toEqual(RECORDED.map((_, i) => expected(i)));
  });

  it('filters by dataset and by instrument (a change of all instruments, a version without changes, match)', async () => {
    const byDataset = (await get(h, `/api/v1/changes?after=${base}&dataset=income_statements`)).body.data;
    expect(byDataset).toEqual([expected(0, (c) => c.dataset === 'income_statements'), expected(3)]);
    const names = (c: DataChange, id: string) => c.instruments === null || c.instruments.includes(id);
    const byId = (await get(h, `/api/v1/changes?after=${base}&instrument_id=000002.SZ`)).body.data;
    expect(byId).toEqual([expected(1), expected(2), expected(3)]);
    const both = (await get(h, `/api/v1/changes?after=${base}&instrument_id=600519.SH&dataset=bars_1d`)).body.data;
    expect(both).toEqual([expected(0, (c) => c.dataset === 'bars_1d' && names(c, '600519.SH')), expected(3)]);
    // A LIKE wildcard in the id matches nothing but itself.
    expect((await get(h, `/api/v1/changes?after=${base}&instrument_id=60051_.SH&dataset=bars_1d`)).body.data).toEqual([expected(3)]);
  });

  it('answers CSV and NDJSON: the record flat, changes as their JSON', async () => {
    const csv = await h.app.inject({ url: `/api/v1/changes?after=${base}`, headers: { 'x-api-key': h.key, accept: 'text/csv' } });
    expect(csv.statusCode).toBe(200);
    const [head, ...rows] = parseCsv(csv.payload);
    expect(head).toEqual(['version', 'committed_at', 'origin', 'changes']);
    expect(rows.map((r) => [Number(r[0]), r[1], r[2], JSON.parse(r[3])])).toEqual(RECORDED.map((_, i) => Object.values(expected(i))));
    const nd = await h.app.inject({
      url: `/api/v1/changes?after=${base + 3}`,
      headers: { 'x-api-key': h.key, accept: 'application/x-ndjson' },
    });
    expect(JSON.parse(nd.payload.trim())).toEqual({ ...expected(3), changes: '[]' });
  });

  it('refuses an `after` that is no version number with 400 naming it', async () => {
    for (const bad of ['-1', 'x', String(2 ** 31)]) {
      const r = await get(h, `/api/v1/changes?after=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.errors[0].source.parameter, bad).toBe('after');
    }
    expect((await get(h, '/api/v1/changes?after=2147483647')).body.data).toEqual([]);
  });
});
