/**
 * Regenerates examples/: one small, self-consistent file per dataset, cut from `mds export` of
 * the small test demo (seed 7) — six instruments (an index, three equities including an ST one
 * and one with a rights issue, a STAR equity and an ETF), the last trading days, a few rows per
 * instrument — plus NDJSON copies of two datasets in examples/ndjson/. Every file is checked to
 * load into an empty store.   npx tsx scripts/make-examples.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openStore } from '../src/derived/open.js';
import { generateDemo } from '../src/demo/generate.js';
import { exportDatasets } from '../src/ingest/export.js';
import { ingest } from '../src/ingest/load.js';
import { DATASETS, dataset } from '../src/datasets/registry.js';
import { CsvParser, csvField, type CsvRecord } from '../src/ingest/csv.js';

const OUT = fileURLToPath(new URL('../examples/', import.meta.url));
const KEEP = new Set(['000001.SH', '000256.SZ', '002013.SZ', '603005.SH', '688348.SH', '510210.SH']);
const DAYS = 5;
/** Rows kept per instrument (the latest ones) in the long datasets. */
const PER_INSTRUMENT: Record<string, number> = {
  bars_1m: 10,
  quotes: 5,
  trades: 6,
  capital_flows: 3,
  institutional_holdings: 4,
  management: 4,
};
const DEFAULT_PER_INSTRUMENT = 4;

const read = (path: string) => {
  const out: CsvRecord[] = [];
  const p = new CsvParser();
  p.push(readFileSync(path, 'utf8'), out);
  p.end(out);
  return { header: out[0].fields, rows: out.slice(1).map((r) => r.fields) };
};

const tmp = mkdtempSync(join(tmpdir(), 'mds-examples-'));
try {
  const store = openStore(join(tmp, 'demo.sqlite'));
  await migrate(store);
  await generateDemo(store, { seed: 7, equities: 40, start: 20250102, end: 20251120, minuteDays: 3, tickDays: 2 });
  await exportDatasets(store, DATASETS, { dir: join(tmp, 'all') });
  await store.close();

  const sh = read(join(tmp, 'all/bars_1d.csv'))
    .rows.filter((r) => r[0] === '000001.SH')
    .map((r) => r[1]);
  const window = new Set(sh.slice(-DAYS));
  const inWindow = (v: string) => window.has(v.slice(0, 10));
  const memberships = read(join(tmp, 'all/instrument_classifications.csv'))
    .rows.filter((r) => KEEP.has(r[0]))
    .map((r) => r[1]);
  mkdirSync(join(OUT, 'ndjson'), { recursive: true });
  for (const ds of DATASETS) {
    const { header, rows } = read(join(tmp, `all/${ds.name}.csv`));
    const at = (name: string) => header.indexOf(name);
    const ids = ['instrument_id', 'index_id'].map(at).filter((i) => i >= 0);
    const when = ['trade_date', 'timestamp'].map(at).find((i) => i >= 0);
    let kept = rows.filter((r) => ids.every((i) => KEEP.has(r[i])) && (when === undefined || inWindow(r[when])));
    if (ds.name === 'trading_days') kept = rows.filter((r) => window.has(r[1]));
    if (ds.name === 'classifications') kept = rows.filter((r) => memberships.includes(r[0]));
    if (ds.name === 'instruments') kept = rows.filter((r) => KEEP.has(r[0]));
    if (
      ids.length &&
      !['bars_1d', 'st_periods', 'corporate_actions', 'instrument_classifications', 'index_constituents'].includes(ds.name)
    ) {
      const per = PER_INSTRUMENT[ds.name] ?? DEFAULT_PER_INSTRUMENT;
      const byInst = new Map<string, string[][]>();
      for (const r of kept) byInst.set(r[ids[0]], [...(byInst.get(r[ids[0]]) ?? []), r]);
      kept = [...byInst.values()].flatMap((rs) => rs.slice(-per));
    }
    writeFileSync(join(OUT, `${ds.name}.csv`), [header, ...kept].map((r) => r.map(csvField).join(',')).join('\n') + '\n');
    console.log(`${ds.name}.csv: ${kept.length} rows`);
  }

  const check = openStore(join(tmp, 'check.sqlite'));
  await migrate(check);
  const r = await ingest(
    check,
    DATASETS.map((d) => ({ path: join(OUT, `${d.name}.csv`), dataset: d })),
  );
  if (!r.ok) throw new Error(`examples do not load:\n${r.errors.join('\n')}`);
  await exportDatasets(check, [dataset('bars_1d')!], { path: join(OUT, 'ndjson/bars_1d.ndjson') }, { format: 'ndjson' });
  await exportDatasets(check, [dataset('trades')!], { path: join(OUT, 'ndjson/trades.ndjson.gz') }, { format: 'ndjson', gzip: true });
  await check.close();
  console.log('examples load into an empty store; ndjson/bars_1d.ndjson and ndjson/trades.ndjson.gz written');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
