/**
 * The explorer's first chart, timed in a real browser: for each instrument, a new browser context
 * (nothing cached: the page, its script and the API answers all fetched) opens
 * `/explorer#/chart/ID`, and the time from the navigation's start to the first chart drawn
 * (the page's `mds-first-chart` mark: candles and volume on screen) and to the chart complete
 * (indicators, limits and ex-rights markers drawn too) is read from the page's own clock.
 *
 *   npx tsx bench/explorer.ts --database PATH_OR_URL [--ids 600519.SH,000001.SZ] [--rounds 3] [--indicators macd]
 *
 * The store is served by `node dist/app/server.js` (`npm run build` first) on a free port, one
 * worker (the default), with a key made for the run. Needs /usr/bin/chromium.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { serveStore } from './serve.js';

/** The page's globals, in the functions run in the page (this file is type-checked without the DOM library). */
declare const localStorage: any, performance: any;

const { values: args } = parseArgs({
  options: {
    database: { type: 'string' },
    ids: { type: 'string', default: '600519.SH,000001.SZ,300750.SZ,000300.SH,510300.SH' },
    rounds: { type: 'string', default: '3' },
    indicators: { type: 'string', default: 'macd' },
  },
});
if (!args.database) throw new Error('--database PATH_OR_URL: the store to serve');
if (!existsSync('/usr/bin/chromium')) {
  console.log('bench/explorer: /usr/bin/chromium is absent (apt-get install chromium); nothing measured');
  process.exit(0);
}
const env = { ...process.env, DATABASE_URL: args.database, DEMO: '0', LOG_LEVEL: 'warn' };

const made = spawnSync(process.execPath, ['dist/cli/index.js', 'keys', 'create', '--name', `bench-explorer-${process.pid}`], {
  env,
  encoding: 'utf8',
});
const key = /mds_[A-Za-z0-9_-]+/.exec(made.stdout + made.stderr)?.[0];
if (!key) throw new Error(`no key made: ${made.stdout}${made.stderr}`);
const server = await serveStore(args.database);
const base = server.base;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ids = args.ids!.split(',');
const rounds = Number(args.rounds);
const rows: { id: string; first: number[]; complete: number[] }[] = ids.map((id) => ({ id, first: [], complete: [] }));
try {
  for (let r = 0; r < rounds; r++) {
    for (const row of rows) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      await context.addInitScript((k) => localStorage.setItem('mds.explorer.apiKey', k), key);
      const page = await context.newPage();
      await page.goto(`${base}/explorer#/chart/${row.id}?interval=1d&adjustment=none&indicators=${args.indicators}`);
      await page.waitForSelector('#chart[data-state="complete"], #not-found', { timeout: 30_000 });
      const t = await page.evaluate(() => ({
        first: performance.getEntriesByName('mds-first-chart')[0]?.startTime ?? NaN,
        complete: performance.getEntriesByName('mds-chart-complete')[0]?.startTime ?? NaN,
      }));
      row.first.push(t.first);
      row.complete.push(t.complete);
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.stop();
}
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => x.toFixed(0);
console.log(`store ${args.database}, ${rounds} rounds, a new browser context each (ms from navigation start: median, max)`);
console.log(
  `the server's first request of all (cold: search index built, nothing cached): ${ids[0]}, first chart ${ms(rows[0].first[0])} ms`,
);
console.log('| instrument | first chart ms | complete ms |\n|---|---|---|');
for (const row of rows)
  console.log(
    `| ${row.id} | ${ms(median(row.first))} (max ${ms(Math.max(...row.first))}) | ${ms(median(row.complete))} (max ${ms(Math.max(...row.complete))}) |`,
  );
