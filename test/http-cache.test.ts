import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { get, harness, type Harness } from './helpers.js';

describe('HTTP caching and compression', () => {
  let h: Harness;
  let eq: string;
  beforeAll(async () => {
    h = await harness(':memory:');
    eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
  });
  afterAll(async () => { await h?.close(); });

  it('answers If-None-Match with 304 on a strong ETag', async () => {
    const path = `/api/v1/equities/${eq}/bars?interval=1d&to=2025-06-30`;
    const r = await get(h, path);
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const again = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': r.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
    const other = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': '"nope"' } });
    expect(other.statusCode).toBe(200);
    expect(other.payload).toBe(r.payload);
  });

  it('lets closed periods be cached and revalidates open ones', async () => {
    const closed = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&to=2025-06-30`);
    expect(closed.headers['cache-control']).toBe('public, max-age=3600');
    expect(closed.headers.vary).toContain('X-API-Key');
    const open = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&from=2025-06-30`);
    expect(open.headers['cache-control']).toBe('private, no-cache');
    expect((await get(h, '/api/v1/system/health', {})).headers['cache-control']).toBe('no-store');
  });

  it('negotiates gzip and brotli for large responses, with the coding in the ETag', async () => {
    const path = `/api/v1/equities/${eq}/bars?interval=1d&page[size]=500`;
    const plain = await h.app.inject({ url: path, headers: { 'x-api-key': h.key } });
    const gz = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'accept-encoding': 'gzip' } });
    const br = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'accept-encoding': 'br, gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.payload);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.payload);
    expect(gz.headers.etag).toBe((plain.headers.etag as string).replace(/"$/, '-gz"'));
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const revalidate = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag as string } });
    expect(revalidate.statusCode).toBe(304);
    const small = await h.app.inject({ url: '/api/v1/markets/SH', headers: { 'x-api-key': h.key, 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('rate limiting', () => {
  it('answers 429 rate_limited with Retry-After once a key exceeds RATE_LIMIT', async () => {
    const { buildApp } = await import('../src/app.js');
    const { loadConfig } = await import('../src/config.js');
    const h = await harness(':memory:', { seed: 3, equities: 20, start: 20250701, end: 20251120, minuteDays: 1, tickDays: 1 });
    const app = await buildApp({ config: { ...loadConfig({}), rateLimit: 5 }, store: h.store });
    const codes: number[] = [];
    for (let i = 0; i < 15; i++) codes.push((await app.inject({ url: '/api/v1/markets', headers: { 'x-api-key': h.key } })).statusCode);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(10);
    const limited = await app.inject({ url: '/api/v1/markets', headers: { 'x-api-key': h.key } });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(JSON.parse(limited.payload).errors[0].code).toBe('rate_limited');
    await app.close();
    await h.close();
  });
});
