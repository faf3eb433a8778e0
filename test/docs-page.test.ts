/**
 * The docs page in a real browser (Debian's Chromium driven by playwright-core): its title, the
 * recorded examples and response descriptions, and "Try it out" with the key entered under
 * "Authorize" answering a real page of bars. The screenshot is checked too: a page that renders
 * nothing (a blank or single-colour image) fails. Skipped, saying why, where /usr/bin/chromium is
 * absent (`.ci/run` installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, screenshotStats } from './browser.js';
import { harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';

if (!HAVE_CHROMIUM) console.warn(`docs-page.test: ${CHROMIUM} is absent (apt-get install chromium); skipping the browser test`);

describe.skipIf(!HAVE_CHROMIUM)('the docs page in Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    h = await harness(await STORES[0].url(), SMALL_DEMO);
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('shows the examples and answers "Try it out" with the key, under a Content-Security-Policy that refuses nothing it needs', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    const response = await page.goto(`${base}/docs`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect([headers['x-content-type-options'], headers['referrer-policy'], headers['x-frame-options']]).toEqual([
      'nosniff',
      'no-referrer',
      'DENY',
    ]);
    expect(await page.title()).toBe('market-data-service API');
    await page.waitForSelector('#operations-equities-listEquityBars');

    // Authorize with the key: "Try it out" sends it as X-API-Key.
    await page.click('.auth-wrapper .authorize');
    await page.fill('.auth-container input[type=text], .auth-container input:not([type])', h.key);
    await page.click('.auth-btn-wrapper .authorize');
    await page.click('.auth-btn-wrapper .btn-done');

    await page.click('#operations-equities-listEquityBars .opblock-summary');
    const op = page.locator('#operations-equities-listEquityBars');
    // Response descriptions and examples recorded from the demo, not "Default Response".
    await op.locator('tr.response[data-code="400"]').waitFor();
    const table = await op.locator('.responses-wrapper').innerText();
    expect(table).not.toContain('Default Response');
    expect(table).toContain('Bad request: a parameter is malformed');
    expect(await op.locator('tr.response[data-code="400"]').innerText()).toContain('invalid_parameter');
    expect(await op.locator('tr.response[data-code="401"]').innerText()).toContain('missing_api_key');
    expect(await op.locator('tr.response[data-code="200"]').innerText()).toContain('"instrument_id": "600519.SH"');

    await op.locator('.try-out__btn').click();
    // The fields are pre-filled with the recorded example values.
    expect(await op.locator('input[placeholder="instrument_id"]').inputValue()).toBe('600519.SH');
    expect(await op.locator('input[placeholder="from"]').inputValue()).toBe('2026-11-02');
    // The small demo of the suite ends in 2025: ask for its days.
    await op.locator('input[placeholder="from"]').fill('2025-11-03');
    await op.locator('input[placeholder="page[size]"]').fill('2');
    await op.locator('.execute').click();
    const live = op.locator('.live-responses-table tbody .response-col_status').first();
    await live.waitFor();
    expect((await live.innerText()).trim()).toBe('200');
    const body = await op.locator('.live-responses-table tbody .response-col_description .highlight-code pre').first().innerText();
    const answer = JSON.parse(body);
    expect(answer.data).toHaveLength(2);
    expect(answer.data.map((b: { instrument_id: string; trade_date: string }) => [b.instrument_id, b.trade_date])).toEqual([
      ['600519.SH', '2025-11-03'],
      ['600519.SH', '2025-11-04'],
    ]);

    // The screenshot shows a rendered page: many colours, mostly not background.
    const stats = await screenshotStats(page, 'mds-docs-page');
    expect(stats.width).toBe(1280);
    expect(stats.height).toBe(900);
    expect(stats.colours).toBeGreaterThan(50);
    expect(stats.ink).toBeGreaterThan(0.03);
    expect(refused).toEqual([]);
    // The policy holds: a script injected into the page does not run.
    const ran = await page.evaluate(() => {
      const { document, window } = globalThis as any;
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.appendChild(s);
      return window.injected === true;
    });
    expect(ran).toBe(false);
  }, 120_000);
});
