import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, harness, PG_URL, STORES, type Harness, uncursored } from './helpers.js';
import { emptyHarness, mds, tmp } from './ingest-helpers.js';
import { exportDatasets } from '../src/ingest/export.js';
import { dataset, DATASETS } from '../src/datasets/registry.js';
import { ingest } from '../src/ingest/load.js';

if (!PG_URL)
  console.warn(
    'TEST_DATABASE_URL is not set: the SQLite → PostgreSQL move of the export/ingest round trip is skipped (SQLite → SQLite still runs).',
  );

/** A broad set of operations over the demo: reference data, every series, analytics and fundamentals. */
async function paths(a: Harness): Promise<string[]> {
  const eqs: string[] = (await get(a, '/api/v1/equities?page[size]=1000')).body.data.map((e: any) => e.id);
  const funds: string[] = (await get(a, '/api/v1/funds?page[size]=1000')).body.data.map((e: any) => e.id);
  const indices: string[] = (await get(a, '/api/v1/indices?page[size]=1000')).body.data.map((e: any) => e.id);
  const last = (await get(a, `/api/v1/indices/000001.SH/bars?interval=1d&from=2025-11-01`)).body.data.at(-1).trade_date;
  const E = '/api/v1/equities';
  return [
    '/api/v1/markets',
    '/api/v1/markets/SZ',
    '/api/v1/markets/SH/trading-days?page[size]=1000&from=2024-01-01',
    '/api/v1/classifications/sectors?page[size]=1000',
    '/api/v1/classifications/primary-industries',
    `${E}?page[size]=1000`,
    `${E}?name=st`,
    '/api/v1/indices?page[size]=50',
    '/api/v1/funds?page[size]=50',
    `${RESTATED}/income-statements?as_of=2025-09-14`,
    `${RESTATED}/valuations?from=2025-08-01&page[size]=1000`,
    `${E}/pools`,
    ...['limit_up', 'limit_down', 'broken_limit_up', 'previous_limit_up', 'strong', 'sub_new'].map(
      (p) => `${E}/pools/${p}?date=${last}&page[size]=1000`,
    ),
    ...indices
      .slice(0, 4)
      .flatMap((id) => [
        `/api/v1/indices/${id}`,
        `/api/v1/indices/${id}/bars?interval=1d&page[size]=1000`,
        `/api/v1/indices/${id}/quotes?page[size]=300`,
        `/api/v1/indices/${id}/technical-indicators/macd?interval=1d&page[size]=300`,
      ]),
    ...funds.slice(0, 3).flatMap((id) => [`/api/v1/funds/${id}`, `/api/v1/funds/${id}/quotes?page[size]=200`]),
    ...eqs.flatMap((id) => [
      `${E}/${id}`,
      `${E}/${id}/bars?interval=1d&page[size]=1000`,
      `${E}/${id}/bars?interval=1d&adjustment=forward&page[size]=1000`,
      `${E}/${id}/bars?interval=1w&adjustment=backward&page[size]=100`,
      `${E}/${id}/bars?interval=30m&page[size]=100`,
      `${E}/${id}/price-limits?page[size]=1000`,
      `${E}/${id}/technical-indicators/kdj?interval=1d&adjustment=forward&page[size]=50`,
      `${E}/${id}/income-statements`,
      `${E}/${id}/balance-sheets`,
      `${E}/${id}/cash-flow-statements`,
      `${E}/${id}/financial-indicators`,
      `${E}/${id}/dividends`,
      `${E}/${id}/earnings-forecasts`,
      `${E}/${id}/institutional-holdings?page[size]=1000`,
      `${E}/${id}/management-history?page[size]=1000`,
      `${E}/${id}/company-profile`,
      `${E}/${id}/business-scope`,
      `${E}/${id}/sector-memberships`,
      `${E}/${id}/capital-flows?page[size]=1000`,
    ]),
    ...eqs
      .slice(0, 6)
      .flatMap((id) => [
        `${E}/${id}/bars?interval=1m&page[size]=1000`,
        `${E}/${id}/quotes?page[size]=500`,
        `${E}/${id}/trades?page[size]=1000`,
      ]),
  ];
}

/** The first equity's h1 2025 income statement restated on 2025-09-15: two versions of the period to move. */
const RESTATED = '/api/v1/equities/000001.SZ';
async function restateOne(a: Harness): Promise<void> {
  const h1 = (await get(a, `${RESTATED}/income-statements?from=2025-06-30&to=2025-06-30`)).body.data[0];
  expect(h1.announce_date < '2025-09-15').toBe(true);
  const file = join(tmp(), 'income_statements.csv');
  const restated = { ...h1, announce_date: '2025-09-15', net_profit_attributable: (Number(h1.net_profit_attributable) * 0.8).toFixed(2) };
  writeFileSync(file, `${Object.keys(restated).join(',')}\n${Object.values(restated).join(',')}\n`);
  const r = await ingest(a.store, [{ path: file, dataset: dataset('income_statements')! }]);
  expect(r.datasets.map((d) => [d.inserted, d.updated])).toEqual([[1, 0]]);
}

const read = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );

describe('export --all from SQLite, ingest --dir into an empty store of each kind: byte-identical API responses', () => {
  let a: Harness;
  const dir = tmp();
  const targets: { name: string; url: () => Promise<string>; h?: Harness }[] = STORES.map((s) => ({ ...s }));
  beforeAll(async () => {
    a = await harness(':memory:');
    await restateOne(a);
    await exportDatasets(a.store, DATASETS, { dir });
    for (const t of targets) {
      const url = await t.url();
      const r = await mds(url, 'ingest', '--dir', dir);
      if (r.code !== 0) throw new Error(r.stderr);
      t.h = await emptyHarness(url);
    }
  });
  afterAll(async () => {
    await a?.close();
    for (const t of targets) await t.h?.close();
  });

  // Byte for byte but the cursors, which name the data version of each store (its own history: the
  // source's demo build, the target's one ingest).
  it.each(targets.map((t) => [t.name, t]))('%s answers every operation byte for byte as the source, cursors aside', async (_name, t) => {
    const b = t.h!;
    const list = await paths(a);
    expect(list.length).toBeGreaterThan(800);
    for (const p of list) {
      const ra = await get(a, p);
      expect(ra.status, p).toBe(200);
      expect(uncursored((await get(b, p)).payload), p).toBe(uncursored(ra.payload));
      if (ra.body.meta?.next_cursor) {
        const n = `${p}${p.includes('?') ? '&' : '?'}page[after]=${ra.body.meta.next_cursor}`;
        expect(uncursored((await get(b, n)).payload), n).toBe(uncursored((await get(a, n)).payload));
      }
    }
  });

  it.each(targets.map((t) => [t.name, t]))('%s exports the same files again (CSV and NDJSON)', async (_name, t) => {
    const again = tmp();
    expect((await mds(t.h!.url, 'export', '--all', '--dir', again)).code).toBe(0);
    expect(read(again)).toEqual(read(dir));
    const nd1 = tmp(),
      nd2 = tmp();
    await exportDatasets(a.store, DATASETS, { dir: nd1 }, { format: 'ndjson', gzip: true });
    expect((await mds(t.h!.url, 'export', '--all', '--dir', nd2, '--format', 'ndjson', '--gzip')).code).toBe(0);
    const unzip = async (d: string) => {
      const { gunzipSync } = await import('node:zlib');
      return Object.fromEntries(
        readdirSync(d)
          .sort()
          .map((f) => [f, gunzipSync(readFileSync(join(d, f))).toString('utf8')]),
      );
    };
    expect(await unzip(nd2)).toEqual(await unzip(nd1));
  });
});
