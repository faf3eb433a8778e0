/**
 * The whole market: a Tongdaxin `vipdoc` folder (the reference is red-mine/stock @ 598147c, 8,146
 * daily files, 2015–2023; docs/ingest.md, "Whole market") loaded by `mds ingest --tdx` into a new
 * store, then the questions asked across it, beside the same questions on the demo market:
 * ingest rows/s, peak RSS, bytes a bar, a day's pool and cross-section at the first request
 * (a new app: nothing cached), a year of breadth, and daily bar pages p50/p99 (sequential).
 *
 *   npx tsx bench/whole-market.ts --tdx /path/to/vipdoc [--pg URL] [--days 20] [--pages 200]
 *
 * Without a folder (--tdx or MDS_TDX_VIPDOC) it says so and exits 0. Timings on a shared machine
 * are noisy: compare the whole-market figures with the demo's of the same run.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, openStore } from '../src/derived/open.js';
import { generateDemo } from '../src/demo/generate.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { KeyStore } from '../src/auth/keys.js';
import { tdxFolder } from '../src/ingest/tdx-folder.js';
import { ingest } from '../src/ingest/load.js';
import type { Store } from '../src/store/types.js';

const { values: o } = parseArgs({ options: {
  tdx: { type: 'string', default: process.env.MDS_TDX_VIPDOC }, pg: { type: 'string' },
  days: { type: 'string', default: '20' }, pages: { type: 'string', default: '200' },
} });

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const median = (xs: number[]) => pct(xs, 0.5);

interface Figures { store: string; bars: number; pool: number; poolMax: number; cross: number; breadth: number; pageP50: number; pageP99: number }

/** A new app over `store`, having answered one request (its catalogue loaded, its code warm), nothing of a day cached. */
async function warm(store: Store, headers: Record<string, string>) {
  const app = await buildApp({ config: loadConfig({ DATABASE_URL: 'bench', LOG_LEVEL: 'silent' }), store });
  const r = await app.inject({ url: '/api/v1/equities?page[size]=1', headers });
  if (r.statusCode !== 200) throw new Error(`warm-up: ${r.statusCode}`);
  return app;
}

/** The questions across the market, each at its first request on a new app (no day cached). */
async function questions(store: Store, name: string): Promise<Figures> {
  const key = (await new KeyStore(store.db).create('bench')).key;
  const headers = { 'x-api-key': key };
  const [[bars]] = await store.selectRows('select count(*) from bars_1d', []) as number[][];
  const dates = (await store.selectRows("select date from market_breadth where market = 'SH' order by date", [])).map((r) => Number(r[0]));
  const n = +o.days!;
  const picked = Array.from({ length: Math.min(n, dates.length) }, (_, i) => dates[Math.floor((i * (dates.length - 1)) / Math.max(1, n - 1))]);
  const iso = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`;
  const pools: number[] = [], cross: number[] = [];
  for (const d of picked) {
    // A new app for each day: its pool and cross-section at the first request.
    const app = await warm(store, headers);
    let t = process.hrtime.bigint();
    const p = await app.inject({ url: `/api/v1/equities/pools/limit_up?date=${iso(d)}&page[size]=1000`, headers });
    pools.push(ms(t));
    if (p.statusCode !== 200) throw new Error(`pool ${d}: ${p.statusCode} ${p.body.slice(0, 200)}`);
    t = process.hrtime.bigint();
    const c = await app.inject({ url: `/api/v1/markets/SZ/bars?date=${iso(d)}`, headers });
    cross.push(ms(t));
    if (c.statusCode !== 200) throw new Error(`cross-section ${d}: ${c.statusCode}`);
    await app.close();
  }
  const app = await warm(store, headers);
  let t = process.hrtime.bigint();
  const b = await app.inject({ url: `/api/v1/markets/SH/breadth?from=${iso(dates[Math.max(0, dates.length - 250)])}&page[size]=1000`, headers });
  const breadth = ms(t);
  if (b.statusCode !== 200) throw new Error(`breadth: ${b.statusCode}`);
  const ids = (await store.selectRows("select id from instruments where kind = 'equity' order by id", [])).map((r) => String(r[0]));
  const pages: number[] = [];
  for (let i = 0; i < +o.pages!; i++) {
    const id = ids[(i * 7919) % ids.length];
    t = process.hrtime.bigint();
    const r = await app.inject({ url: `/api/v1/equities/${id}/bars?interval=1d&page[size]=100`, headers });
    pages.push(ms(t));
    if (r.statusCode !== 200) throw new Error(`page ${id}: ${r.statusCode}`);
  }
  await app.close();
  return { store: name, bars, pool: median(pools), poolMax: Math.max(...pools), cross: median(cross), breadth, pageP50: median(pages), pageP99: pct(pages, 0.99) };
}

async function main() {
  if (!o.tdx || !existsSync(o.tdx)) {
    console.log(`whole-market bench skipped: no Tongdaxin folder (give --tdx PATH or MDS_TDX_VIPDOC; ${o.tdx ? `${o.tdx} does not exist` : 'none given'})`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'mds-whole-market-'));
  const rows: Figures[] = [];
  try {
    const demo = openStore(join(dir, 'demo.sqlite'));
    await migrate(demo);
    await generateDemo(demo);
    rows.push(await questions(demo, 'demo (SQLite)'));
    await demo.close();
    for (const url of [join(dir, 'market.sqlite'), ...(o.pg ? [o.pg] : [])]) {
      const store = openStore(url);
      await migrate(store);
      const t = process.hrtime.bigint();
      const r = await ingest(store, tdxFolder(o.tdx).files);
      const seconds = ms(t) / 1000;
      if (!r.ok) throw new Error(`ingest failed: ${r.errors.slice(0, 3).join('; ')}`);
      const loaded = r.datasets.find((x) => x.dataset === 'bars_1d')!.rows;
      const bytes = url.startsWith('postgres') ? null : statSync(url).size;
      console.log(`${url.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}: ${loaded.toLocaleString('en-US')} daily bars in ${seconds.toFixed(1)} s `
        + `(${Math.round(loaded / seconds).toLocaleString('en-US')} rows/s), the bench process's peak RSS so far ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`
        + (bytes === null ? '' : `, ${(bytes / 1e9).toFixed(2)} GB: ${Math.round(bytes / loaded)} bytes a bar`));
      rows.push(await questions(store, url.startsWith('postgres') ? 'whole market (PostgreSQL)' : 'whole market (SQLite)'));
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('| store | daily bars | pool, first request (median, max) ms | cross-section page ms | 250 days of breadth ms | bars page p50 / p99 ms |');
  console.log('|---|---|---|---|---|---|');
  for (const f of rows) {
    console.log(`| ${f.store} | ${f.bars.toLocaleString('en-US')} | ${f.pool.toFixed(1)}, ${f.poolMax.toFixed(1)} | ${f.cross.toFixed(1)} | ${f.breadth.toFixed(1)} | ${f.pageP50.toFixed(2)} / ${f.pageP99.toFixed(2)} |`);
  }
}

await main();
