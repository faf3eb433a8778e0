/**
 * The explorer's live banner (src/explorer/live.ts) in Chromium: with a chart open, a commit of
 * the instrument's latest bar shows 「新数据：版本 N」 with the committed version, and 刷新 draws the
 * same view again (instrument, interval, adjustment, indicators, the zoom) with the new close in its legend.
 * Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, screenshotStats } from './browser.js';
import { get, harness, STORES, TINY_DEMO, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';

if (!HAVE_CHROMIUM) console.warn(`explorer-live.test: ${CHROMIUM} is absent (apt-get install chromium); skipping the browser test`);

/** The page's globals, in the functions run in the page (this file is type-checked without the DOM library). */
declare const document: any, localStorage: any;

const ID = '600519.SH';
const HASH = `#/chart/${ID}?interval=1d&adjustment=none&indicators=ma`;

describe.skipIf(!HAVE_CHROMIUM)('the explorer’s live banner in Chromium', () => {
  let h: Harness;
  let writer: Store;
  let browser: Browser;
  let base: string;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    h = await harness(await STORES[0].url(), TINY_DEMO);
    writer = openStore(h.url);
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((k) => localStorage.setItem('mds.explorer.apiKey', k), h.key);
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await writer?.close();
    await h?.close();
  });

  const legendClose = () => page.textContent('#legend [data-field="close"]');

  it('shows 新数据：版本 N when a version commits, and 刷新 draws the view again with the new data', async () => {
    await page.goto(`${base}/explorer${HASH}`);
    await page.waitForSelector(`#chart[data-state="complete"][data-instrument="${ID}"]`);
    // The stream is open (after the version the view was drawn at); no banner yet.
    await page.waitForSelector('#live-banner[data-live="open"]', { state: 'attached' });
    expect(await page.isHidden('#live-banner')).toBe(true);
    const [latest] = (await get(h, `/api/v1/equities/${ID}/bars?interval=1d&order=desc&page[size]=1`)).body.data;
    expect(await legendClose()).toBe(latest.close);
    // Zoomed in (↑ twice, as in Tongdaxin): the reload keeps it.
    const span = () => page.getAttribute('#chart', 'data-span');
    const first = await span();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((s) => document.querySelector('#chart')?.dataset.span !== s, first);
    const zoomed = await span();
    expect(Number(zoomed)).toBeLessThan(Number(first));

    // The latest bar's close a cent higher: a new data version.
    const close = (Math.round(Number(latest.close) * 100) + 1) / 100;
    const high = Math.max(Number(latest.high), close);
    const file = join(tmp('mds-explorer-live-'), 'bar.csv');
    const row = [ID, latest.trade_date, latest.open, high.toFixed(2), latest.low, close.toFixed(2), latest.volume, latest.amount];
    writeFileSync(file, `instrument_id,trade_date,open,high,low,close,volume,amount\n${row.join(',')}\n`);
    const r = await ingest(writer, [{ path: file, dataset: dataset('bars_1d')! }]);
    expect(r.ok, r.errors.join('\n')).toBe(true);

    await page.waitForSelector('#live-banner:not([hidden])');
    expect(await page.textContent('#live-text')).toBe(`新数据：版本 ${r.dataVersion}`);
    expect(await page.getAttribute('#live-banner', 'data-version')).toBe(String(r.dataVersion));
    const shot = await screenshotStats(page, 'explorer-live-banner');
    expect(shot.colours).toBeGreaterThan(20);
    // The view on screen is still the old data until the reload.
    expect(await legendClose()).toBe(latest.close);

    await page.click('#live-reload');
    await page.waitForFunction((c) => document.querySelector('#legend [data-field="close"]')?.textContent === c, close.toFixed(2));
    await page.waitForSelector(`#chart[data-state="complete"][data-instrument="${ID}"][data-interval="1d"][data-adjustment="none"]`);
    expect(await page.isHidden('#live-banner')).toBe(true);
    expect(await page.evaluate(() => document.location.hash)).toBe(HASH);
    expect(await span()).toBe(zoomed);
    expect(await page.getAttribute('button[data-indicator="ma"]', 'aria-pressed')).toBe('true');
    const [after] = (await get(h, `/api/v1/equities/${ID}/bars?interval=1d&order=desc&page[size]=1`)).body.data;
    expect(after.close).toBe(close.toFixed(2));
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
