/**
 * The explorer's first chart, timed in a real browser: for each instrument, a new browser context
 * (nothing cached: the page, its scripts and the API answers all fetched) opens
 * `/explorer#/chart/ID`, and the time from the navigation's start to the first chart (the page's
 * `mds-first-chart` mark: candles and volume given to the chart), to it painted (the frame
 * after it, `mds-first-chart-painted`: on screen) and to the chart complete (indicators, limits
 * and ex-rights markers drawn too) is read from the page's own clock, with where the time went
 * (the page and script received, the main script started, the search and the bars asked and
 * answered: resource timing). The page is read by the DevTools protocol's own evaluation, never
 * Playwright's helpers, which inject a script into the page while it draws.
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

/** The page's globals, in the function run in the page (this file is type-checked without the DOM library). */
declare const localStorage: any;

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
/** Where a first chart's time goes, in ms from the navigation's start (the page's own clock). */
interface Timing {
  /** The page's HTML received. */
  html: number;
  /** The main script received, and started (the bundle evaluated: `mds-main`). */
  js: number;
  main: number;
  /** The instrument's search and its first page of bars: asked, answered. */
  searchAt: number;
  searchDone: number;
  barsAt: number;
  barsDone: number;
  /** The candles and volume given to the chart (`mds-first-chart`), and on screen: the frame after it (`mds-first-chart-painted`). */
  first: number;
  painted: number;
  /** Indicators, limits and markers drawn too (`mds-chart-complete`). */
  complete: number;
}
const rows: { id: string; t: Timing[] }[] = ids.map((id) => ({ id, t: [] }));
/**
 * Read in the page by the DevTools protocol's own evaluation, not Playwright's: its helpers
 * (waitForSelector, evaluate) first inject a script of their own into the page, whose
 * compilation, on the page's main thread while the chart is being drawn, was measured with it.
 */
const DONE = `performance.getEntriesByName('mds-first-chart-painted').length > 0 && !!document.querySelector('#chart[data-state="complete"], #not-found')`;
const TIMING = `(() => {
  const res = performance.getEntriesByType('resource');
  const none = { startTime: NaN, responseEnd: NaN };
  const [search, bars, js] = [/\\/api\\/v1\\/instruments$/, /\\/bars$/, /\\/explorer\\/app(\\.[\\w-]+)?\\.js$/].map(
    (re) => res.find((e) => re.test(new URL(e.name).pathname)) ?? none,
  );
  const [main, first, painted, complete] = ['mds-main', 'mds-first-chart', 'mds-first-chart-painted', 'mds-chart-complete'].map(
    (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN,
  );
  return JSON.stringify({
    html: performance.getEntriesByType('navigation')[0].responseEnd,
    js: js.responseEnd, main,
    searchAt: search.startTime, searchDone: search.responseEnd, barsAt: bars.startTime, barsDone: bars.responseEnd,
    first, painted, complete,
  });
})()`;
try {
  for (let r = 0; r < rounds; r++) {
    for (const row of rows) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      await context.addInitScript((k) => localStorage.setItem('mds.explorer.apiKey', k), key);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const evaluate = async (expression: string) =>
        ((await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result as { value: unknown }).value;
      await page.goto(`${base}/explorer#/chart/${row.id}?interval=1d&adjustment=none&indicators=${args.indicators}`, {
        waitUntil: 'commit',
      });
      const deadline = Date.now() + 30_000;
      while (!(await evaluate(DONE).catch(() => false))) {
        if (Date.now() > deadline) throw new Error(`${row.id}: no chart in 30 s`);
        await new Promise((r) => setTimeout(r, 25));
      }
      row.t.push(JSON.parse((await evaluate(TIMING)) as string) as Timing);
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.stop();
}
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(0));
const of = (row: (typeof rows)[number], k: keyof Timing) => row.t.map((t) => t[k]);
console.log(`store ${args.database}, ${rounds} rounds, a new browser context each (ms from navigation start: median, max)`);
console.log(
  `the server's first request of all (cold: search index built, nothing cached): ${ids[0]}, first chart ${ms(rows[0].t[0].first)} ms, painted ${ms(rows[0].t[0].painted)} ms`,
);
console.log('| instrument | first chart ms | painted ms | complete ms |\n|---|---|---|---|');
for (const row of rows) {
  const cell = (k: keyof Timing) => `${ms(median(of(row, k)))} (max ${ms(Math.max(...of(row, k)))})`;
  console.log(`| ${row.id} | ${cell('first')} | ${cell('painted')} | ${cell('complete')} |`);
}
const all = rows.flatMap((r) => r.t);
const step = (k: keyof Timing) => ms(median(all.map((t) => t[k])));
console.log(
  `\nwhere the time goes (medians over every load, ms from navigation start): HTML received ${step('html')}, ` +
    `script received ${step('js')}, started ${step('main')}; search asked ${step('searchAt')}, answered ${step('searchDone')}; ` +
    `bars asked ${step('barsAt')}, answered ${step('barsDone')}; first chart ${step('first')}, painted ${step('painted')}; complete ${step('complete')}`,
);
