import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get, harness, STORES, type Harness } from './helpers.js';
import { ingest } from '../src/ingest/load.js';
import { DATASETS } from '../src/datasets/registry.js';
import { StoreUnavailable } from '../src/store/health.js';
import { MarketDataReader } from '../src/store/readers/market-data.js';
import { Snapshot } from '../src/query/snapshot.js';

describe.each(STORES)('HTTP caching and compression on $name', ({ url }) => {
  let h: Harness;
  let eq: string;
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers If-None-Match with 304 on a strong ETag', async () => {
    const path = `/api/v1/equities/${eq}/bars?interval=1d&to=2025-06-30`;
    const r = await get(h, path);
    // The data version, then 128 bits of the hash.
    expect(r.headers.etag).toMatch(new RegExp(`^"${r.headers['data-version']}\\.[A-Za-z0-9_-]{22}"$`));
    const again = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': r.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
    const other = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': '"nope"' } });
    expect(other.statusCode).toBe(200);
    expect(other.payload).toBe(r.payload);
  });

  it('answers a matching If-None-Match before reading the store, and only for a valid key', async () => {
    const path = `/api/v1/equities/${eq}/bars?interval=1d&from=2025-03-03&page[size]=20`;
    const r = await get(h, path);
    const tag = r.headers.etag as string;
    // Unadjusted daily bars are read as pages of packs (MarketDataReader.dailyPage), by each request's reader.
    const reads = vi.spyOn(MarketDataReader.prototype, 'dailyPage');
    try {
      const again = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': `W/"x", ${tag}` } });
      expect(again.statusCode).toBe(304);
      expect(again.headers.etag).toBe(tag);
      expect(again.headers['cache-control']).toBe('private, no-cache');
      expect(reads).not.toHaveBeenCalled();
      const noKey = await h.app.inject({ url: path, headers: { 'if-none-match': tag } });
      expect(noKey.statusCode).toBe(401);
      // Another target never matches: the tag names the query, not only the data.
      const other = await h.app.inject({ url: path.replace('20', '21'), headers: { 'x-api-key': h.key, 'if-none-match': tag } });
      expect(other.statusCode).toBe(200);
      expect(other.headers.etag).not.toBe(tag);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('answers a read that failed for want of the store 503 after one more try on a new snapshot, and gives both back', async () => {
    const page = vi.spyOn(MarketDataReader.prototype, 'dailyPage').mockRejectedValue(new StoreUnavailable('test: no answer'));
    const release = vi.spyOn(Snapshot.prototype, 'release');
    try {
      // More requests than a SQLite store has snapshot connections (16): none is kept by a failed one.
      for (let i = 0; i < 20; i++) {
        const r = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&page[size]=3`);
        expect(r.status).toBe(503);
        expect(r.body.errors[0].code).toBe('not_ready');
      }
      // Once more each (a connection that died under a request: a new snapshot may answer), then 503.
      expect(page).toHaveBeenCalledTimes(40);
      expect(release.mock.calls.length).toBeGreaterThanOrEqual(40);
    } finally {
      page.mockRestore();
      release.mockRestore();
    }
    expect((await get(h, `/api/v1/equities/${eq}/bars?interval=1d&page[size]=3`)).body.data).toHaveLength(3);
  });

  it('answers again on a new snapshot a request whose connection died under it, but not one that timed out', async () => {
    const path = `/api/v1/equities/${eq}/bars?interval=1d&page[size]=3`;
    const expected = (await get(h, path)).body.data;
    const died = vi
      .spyOn(MarketDataReader.prototype, 'dailyPage')
      .mockRejectedValueOnce(new StoreUnavailable('Connection terminated unexpectedly'));
    try {
      const r = await get(h, path);
      expect([r.status, r.body.data]).toEqual([200, expected]);
      expect(died).toHaveBeenCalledTimes(2);
    } finally {
      died.mockRestore();
    }
    const slow = vi
      .spyOn(MarketDataReader.prototype, 'dailyPage')
      .mockRejectedValueOnce(new StoreUnavailable('statement timeout (canceling statement)'));
    try {
      expect((await get(h, path)).status).toBe(503);
      expect(slow).toHaveBeenCalledTimes(1);
    } finally {
      slow.mockRestore();
    }
  });

  it('changes every data ETag when an ingest changes the data', async () => {
    const path = `/api/v1/equities/${eq}/bars?interval=1d&from=2025-03-03&to=2025-03-07`;
    const before = await get(h, path);
    const b = before.body.data[0];
    const dir = mkdtempSync(join(tmpdir(), 'mds-etag-'));
    writeFileSync(
      join(dir, 'bars_1d.csv'),
      'instrument_id,trade_date,open,high,low,close,volume,amount\n' +
        `${eq},${b.trade_date},${b.open},${b.high},${b.low},${b.close},${b.volume + 100},${b.amount}\n`,
    );
    const res = await ingest(h.store, [{ path: join(dir, 'bars_1d.csv'), dataset: DATASETS.find((d) => d.name === 'bars_1d')! }]);
    expect(res.datasets[0].updated).toBe(1);
    const after = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(after.payload).data[0].volume).toBe(b.volume + 100);
  });

  it('lets closed periods be cached and revalidates open ones', async () => {
    const closed = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&to=2025-06-30`);
    expect(closed.headers['cache-control']).toBe('public, max-age=3600');
    expect(closed.headers.vary).toContain('X-API-Key');
    const open = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&from=2025-06-30`);
    expect(open.headers['cache-control']).toBe('private, no-cache');
    expect((await get(h, '/api/v1/system/health', {})).headers['cache-control']).toBe('no-store');
    // By what each route declares (route-config.ts), not its URL: probes no-store and no snapshot,
    // the OpenAPI document kept five minutes, data operations versioned.
    const readiness = await get(h, '/api/v1/system/readiness', {});
    expect([readiness.headers['cache-control'], readiness.headers['data-version']]).toEqual(['no-store', undefined]);
    const doc = await get(h, '/openapi.json', {});
    expect([doc.headers['cache-control'], doc.headers['data-version']]).toEqual(['public, max-age=300', undefined]);
    expect(Number(open.headers['data-version'])).toBeGreaterThan(1);
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
    const revalidate = await h.app.inject({
      url: path,
      headers: { 'x-api-key': h.key, 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag as string },
    });
    expect(revalidate.statusCode).toBe(304);
    const small = await h.app.inject({ url: '/api/v1/markets/SH', headers: { 'x-api-key': h.key, 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it("compresses a schema-serialised collection by its length in characters, as the string Fastify's serialiser sent", async () => {
    const gzip = (url: string) => h.app.inject({ url, headers: { 'x-api-key': h.key, 'accept-encoding': 'gzip' } });
    // Twelve sectors: Chinese names make them 1055 bytes of UTF-8 in 983 characters (the threshold is 1024).
    const sectors = await get(h, '/api/v1/classifications/sectors?page[size]=12');
    expect([sectors.payload.length, Buffer.byteLength(sectors.payload)]).toEqual([989, 1061]);
    expect((await gzip('/api/v1/classifications/sectors?page[size]=12')).headers['content-encoding']).toBeUndefined();
  });
});
