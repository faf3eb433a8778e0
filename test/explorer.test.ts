/**
 * The explorer (/explorer) in a real browser, as a user meets it: the key asked once, a search
 * by a Chinese name, 600519.SH's chart, another interval and adjustment, MACD added, and the
 * legend under the mouse equal to the API's own answer for that bar (prices, volume, amount,
 * the change against the previous bar, MACD's values); older bars loaded by dragging the chart
 * right; a market day whose pool member opens its chart; fundamentals tables; the requests
 * panel's curl lines; every request to the page's own origin (nothing from a CDN). Screenshots
 * are checked not blank. Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, screenshotStats } from './browser.js';
import { get, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';
import { percentChange, subtract } from '../src/explorer/decimal.js';

if (!HAVE_CHROMIUM) console.warn(`explorer.test: ${CHROMIUM} is absent (apt-get install chromium); skipping the browser test`);

/** The page's globals, in the functions run in the page (this file is type-checked without the DOM library). */
declare const document: any, location: any, window: any, localStorage: any;

const B = '/api/v1';

describe("the explorer's files", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await STORES[0].url(), null);
  }, 60_000);
  afterAll(() => h?.close());

  it('are public, static, tagged by their bytes, and name only this origin', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/explorer' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // The page's own files, versioned by their bytes; nothing from a CDN.
    const assets = [...page.payload.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.map((a) => a.replace(/\?v=[\w-]{12}$/, ''))).toEqual(['data:,', '/explorer/app.css', '/explorer/app.js']);
    const js = await h.app.inject({ method: 'GET', url: assets[2] });
    expect([js.statusCode, js.headers['content-type'], js.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=300',
    ]);
    // The chart library is inside the bundle, and the bundle asks the API of its own origin.
    expect(js.payload).toContain('lightweight-charts');
    expect(js.payload).toContain('/api/v1');
    const again = await h.app.inject({ method: 'GET', url: assets[2], headers: { 'if-none-match': String(js.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const css = await h.app.inject({ method: 'GET', url: assets[1] });
    expect([css.statusCode, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    expect(css.payload).toContain('.legend');
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the explorer in Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let page: Page;
  const origins = new Set<string>();
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Four years of daily bars: more than the first view's 320, so that scrolling left loads more;
    // from before the BSE opened (2021-11-15), so that the markets' calendars differ.
    h = await harness(await STORES[0].url(), { ...SMALL_DEMO, start: 20210901 });
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  /** The chart, with these attributes (instrument, interval, adjustment), drawn complete. */
  const chartDone = (attrs: Record<string, string> = {}) =>
    page.waitForSelector(
      `#chart[data-state="complete"]${Object.entries(attrs)
        .map(([k, v]) => `[data-${k}="${v}"]`)
        .join('')}`,
    );
  const legend = async () =>
    Object.fromEntries(
      await page.$$eval('#legend [data-field]', (els) => els.map((e) => [e.getAttribute('data-field'), e.textContent])),
    ) as Record<string, string>;

  it('asks for the key once, keeps it in the browser, and refuses a wrong one', async () => {
    await page.goto(`${base}/explorer`);
    await page.waitForSelector('dialog.key-dialog[open]');
    await page.fill('#api-key', 'mds_not_a_key');
    await page.click('dialog.key-dialog button[type=submit]');
    await page.waitForSelector('dialog.key-dialog .error:text("valid")');
    await page.fill('#api-key', h.key);
    await page.click('dialog.key-dialog button[type=submit]');
    // The start: the SSE Composite's chart.
    await chartDone();
    expect(await page.textContent('#instrument-id')).toBe('000001.SH');
    expect(await page.evaluate(() => localStorage.getItem('mds.explorer.apiKey'))).toBe(h.key);
    await page.reload();
    await chartDone();
    expect(await page.locator('dialog.key-dialog').count()).toBe(0);
  }, 60_000);

  it('finds 贵州茅台 by its Chinese name and by pinyin initials, and opens its chart', async () => {
    await page.fill('#search', 'gzmt');
    await page.waitForSelector('#search-results li[data-id="600519.SH"]');
    await page.fill('#search', '贵州茅台');
    await page.waitForSelector('#search-results li[data-id="600519.SH"]');
    expect(await page.textContent('#search-results li.active .name')).toBe('贵州茅台');
    await page.press('#search', 'Enter');
    await page.waitForFunction(() => location.hash.startsWith('#/chart/600519.SH'));
    await chartDone({ instrument: '600519.SH' });
    expect(await page.textContent('#instrument-name')).toBe('贵州茅台');
    // The first view ends at the latest bar, and the legend shows it.
    const latest = (await get(h, `${B}/equities/600519.SH/bars?interval=1d&order=desc&page[size]=2`)).body.data;
    const shown = await legend();
    expect([shown.time, shown.close, shown.change]).toEqual([
      latest[0].trade_date,
      latest[0].close,
      subtract(latest[0].close, latest[1].close),
    ]);
  }, 60_000);

  it('draws another interval and adjustment with MACD, and its legend equals the API for the bar under the mouse', async () => {
    await page.click('button[data-interval="1w"]');
    await page.waitForFunction(() => location.hash.includes('interval=1w'));
    await chartDone({ instrument: '600519.SH', interval: '1w' });
    await page.selectOption('#adjustment', 'forward');
    await page.waitForFunction(() => location.hash.includes('adjustment=forward'));
    await chartDone({ interval: '1w', adjustment: 'forward' });
    await page.click('button[data-indicator="macd"]');
    await page.waitForFunction(() => location.hash.includes('indicators=macd'));
    await chartDone();

    const box = (await page.locator('#chart').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.3);
    await page.waitForFunction(() => document.querySelector('#legend [data-field="macd.dif"]')?.textContent !== '—');
    const shown = await legend();
    const date = shown.time;
    expect(date).toMatch(/^\d{4}-\d\d-\d\d$/);
    const q = `interval=1w&adjustment=forward`;
    const [bar, prev] = (await get(h, `${B}/equities/600519.SH/bars?${q}&to=${date}&order=desc&page[size]=2`)).body.data;
    expect(bar.trade_date).toBe(date);
    expect(bar.adjustment).toBe('forward');
    expect(shown).toMatchObject({
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: String(bar.volume),
      amount: bar.amount,
      change: subtract(bar.close, prev.close),
      pct_change: percentChange(bar.close, prev.close),
    });
    const [point] = (await get(h, `${B}/equities/600519.SH/technical-indicators/macd?${q}&from=${date}&to=${date}`)).body.data;
    expect(point.trade_date).toBe(date);
    expect({ dif: shown['macd.dif'], dea: shown['macd.dea'], macd: shown['macd.macd'] }).toEqual(point.values);

    // The requests panel names the exact requests, as curl lines.
    const lines = await page.$$eval('#requests code.curl', (els) => els.map((e) => e.textContent));
    expect(lines).toContain(`curl -g -H "X-API-Key: $MDS_KEY" '${base}${B}/equities/600519.SH/bars?${q}&order=desc&page[size]=320'`);
    expect(lines.some((l) => l!.includes('/technical-indicators/macd?interval=1w&adjustment=forward&from='))).toBe(true);

    const stats = await screenshotStats(page, 'mds-explorer-chart');
    expect(stats.colours).toBeGreaterThan(50);
    expect(stats.ink).toBeGreaterThan(0.03);
  }, 60_000);

  it('loads older bars as the chart is dragged to the right (scrolling back in time)', async () => {
    await page.click('button[data-interval="1d"]');
    await chartDone({ interval: '1d', adjustment: 'forward' });
    const before = Number(await page.getAttribute('#chart', 'data-bars'));
    const first = await page.getAttribute('#chart', 'data-first');
    expect(before).toBe(320);
    const box = (await page.locator('#chart').boundingBox())!;
    for (let i = 0; i < 6 && Number(await page.getAttribute('#chart', 'data-bars')) === before; i++) {
      await page.mouse.move(box.x + 100, box.y + box.height * 0.3);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 100, box.y + box.height * 0.3, { steps: 8 });
      await page.mouse.up();
      await page.waitForTimeout(150);
    }
    await page.waitForFunction((n) => Number(document.querySelector('#chart')?.getAttribute('data-bars')) > n, before);
    await chartDone();
    const after = await page.getAttribute('#chart', 'data-first');
    // The older page is the bars before the first one shown, none lost or repeated.
    const older = (await get(h, `${B}/equities/600519.SH/bars?interval=1d&adjustment=forward&to=${first}&order=desc&page[size]=1000`)).body
      .data;
    const count = Number(await page.getAttribute('#chart', 'data-bars'));
    expect(older.length).toBeGreaterThanOrEqual(count - before + 1);
    expect(after).toBe(older[count - before].trade_date);
    // Ex-rights days marked: where the adjustment factor in use changes, within the bars loaded.
    const factors = (await get(h, `${B}/equities/600519.SH/adjustment-factors`)).body.data;
    const last = (await get(h, `${B}/equities/600519.SH/bars?interval=1d&order=desc&page[size]=1`)).body.data[0].trade_date;
    const changes = factors
      .filter((f: any, i: number) => Number(f.backward_factor) !== Number(i ? factors[i - 1].backward_factor : 1))
      .map((f: any) => f.trade_date)
      .filter((d: string) => d >= after! && d <= last);
    expect(changes.length).toBeGreaterThan(0);
    expect((await page.getAttribute('#chart', 'data-ex-rights'))!.split(',')).toEqual(changes);
  }, 60_000);

  it('opens a market day and follows a pool member to its chart', async () => {
    await page.click('#nav-market');
    await page.waitForSelector('#market-day[data-state="complete"]');
    const day = await page.inputValue('#market-date');
    const breadth = (await get(h, `${B}/markets/SH/breadth?order=desc&page[size]=1`)).body.data[0];
    expect(day).toBe(breadth.trade_date);
    const row = await page.$$eval('#breadth tbody tr', (trs) =>
      trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.getAttribute('data-column'), td.textContent]))),
    );
    expect(row.find((r) => r.market === 'SH')).toMatchObject({
      advancers: String(breadth.advancers),
      decliners: String(breadth.decliners),
    });
    // The previous trading day's pools, as the API gives them.
    const date = (await get(h, `${B}/markets/SH/trading-days?to=${day}&order=desc&page[size]=2`)).body.data[1].date;
    await page.click('#prev-day');
    await page.waitForSelector(`#market-day[data-state="complete"][data-date="${date}"]`);
    expect(await page.evaluate(() => window.location.hash)).toBe(`#/market/${date}`);
    const strong = (await get(h, `${B}/equities/pools/strong?date=${date}`)).body.data.map(
      (r: { instrument_id: string }) => r.instrument_id,
    );
    const shown = await page.$$eval('#pool-table-strong td[data-column="instrument_id"]', (tds) => tds.map((td) => td.textContent));
    expect(shown).toEqual(strong);
    const stats = await screenshotStats(page, 'mds-explorer-market');
    expect(stats.colours).toBeGreaterThan(20);

    const member = page.locator('table[id^="pool-table-"] td[data-column="instrument_id"] a').first();
    const id = await member.textContent();
    await member.click();
    await page.waitForFunction((i) => location.hash.startsWith(`#/chart/${i}`), id);
    await chartDone({ instrument: id! });
    expect(await page.textContent('#instrument-id')).toBe(id);
  }, 60_000);

  it("steps the market day over every market's days, though BJ (listed first) opened later", async () => {
    const markets = (await get(h, `${B}/markets`)).body.data.map((m: { id: string }) => m.id);
    expect(markets[0]).toBe('BJ');
    // 2021-09-15: SH and SZ trade, the BSE has not opened; its neighbours are SH's days.
    const day = '2021-09-15';
    const sh = (q: string) => get(h, `${B}/markets/SH/trading-days?${q}&page[size]=1`).then((r) => r.body.data[0].date);
    const [before, after] = [await sh(`to=2021-09-14&order=desc`), await sh(`from=2021-09-16`)];
    expect([before, after]).toEqual(['2021-09-14', '2021-09-16']);
    await page.goto(`${base}/explorer#/market/${day}`);
    await page.waitForSelector(`#market-day[data-state="complete"][data-date="${day}"]`);
    expect(await page.isDisabled('#prev-day')).toBe(false);
    await page.click('#next-day');
    await page.waitForSelector(`#market-day[data-state="complete"][data-date="${after}"]`);
    await page.click('#prev-day');
    await page.waitForSelector(`#market-day[data-state="complete"][data-date="${day}"]`);
    await page.click('#prev-day');
    await page.waitForSelector(`#market-day[data-state="complete"][data-date="${before}"]`);
    // The day's breadth: the markets that traded (BJ had not opened).
    const shown = await page.$$eval('#breadth td[data-column="market"]', (tds) => tds.map((td) => td.textContent));
    expect(shown).toEqual(['SH', 'SZ']);
  }, 60_000);

  it("shows an equity's fundamentals as tables", async () => {
    await page.goto(`${base}/explorer#/fundamentals/600519.SH`);
    await page.waitForSelector('#fundamentals[data-state="complete"]');
    const valuation = (await get(h, `${B}/equities/600519.SH/valuations?order=desc&page[size]=1`)).body.data[0];
    const cells = await page.$$eval('[data-section="valuations"] tbody tr:first-child td', (tds) =>
      Object.fromEntries(tds.map((td) => [td.getAttribute('data-column'), td.textContent])),
    );
    // Every field as the API wrote it (null as a dash), the instrument named once by the page.
    const { instrument_id: _, ...fields } = valuation;
    expect(cells).toEqual(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === null ? '—' : String(v)])));
    expect(Object.values(cells).filter((v) => v !== '—').length).toBeGreaterThan(5);
    const income = (await get(h, `${B}/equities/600519.SH/income-statements?order=desc&page[size]=1`)).body.data[0];
    const text = await page.textContent('[data-section="income"]');
    expect(text).toContain(income.revenue);
    expect(text).toContain(income.net_profit);
  }, 60_000);

  it('says what is wrong with a hostile or mistyped URL, as text', async () => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await page.goto(`${base}/explorer#/chart/%3Cimg%20src=x%20onerror=alert(1)%3E`);
    await page.waitForSelector('#not-found');
    expect(await page.textContent('#not-found')).toContain('No instrument <img src=x onerror=alert(1)>');
    await page.goto(`${base}/explorer#/chart/${'X'.repeat(300)}`);
    await page.waitForSelector('#not-found');
    await page.goto(`${base}/explorer#/market/9999-99-99`);
    await page.waitForSelector('#market-day .error');
    expect(await page.textContent('#market-day .error')).toBe('9999-99-99 is not a date (YYYY-MM-DD).');
    expect(dialogs).toBe(0);
  });

  it('loaded everything from its own origin, with no script error', () => {
    expect([...origins]).toEqual([base]);
    expect(pageErrors).toEqual([]);
  });
});
