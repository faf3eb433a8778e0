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
import { get, harness, SMALL_DEMO, STORES, walk, type Harness } from './helpers.js';
import { divide, percentChange, round, subtract, sum } from '../src/explorer/decimal.js';
import { moneyText, turnoverRate, volumeText, wanYi } from '../src/explorer/format.js';

if (!HAVE_CHROMIUM) console.warn(`explorer.test: ${CHROMIUM} is absent (apt-get install chromium); skipping the browser test`);

/** The page's globals, in the functions run in the page (this file is type-checked without the DOM library). */
declare const document: any, location: any, window: any, localStorage: any, getComputedStyle: any;

const B = '/api/v1';

describe.skipIf(!HAVE_CHROMIUM)('the explorer in Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;
  let page: Page;
  const origins = new Set<string>();
  const pageErrors: string[] = [];
  /** What the page's Content-Security-Policy refused (Chromium says so on the console). */
  const refused: string[] = [];

  beforeAll(async () => {
    // Four years of daily bars: more than the first view's 320, so that scrolling left loads more;
    // from before the BSE opened (2021-11-15), so that the markets' calendars differ.
    h = await harness(await STORES[0].url(), { ...SMALL_DEMO, start: 20210901 });
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
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
  /** The legend's fields: the values shown, or with `exact` the values they are made from (volume in shares, amount in CNY). */
  /** Another browser context (its own viewport, colour scheme, storage) with the key already kept. */
  const keyedContext = async (options: Parameters<Browser['newContext']>[0]) => {
    const context = await browser.newContext(options);
    await context.addInitScript((k) => localStorage.setItem('mds.explorer.apiKey', k), h.key);
    return context;
  };
  const legend = async (exact = false) =>
    Object.fromEntries(
      await page.$$eval(
        '#legend [data-field]',
        (els, x) => els.map((e) => [e.getAttribute('data-field'), (x && e.getAttribute('data-exact')) || e.textContent]),
        exact,
      ),
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
    // MA5/10/20/60 are on by default; MACD joins them.
    expect(await page.getAttribute('button[data-indicator="ma"]', 'aria-pressed')).toBe('true');
    await page.click('button[data-indicator="macd"]');
    await page.waitForFunction(() => location.hash.includes('indicators=ma,macd'));
    await chartDone();

    const box = (await page.locator('#chart').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.3);
    await page.waitForFunction(() => document.querySelector('#legend [data-field="macd.dif"]')?.textContent !== '—');
    const shown = await legend(true);
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
    // MA over the candles at the price's decimals, as Tongdaxin shows it; the API's exact value behind it.
    const [ma] = (await get(h, `${B}/equities/600519.SH/technical-indicators/ma?${q}&from=${date}&to=${date}`)).body.data;
    const places = (bar.close.split('.')[1] ?? '').length;
    expect(['ma5', 'ma60'].map((k) => shown[`ma.${k}`])).toEqual([ma.values.ma5, ma.values.ma60]);
    const maText = await legend();
    expect(['ma5', 'ma60'].map((k) => maText[`ma.${k}`])).toEqual([round(ma.values.ma5, places), round(ma.values.ma60, places)]);
    // Each key in the colour of its line (a style the page sets through the CSSOM, as its policy allows).
    const colours = await page.$$eval('#legend [data-indicator="macd"] .field .k', (els) => els.map((e) => getComputedStyle(e).color));
    expect(colours).toEqual(['rgb(227, 157, 0)', 'rgb(31, 111, 209)', 'rgb(194, 54, 154)']);
    // Volume in 手 and amount in 万/亿 as shown, from the same exact values; turnover from the float shares in force.
    const text = await legend();
    expect(text.volume).toBe(volumeText(bar.volume));
    expect(text.amount).toBe(moneyText(bar.amount));
    const capital = (await get(h, `${B}/equities/600519.SH/share-capital`)).body.data.filter((c: any) => c.change_date <= date);
    expect(text.turnover).toBe(turnoverRate(bar.volume, capital[capital.length - 1].float_shares));

    // The requests panel (opened) names the exact requests, as curl lines.
    await page.click('#requests summary');
    await page.waitForSelector('#requests code.curl');
    const lines = await page.$$eval('#requests code.curl', (els) => els.map((e) => e.textContent));
    expect(lines).toContain(`curl -g -H "X-API-Key: $MDS_KEY" '${base}${B}/equities/600519.SH/bars?${q}&order=desc&page[size]=320'`);
    expect(lines.some((l) => l!.includes('/technical-indicators/macd?interval=1w&adjustment=forward&from='))).toBe(true);
    await page.click('#requests summary');

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
      Object.fromEntries(tds.map((td) => [td.getAttribute('data-column'), td.getAttribute('data-value')])),
    );
    // Every field as the API wrote it (null as a dash), the instrument named once by the page.
    const { instrument_id: _, ...fields } = valuation;
    expect(cells).toEqual(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === null ? '—' : String(v)])));
    expect(Object.values(cells).filter((v) => v !== '—').length).toBeGreaterThan(5);
    const income = (await get(h, `${B}/equities/600519.SH/income-statements?order=desc&page[size]=1`)).body.data[0];
    // Read as a user reads them: Chinese headers, 亿 in the cell, the exact value in its tooltip.
    const revenue = page.locator('[data-section="income"] tr[data-field="revenue"] td').first();
    expect([await page.textContent('[data-section="income"] tr[data-field="revenue"] th'), await revenue.getAttribute('title')]).toEqual([
      '营业收入',
      income.revenue,
    ]);
    expect(await revenue.textContent()).toBe(wanYi(income.revenue));
    expect(await revenue.getAttribute('class')).toBe('num');
    // Sortable tables: a click on 收盘 sorts the valuations by close, descending.
    await page.click('[data-section="valuations"] th[data-column="close"]');
    const closes = await page.$$eval('[data-section="valuations"] td[data-column="close"]', (tds) =>
      tds.map((td) => Number(td.textContent)),
    );
    expect(closes).toEqual(closes.slice().sort((a, b) => b - a));
  }, 60_000);

  it('answers the keyboard: arrows step the legend bar by bar, ↑ ↓ zoom, Home/End, 键盘精灵, PageDown over the results, F5, F10, Esc', async () => {
    await page.goto(`${base}/explorer#/chart/600519.SH?interval=1d&adjustment=none`);
    await chartDone({ instrument: '600519.SH', interval: '1d' });
    // The mouse off the chart: the legend shows the latest bar, and then the one the keys step to.
    await page.mouse.move(1, 1);
    const latest = (await get(h, `${B}/equities/600519.SH/bars?interval=1d&order=desc&page[size]=4`)).body.data;
    expect((await legend()).time).toBe(latest[0].trade_date);
    for (const n of [1, 2, 3]) {
      await page.keyboard.press('ArrowLeft');
      expect((await legend()).time).toBe(latest[n].trade_date);
    }
    await page.keyboard.press('ArrowRight');
    expect((await legend(true)).close).toBe(latest[2].close);
    // Home: the first bar loaded (the view then loads older bars, as on scrolling left; the legend stays on that bar).
    const first = await page.getAttribute('#chart', 'data-first');
    await page.keyboard.press('Home');
    expect((await legend()).time).toBe(first);
    await chartDone();
    expect((await legend()).time).toBe(first);
    await page.keyboard.press('End');
    expect((await legend()).time).toBe(latest[0].trade_date);
    // ↑ zooms in (fewer bars on screen, the crosshair's bar kept), ↓ out again.
    const span = async () => Number(await page.getAttribute('#chart', 'data-span'));
    const before = await span();
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((n) => Number(document.querySelector('#chart')?.getAttribute('data-span')) < n, before);
    const zoomed = await span();
    expect(zoomed).toBeLessThanOrEqual(Math.ceil(before * 0.7) + 1);
    expect((await legend()).time).toBe(latest[0].trade_date);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((n) => Number(document.querySelector('#chart')?.getAttribute('data-span')) > n, zoomed);
    expect(await span()).toBeGreaterThan(zoomed);

    // A digit typed anywhere opens the search with it; Enter opens the first hit; PageDown the next hit.
    const hits = (await get(h, `${B}/instruments?q=60&page[size]=10`)).body.data.map((i: { id: string }) => i.id);
    expect(hits.length).toBeGreaterThan(2);
    await page.keyboard.type('60');
    expect(await page.inputValue('#search')).toBe('60');
    await page.keyboard.press('Enter');
    await chartDone({ instrument: hits[0] });
    await page.keyboard.press('PageDown');
    await chartDone({ instrument: hits[1] });
    await page.keyboard.press('PageUp');
    await chartDone({ instrument: hits[0] });
    // Pressed again before the next chart has loaded: each press steps on from the last.
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await chartDone({ instrument: hits[2] });
    await page.keyboard.press('PageUp');
    await page.keyboard.press('PageUp');
    await chartDone({ instrument: hits[0] });
    // F5: 分时 and back; F10: fundamentals; Esc: back to where it came from.
    await page.keyboard.press('F5');
    await page.waitForSelector(`#minute[data-state="complete"][data-instrument="${hits[0]}"]`);
    await page.keyboard.press('F5');
    await chartDone({ instrument: hits[0] });
    await page.keyboard.press('F10');
    await page.waitForSelector('#fundamentals[data-state="complete"]');
    await page.keyboard.press('Escape');
    await chartDone({ instrument: hits[0] });
  }, 60_000);

  it('draws 分时: the minute line equal to the API, the average line the running amount over volume, the previous close as zero', async () => {
    await page.goto(`${base}/explorer#/minute/600519.SH`);
    await page.waitForSelector('#minute[data-state="complete"]');
    await page.mouse.move(1, 1);
    const day = (await page.getAttribute('#minute', 'data-date'))!;
    const minutes = await walk(h, `${B}/equities/600519.SH/bars?interval=1m&date=${day}`, 1000);
    expect(minutes.length).toBeGreaterThan(200);
    const limit = (await get(h, `${B}/equities/600519.SH/price-limits?date=${day}`)).body.data[0];
    expect(await page.getAttribute('#minute', 'data-pre-close')).toBe(limit.pre_close);
    expect(Number(await page.getAttribute('#minute', 'data-bars'))).toBe(minutes.length);
    const average = (n: number) =>
      divide(
        sum(minutes.slice(0, n + 1).map((m: any) => m.amount)),
        String(minutes.slice(0, n + 1).reduce((v: number, m: any) => v + m.volume, 0)),
        2,
      );
    for (const [steps, n] of [
      [0, minutes.length - 1],
      [30, minutes.length - 31],
    ]) {
      for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowLeft');
      const shown = await legend(true);
      expect(shown).toMatchObject({
        time: `${day} ${minutes[n].timestamp.slice(11, 16)}`,
        price: minutes[n].close,
        average: average(n),
        change: subtract(minutes[n].close, limit.pre_close),
        volume: String(minutes[n].volume),
      });
    }
    const stats = await screenshotStats(page, 'mds-explorer-minute');
    expect(stats.colours).toBeGreaterThan(20);
    // Five days: the five latest days with minute bars, ending on the same day.
    await page.click('#days-5');
    await page.waitForSelector('#minute[data-state="complete"][data-days="5"]');
    const days = new Set(
      (await walk(h, `${B}/equities/600519.SH/bars?interval=1m&to=${day}&order=desc`, 1000, 2)).map((m: any) => m.trade_date),
    );
    const five = [...days].sort().slice(-5);
    expect(await page.getAttribute('#minute', 'data-days-shown')).toBe(five.join(','));
    // Each minute's change against its own day's previous close, as on one day (not the first day's).
    await page.mouse.move(1, 1);
    expect(await legend(true)).toMatchObject({
      time: `${day} ${minutes[minutes.length - 1].timestamp.slice(11, 16)}`,
      change: subtract(minutes[minutes.length - 1].close, limit.pre_close),
    });
    // An intraday bar chart on a chosen day: its last bar is that day's.
    await page.goto(`${base}/explorer#/chart/600519.SH?interval=5m&date=${five[0]}`);
    await chartDone({ interval: '5m' });
    expect((await legend()).time).toBe(`${five[0]} 15:00`);
  }, 60_000);

  it('overlays an index in percent, and keeps a watchlist with its market-day columns', async () => {
    await page.goto(`${base}/explorer#/chart/600519.SH?interval=1d&adjustment=none&indicators=ma&overlay=000300.SH`);
    // (The previous view was 600519.SH's too: wait for this one's overlay.)
    await page.waitForSelector('#chart[data-state="complete"][data-interval="1d"]');
    await page.waitForSelector('#legend [data-field="overlay.close"]');
    await page.mouse.move(1, 1);
    const [index] = (await get(h, `${B}/indices/000300.SH/bars?interval=1d&order=desc&page[size]=1`)).body.data;
    expect((await legend())['overlay.close']).toBe(index.close);
    await page.click('#watch');
    expect(await page.textContent('#watch')).toBe('★ 已自选');
    await page.click('#nav-watchlist');
    await page.waitForSelector('#watchlist[data-state="complete"]');
    const [bar, prev] = (await get(h, `${B}/equities/600519.SH/bars?interval=1d&order=desc&page[size]=2`)).body.data;
    const row = await page.$$eval('#watchlist-table tbody tr:first-child td[data-column]', (tds) =>
      Object.fromEntries(tds.map((td) => [td.getAttribute('data-column'), td.getAttribute('data-value')])),
    );
    expect(row).toMatchObject({
      instrument_id: '600519.SH',
      close: bar.close,
      change: subtract(bar.close, prev.close),
      volume: String(bar.volume),
      amount: bar.amount,
    });
  }, 60_000);

  it("draws the market's mood: the day's distribution of changes counts every equity that traded", async () => {
    await page.goto(`${base}/explorer#/market`);
    await page.waitForSelector('#market-day[data-state="complete"]');
    const day = await page.inputValue('#market-date');
    let traded = 0;
    for (const m of ['BJ', 'SH', 'SZ'])
      traded += (await walk(h, `${B}/markets/${m}/bars?date=${day}&kind=equity`, 1000)).filter((b: any) => b.pct_change !== null).length;
    const counts = await page.$$eval('#distribution .bar', (bars) => bars.map((b) => Number(b.getAttribute('data-count'))));
    expect(counts.length).toBe(13);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(traded);
    // Breadth's limit_up and limit_down are counts of equities, headed as counts (not 涨停价, a price).
    expect(await page.$$eval('#breadth th[data-column^="limit_"]', (ths) => ths.map((th) => th.textContent))).toEqual(['涨停', '跌停']);
    // The limit-up pool's first-limit times in market time.
    const pool = (await get(h, `${B}/equities/pools/limit_up?date=${day}`)).body.data;
    const times = await page.$$eval('#pool-table-limit_up td[data-column="first_limit_time"]', (tds) => tds.map((td) => td.textContent));
    expect(times).toEqual(pool.map((r: any) => (r.first_limit_time ? r.first_limit_time.slice(11, 19) : '—')));
    await page.waitForSelector('#breadth-chart[data-streaks]');
  }, 60_000);

  it('follows prefers-color-scheme: dark, and keeps the toggle', async () => {
    const context = await keyedContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const dark = await context.newPage();
    await dark.goto(`${base}/explorer#/chart/600519.SH`);
    await dark.waitForSelector('#chart[data-state="complete"]');
    const look = () => dark.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]);
    expect(await look()).toEqual(['dark', 'rgb(0, 0, 0)']);
    await dark.click('#theme');
    expect(await look()).toEqual(['light', 'rgb(246, 247, 249)']);
    await dark.reload();
    await dark.waitForSelector('#chart[data-state="complete"]');
    expect((await look())[0]).toBe('light');
    await context.close();
  }, 60_000);

  it('fits a phone: no horizontal scroll at 390 and 360 px, the legend above the chart', async () => {
    const context = await keyedContext({ viewport: { width: 390, height: 844 } });
    const phone = await context.newPage();
    for (const width of [390, 360]) {
      await phone.setViewportSize({ width, height: 844 });
      for (const view of ['#/chart/600519.SH', '#/minute/600519.SH', '#/market', '#/fundamentals/600519.SH', '#/watchlist']) {
        await phone.goto(`${base}/explorer${view}`);
        await phone.waitForSelector('[data-state="complete"]');
        expect(await phone.evaluate(() => document.documentElement.scrollWidth), `${view} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
    await phone.goto(`${base}/explorer#/chart/600519.SH`);
    await phone.waitForSelector('#chart[data-state="complete"]');
    const [legendBox, chartBox] = [await phone.locator('#legend').boundingBox(), await phone.locator('#chart').boundingBox()];
    expect(legendBox!.y + legendBox!.height).toBeLessThanOrEqual(chartBox!.y + 1);
    await context.close();
  }, 60_000);

  it('says what is wrong with a hostile or mistyped URL, as text', async () => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await page.goto(`${base}/explorer#/chart/%3Cimg%20src=x%20onerror=alert(1)%3E`);
    await page.waitForSelector('#not-found');
    expect(await page.textContent('#not-found')).toContain('本库没有 <img src=x onerror=alert(1)>');
    await page.goto(`${base}/explorer#/chart/${'X'.repeat(300)}`);
    await page.waitForSelector('#not-found');
    await page.goto(`${base}/explorer#/market/9999-99-99`);
    await page.waitForSelector('#market-day .error');
    expect(await page.textContent('#market-day .error')).toBe('9999-99-99 is not a date (YYYY-MM-DD).');
    expect(dialogs).toBe(0);
  });

  it("asks for a chart's instrument and first bars once, from the early script, and the chart uses those answers", async () => {
    const context = await keyedContext({ viewport: { width: 1280, height: 800 } });
    for (const [id, path] of [
      ['000001.SZ', 'equities'],
      ['000300.SH', 'indices'],
    ]) {
      // A page each: a new document, its early script run again.
      const fresh = await context.newPage();
      const asked: string[] = [];
      fresh.on('request', (r) => asked.push(new URL(r.url()).pathname + new URL(r.url()).search));
      await fresh.goto(`${base}/explorer#/chart/${id}?interval=1w&adjustment=forward&indicators=macd`);
      await fresh.waitForSelector(`#chart[data-state="complete"][data-instrument="${id}"]`);
      const search = `${B}/instruments?q=${id}&page[size]=1`;
      const bars = `${B}/${path}/${id}/bars?interval=1w&adjustment=forward&order=desc&page[size]=320`;
      // Both asked by the early script, before the main script could; the main script asked for neither again.
      expect([asked.filter((u) => u === search).length, asked.filter((u) => u === bars).length], id).toEqual([1, 1]);
      // Asked before the main script ran (the early script runs in the page's head, the main one deferred).
      const [asking, mainStarted] = await fresh.evaluate(
        (urls) => [
          Math.max(...urls.map((u) => window.performance.getEntriesByName(window.location.origin + u)[0].startTime)),
          window.performance.getEntriesByName('mds-main')[0].startTime,
        ],
        [search, bars],
      );
      expect(asking, id).toBeLessThan(mainStarted);
      // The chart is of those bars, and the requests panel lists them.
      const [last] = (await get(h, bars)).body.data;
      await fresh.mouse.move(1, 1);
      expect(await fresh.getAttribute('#chart', 'data-bars'), id).toBe(String((await get(h, bars)).body.data.length));
      expect(await fresh.textContent('#legend [data-field="time"]'), id).toBe(last.trade_date);
      await fresh.click('#requests summary');
      await fresh.waitForSelector('#requests code.curl');
      const lines = await fresh.$$eval('#requests code.curl', (els) => els.map((e) => e.textContent));
      expect(lines.filter((l) => l!.endsWith(`${base}${bars}'`)).length, id).toBe(1);
      await fresh.click('#requests summary');
    }
    await context.close();
  }, 60_000);

  it('loaded everything from its own origin, with no script error, nothing refused by its Content-Security-Policy', () => {
    expect([...origins]).toEqual([base]);
    expect(pageErrors).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('runs under its Content-Security-Policy: a script injected into the page does not run', async () => {
    const response = await page.goto(`${base}/explorer`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await chartDone();
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.appendChild(s);
      return window.injected === true;
    });
    expect(ran).toBe(false);
    expect(refused.join('\n')).toContain('inline script');
  });
});
