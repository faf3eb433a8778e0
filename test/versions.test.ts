/**
 * Data versions and their change log (store/versions.ts): a sequence numbering the commits that
 * change data, each with what it changed, written in the same transaction as the change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { setPrecomputed } from '../src/derived/indicator-pages.js';
import { changesSince, currentVersion } from '../src/store/versions.js';
import { get, harness, STORES, TINY_DEMO, type Harness } from './helpers.js';
import { exited, mdsChild, tmp } from './ingest-helpers.js';

const dir = tmp('mds-changes-');

/** A file of `name` with `lines` (header first), as one ingest input. */
function file(name: string, lines: string[]) {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, dataset: dataset(name)! };
}

describe.each(STORES)('data versions and the change log ($name)', ({ url }) => {
  let h: Harness;
  let ids: string[];
  const rows = (sql: string, params: unknown[]) => h.store.selectRows(sql, params);
  beforeAll(async () => {
    h = await harness(await url(), TINY_DEMO);
    ids = (await get(h, '/api/v1/equities?page[size]=2')).body.data.map((e: any) => e.id);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("numbers the store's versions from 1, the demo build among them with what it wrote", async () => {
    const all = await changesSince(rows, 0);
    expect(all.map((v) => v.version)).toEqual(all.map((_, i) => i + 1));
    expect(all[0].origin).toMatch(/before the change log/);
    const demo = all.find((v) => v.origin.startsWith('demo build'))!;
    expect(demo.changes.find((c) => c.dataset === 'bars_1d')).toMatchObject({ instruments: null, from: 20250701, to: 20251120 });
    expect(demo.changes.find((c) => c.dataset === 'bars_1d')!.rows).toBeGreaterThan(1000);
    expect(demo.changes.find((c) => c.dataset === 'instruments')).toMatchObject({ instruments: null, from: null, to: null });
    // Each dated dataset by its own days: 1m bars, quotes and trades only on the demo's last day
    // (TINY_DEMO: one minute day, one tick day), as the API serves them.
    const minutes = (await get(h, `/api/v1/equities/${ids[0]}/bars?interval=1m&page[size]=1`)).body.data[0].trade_date;
    expect(minutes).toBe('2025-11-20');
    const range = (d: string) => demo.changes.filter((c) => c.dataset === d).map((c) => [c.from, c.to]);
    for (const d of ['bars_1m', 'quotes', 'trades']) expect(range(d), d).toEqual([[20251120, 20251120]]);
    for (const d of ['capital_flows', 'margin_trading']) {
      const [[from, to]] = range(d);
      expect([from! >= 20250701, to], d).toEqual([true, 20251120]);
    }
    expect(await currentVersion(rows)).toBe(all[all.length - 1].version);
  });

  it('records an ingest that changes data as the next version with its datasets, instruments and dates; one that changes nothing as none', async () => {
    const before = await currentVersion(rows);
    const bars = (await get(h, `/api/v1/equities/${ids[1]}/bars?interval=1d&from=2025-08-01&page[size]=3`)).body.data;
    const r = await ingest(h.store, [
      file('bars_1d', [
        'instrument_id,trade_date,open,high,low,close,volume,amount',
        ...bars.map((b: any) => [ids[1], b.trade_date, b.open, b.high, b.low, b.close, b.volume + 1, b.amount].join(',')),
      ]),
      file('st_periods', ['instrument_id,start_date,end_date', `${ids[0]},2025-09-01,2025-09-30`]),
    ]);
    expect(r.ok).toBe(true);
    expect(r.dataVersion).toBe(before + 1);
    const [v] = await changesSince(rows, before);
    expect(v).toMatchObject({ version: before + 1, origin: 'ingest of 2 files' });
    expect(Math.abs(v.at - Date.now())).toBeLessThan(60_000);
    expect(v.changes).toEqual([
      { dataset: 'bars_1d', rows: 3, instruments: [ids[1]], from: 20250801, to: Number(bars[2].trade_date.replaceAll('-', '')) },
      { dataset: 'st_periods', rows: 1, instruments: [ids[0]], from: 20250901, to: 20250901 },
    ]);
    // The same rows again: nothing changed, no version.
    const again = await ingest(h.store, [file('st_periods', ['instrument_id,start_date,end_date', `${ids[0]},2025-09-01,2025-09-30`])]);
    expect(again.dataVersion).toBeNull();
    expect(await currentVersion(rows)).toBe(before + 1);
    expect((await get(h, '/api/v1/equities?page[size]=1')).headers['data-version']).toBe(String(before + 1));
  });

  it('records a change of the precomputed indicators, and numbers concurrent commits in commit order', async () => {
    const before = await currentVersion(rows);
    await setPrecomputed(h.store, ['macd']);
    const [v] = await changesSince(rows, before);
    expect(v.origin).toBe('indicators precomputed: macd');
    expect(v.changes).toEqual([{ dataset: 'indicator_pages', rows: expect.any(Number), instruments: null, from: null, to: null }]);
    expect(v.changes[0].rows).toBeGreaterThan(0);
    // Three `mds ingest` processes at once: each a version, none twice, in the order they committed.
    const children = [0, 1, 2].map((k) =>
      mdsChild(
        h.url,
        'ingest',
        'st_periods',
        file('st_periods', ['instrument_id,start_date,end_date', `${ids[k % 2]},2025-10-0${k + 1},2025-10-20`]).path,
      ),
    );
    const outs = children.map((c) => {
      let t = '';
      c.stdout!.on('data', (d) => {
        t += d;
      });
      return () => t;
    });
    expect((await Promise.all(children.map(exited))).map((e) => e.code)).toEqual([0, 0, 0]);
    const made = outs.map((t) => Number(/data version (\d+)/.exec(t())?.[1])).sort((a, b) => a - b);
    expect(made).toEqual([v.version + 1, v.version + 2, v.version + 3]);
    const log = await changesSince(rows, v.version);
    expect(log.map((x) => x.version)).toEqual(made);
    expect(log.map((x) => x.changes[0].from).sort()).toEqual([20251001, 20251002, 20251003]);
    expect(await changesSince(rows, await currentVersion(rows))).toEqual([]);
    expect((await changesSince(rows, 0, 2)).map((x) => x.version)).toEqual([1, 2]);
  });
});
