/**
 * The explorer's files as served (no browser): the page with its early script inline and naming
 * its files by version, those kept a year (immutable) and sent brotli-compressed at build time
 * when accepted, the same bytes either way; another version's name redirected to the current
 * one; the pages' security headers, the inline script allowed by its hash alone.
 */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, STORES, type Harness } from './helpers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe("the explorer's files", () => {
  let h: Harness;
  /** The files the page names, by plain name (`app.js`): their versioned paths. */
  let named: Record<string, string>;
  beforeAll(async () => {
    h = await harness(await STORES[0].url(), null);
    const page = await h.app.inject({ method: 'GET', url: '/explorer' });
    named = Object.fromEntries(
      [...page.payload.matchAll(/(?:src|href)="\/explorer\/((app)\.[\w-]{12}\.(js|css))"/g)].map((m) => [
        `${m[2]}.${m[3]}`,
        `/explorer/${m[1]}`,
      ]),
    );
  }, 60_000);
  afterAll(() => h?.close());
  const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

  it('are public and static, named by their versions, and name only this origin', async () => {
    const page = await get('/explorer');
    expect([page.statusCode, page.headers['content-type'], page.headers['cache-control']]).toEqual([
      200,
      'text/html; charset=utf-8',
      'public, max-age=300',
    ]);
    // The page's own files, each named by its version, and the early script inline before them (it asks for the chart's data while they load).
    const assets = [...page.payload.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.map((a) => a.replace(/\.[\w-]{12}\./, '.V.'))).toEqual(['data:,', '/explorer/app.V.css', '/explorer/app.V.js']);
    const inline = [...page.payload.matchAll(/<script>([^<]+)<\/script>/g)].map((m) => m[1]);
    expect(inline.length).toBe(1);
    expect(inline[0]).toContain('mds.explorer.apiKey');
    expect(page.payload.indexOf(inline[0])).toBeLessThan(page.payload.indexOf(named['app.css']));
    const js = await get(named['app.js']);
    expect([js.statusCode, js.headers['content-type'], js.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      IMMUTABLE,
    ]);
    // The chart library is inside the bundle, and the bundle asks the API of its own origin.
    expect(js.payload).toContain('lightweight-charts');
    expect(js.payload).toContain('/api/v1');
    expect((await get(named['app.js'], { 'if-none-match': String(js.headers.etag) })).statusCode).toBe(304);
    const css = await get(named['app.css']);
    expect([css.statusCode, css.headers['content-type'], css.headers['cache-control']]).toEqual([
      200,
      'text/css; charset=utf-8',
      IMMUTABLE,
    ]);
    expect(css.payload).toContain('.legend');
    // The plain names: the same bytes, kept five minutes (a name that does not change with them).
    for (const [name, path] of Object.entries(named)) {
      const plain = await get(`/explorer/${name}`);
      expect([plain.statusCode, plain.headers['cache-control']], name).toEqual([200, 'public, max-age=300']);
      expect(plain.rawPayload.equals((await get(path)).rawPayload), name).toBe(true);
    }
  });

  it('are sent brotli-compressed when accepted, as they are otherwise: the same bytes once decoded', async () => {
    for (const [name, path] of Object.entries(named)) {
      const plain = await get(path);
      expect([plain.headers['content-encoding'], plain.headers.vary], name).toEqual([undefined, 'Accept, Accept-Encoding, X-API-Key']);
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect([br.statusCode, br.headers['content-encoding'], br.headers['cache-control']], name).toEqual([200, 'br', IMMUTABLE]);
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload), name).toBe(true);
      expect(br.rawPayload.length, name).toBeLessThan(plain.rawPayload.length);
      // Each representation has its own tag; a client holding the brotli one gets a 304 for it.
      expect(br.headers.etag, name).not.toBe(plain.headers.etag);
      const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
      expect([again.statusCode, again.headers['content-encoding']], name).toEqual([304, undefined]);
      // br refused (q=0): identity, or gzip where gzip is accepted.
      const none = await get(path, { 'accept-encoding': 'br;q=0' });
      expect([none.headers['content-encoding'], none.rawPayload.equals(plain.rawPayload)], name).toEqual([undefined, true]);
      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect([gz.headers['content-encoding'], gunzipSync(gz.rawPayload).equals(plain.rawPayload)], name).toEqual(['gzip', true]);
    }
  });

  it("redirect another version's name to the current file, and refuse a name that is none", async () => {
    const old = await get('/explorer/app.AAAAAAAAAAAA.js');
    expect([old.statusCode, old.headers.location, old.headers['cache-control']]).toEqual([302, named['app.js'], 'no-cache']);
    expect((await get('/explorer/app.AAAAAAAAAAAA.css')).headers.location).toBe(named['app.css']);
    for (const url of [
      '/explorer/early.js',
      '/explorer/early.AAAAAAAAAAAA.js',
      '/explorer/other.AAAAAAAAAAAA.js',
      '/explorer/app.short.js',
      '/explorer/main.ts',
    ]) {
      const r = await get(url);
      expect([r.statusCode, r.json().errors[0].code], url).toEqual([404, 'not_found']);
    }
  });

  it('forbid what the page does not need: another origin, any inline script but its own (by hash), framing, sniffing, a referrer (it keeps the key)', async () => {
    const page = await get('/explorer');
    const inline = /<script>([^<]+)<\/script>/.exec(page.payload)![1];
    const csp = Object.fromEntries(
      String(page.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(' ')]),
    );
    expect(csp).toEqual({
      'default-src': "'none'",
      'script-src': `'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'`,
      'style-src': "'self'",
      'img-src': "'self' data:",
      'font-src': "'self'",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    for (const url of ['/explorer', '/explorer/app.js', '/explorer/app.css', ...Object.values(named), '/explorer/app.AAAAAAAAAAAA.js']) {
      const r = await get(url);
      expect([r.headers['x-content-type-options'], r.headers['referrer-policy'], r.headers['x-frame-options']], url).toEqual([
        'nosniff',
        'no-referrer',
        'DENY',
      ]);
    }
  });
});
