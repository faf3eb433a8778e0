import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app/app.js';
import { loadConfig, type Config } from '../src/app/config.js';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { KeyStore } from '../src/auth/keys.js';
import type { App } from '../src/http/services.js';
import { serve, type Served } from './serve-helpers.js';
import { mds } from './ingest-helpers.js';

/** A store with no data but API keys: rate limits do not depend on data. */
async function emptyStore(): Promise<Store> {
  const store = openStore(':memory:');
  await migrate(store);
  return store;
}

const HOUR = 3600;
const rateHeaders = (h: Record<string, unknown>) => ({
  limit: h['ratelimit-limit'],
  remaining: h['ratelimit-remaining'],
  reset: h['ratelimit-reset'],
  retryAfter: h['retry-after'],
});

describe('rate limits in one process', () => {
  let store: Store;
  let keys: KeyStore;
  const apps: App[] = [];
  const app = async (over: Partial<Config>, logger?: object) => {
    const a = await buildApp({ config: { ...loadConfig({}), ...over }, store, ...(logger ? { logger } : {}) });
    apps.push(a);
    return a;
  };
  // The window's clock stands still: RateLimit-Reset is the whole window on every response.
  beforeAll(async () => {
    store = await emptyStore();
    keys = new KeyStore(store.db);
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await store.close();
  });

  it('sends RateLimit-* on every response of a limited key and 429 rate_limited with Retry-After past the limit', async () => {
    const { key } = await keys.create('limited');
    const a = await app({ rateLimit: 3, rateLimitWindowS: HOUR });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': key } }));
    expect(seen.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(seen.slice(0, 3).map((r) => rateHeaders(r.headers))).toEqual([
      { limit: '3', remaining: '2', reset: '3600', retryAfter: undefined },
      { limit: '3', remaining: '1', reset: '3600', retryAfter: undefined },
      { limit: '3', remaining: '0', reset: '3600', retryAfter: undefined },
    ]);
    const limited = seen[3];
    expect(rateHeaders(limited.headers)).toEqual({ limit: '3', remaining: '0', reset: '3600', retryAfter: '3600' });
    expect(limited.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(limited.payload)).toEqual({
      errors: [
        {
          status: '429',
          code: 'rate_limited',
          title: 'Rate limited',
          detail: 'More than 3 requests in 3600 s for this key; retry in 3600 s.',
        },
      ],
      meta: { request_id: limited.headers['x-request-id'] },
    });
    // A 304 and a 404 are counted and carry the headers too; the system operations are not limited.
    const other = await keys.create('other');
    const first = await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': other.key } });
    const again = await a.inject({
      url: '/api/v1/markets',
      headers: { 'x-api-key': other.key, 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(rateHeaders(again.headers)).toEqual({ limit: '3', remaining: '1', reset: '3600', retryAfter: undefined });
    const missing = await a.inject({ url: '/api/v1/markets/XX', headers: { 'x-api-key': other.key } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['ratelimit-remaining']).toBe('0');
    const health = await a.inject({ url: '/api/v1/system/health' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['ratelimit-limit']).toBeUndefined();
  });

  it("applies a key's own limit (mds keys create --rate N) over RATE_LIMIT; --rate 0 is unlimited", async () => {
    const two = await keys.create('two', { rateLimit: 2 });
    const free = await keys.create('free', { rateLimit: 0 });
    const a = await app({ rateLimit: 1, rateLimitWindowS: HOUR });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': two.key } })).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    for (let i = 0; i < 5; i++) {
      const r = await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': free.key } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['ratelimit-limit']).toBeUndefined();
    }
    // Without RATE_LIMIT only keys with their own limit are limited.
    const b = await app({ rateLimit: 0, rateLimitAnon: 0, rateLimitWindowS: HOUR });
    expect(rateHeaders((await b.inject({ url: '/api/v1/markets', headers: { 'x-api-key': two.key } })).headers)).toEqual({
      limit: '2',
      remaining: '1',
      reset: '3600',
      retryAfter: undefined,
    });
    expect((await b.inject({ url: '/api/v1/markets', headers: { 'x-api-key': free.key } })).headers['ratelimit-limit']).toBeUndefined();
  });

  it('limits requests without a valid key per client address (RATE_LIMIT_ANON), apart from valid keys', async () => {
    const { key } = await keys.create('valid');
    const a = await app({ rateLimit: 10, rateLimitAnon: 2, rateLimitWindowS: HOUR });
    const bad = [`mds_AAAAAAAA_${'x'.repeat(32)}`, undefined, 'nonsense'];
    const seen = [];
    for (const k of bad) seen.push(await a.inject({ url: '/api/v1/markets', headers: k ? { 'x-api-key': k } : {} }));
    expect(seen.map((r) => [r.statusCode, JSON.parse(r.payload).errors[0].code])).toEqual([
      [401, 'invalid_api_key'],
      [401, 'missing_api_key'],
      [429, 'rate_limited'],
    ]);
    expect(seen.map((r) => rateHeaders(r.headers))).toEqual([
      { limit: '2', remaining: '1', reset: '3600', retryAfter: undefined },
      { limit: '2', remaining: '0', reset: '3600', retryAfter: undefined },
      { limit: '2', remaining: '0', reset: '3600', retryAfter: '3600' },
    ]);
    expect(JSON.parse(seen[2].payload).errors[0].detail).toBe(
      'More than 2 requests in 3600 s without a valid API key from this address; retry in 3600 s.',
    );
    // Another address has its own count; a valid key from the flooding address is not refused.
    expect((await a.inject({ url: '/api/v1/markets', remoteAddress: '10.1.2.3' })).statusCode).toBe(401);
    const ok = await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': key } });
    expect([ok.statusCode, ok.headers['ratelimit-limit'], ok.headers['ratelimit-remaining']]).toEqual([200, '10', '9']);
    // Requests refused before routing count as well (another method on a protected path).
    const post = await a.inject({ method: 'POST', url: '/api/v1/markets' });
    expect([post.statusCode, JSON.parse(post.payload).errors[0].code, post.headers['retry-after']]).toEqual([429, 'rate_limited', '3600']);
  });

  it('documents 429 and the RateLimit-* headers of protected operations in OpenAPI', async () => {
    const doc = JSON.parse((await (await app({})).inject({ url: '/openapi.json' })).payload);
    const bars = doc.paths['/api/v1/equities/{instrument_id}/bars'].get;
    expect(bars.responses['429'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    expect(Object.keys(bars.responses['429'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    expect(bars.responses['200'].headers['RateLimit-Remaining']).toEqual({ $ref: '#/components/headers/RateLimit-Remaining' });
    expect(doc.components.headers['Retry-After'].schema).toEqual({ type: 'integer', minimum: 1 });
    const health = doc.paths['/api/v1/system/health'].get;
    expect(health.responses['429']).toBeUndefined();
    expect(health.responses['200'].headers).toBeUndefined();
  });

  it('sends no rate-limit header and counts nothing by default', async () => {
    const { key } = await keys.create('default');
    const a = await app({});
    for (let i = 0; i < 3; i++) {
      const r = await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': key } });
      expect(r.statusCode).toBe(200);
      expect(Object.keys(r.headers).filter((h) => h.startsWith('ratelimit') || h === 'retry-after')).toEqual([]);
    }
    const anon = await a.inject({ url: '/api/v1/markets' });
    expect(anon.statusCode).toBe(401);
    expect(anon.headers['ratelimit-limit']).toBeUndefined();
  });

  it('lets requests through with a logged warning when Redis does not answer', async () => {
    const { key } = await keys.create('redis-down');
    const lines: any[] = [];
    const a = await app(
      { rateLimit: 1, rateLimitWindowS: HOUR, redisUrl: 'redis://127.0.0.1:1' },
      { level: 'warn', stream: { write: (l: string) => lines.push(JSON.parse(l)) } },
    );
    for (let i = 0; i < 3; i++) {
      const r = await a.inject({ url: '/api/v1/markets', headers: { 'x-api-key': key } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['ratelimit-limit']).toBeUndefined();
    }
    const warnings = lines.filter((l) => l.msg.startsWith('rate limits:'));
    expect(warnings.map((l) => [l.level, l.msg])).toEqual([
      [40, 'rate limits: Redis is not answering; requests are let through unlimited until it is back'],
    ]);
  });
});

/** Whether the Redis of this machine answers (the shared-limit test needs it). */
async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HAVE_REDIS = await redisAnswers(REDIS_URL);
if (!HAVE_REDIS) console.warn(`no Redis at ${REDIS_URL}: the shared rate-limit test is skipped (set TEST_REDIS_URL)`);

describe.skipIf(!HAVE_REDIS)('rate limits shared through Redis by two server processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-rl-'));
  const file = join(dir, 'store.sqlite');
  const prefix = `mds-test-${randomBytes(6).toString('hex')}:`;
  const servers: Served[] = [];
  let key = '';
  let redis: Redis;
  beforeAll(async () => {
    // The key's own limit, set by the CLI, is the one counted (RATE_LIMIT is higher).
    const created = await mds(file, 'keys', 'create', '--name', 'shared', '--rate', '4');
    expect(created.code, created.stderr).toBe(0);
    key = created.stdout.trim();
    redis = new Redis(REDIS_URL);
    const env = {
      DATABASE_URL: file,
      RATE_LIMIT: '100',
      RATE_LIMIT_ANON: '2',
      RATE_LIMIT_WINDOW: String(HOUR),
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
    };
    servers.push(...(await Promise.all([serve(env), serve(env)])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    const left = await redis.keys(`${prefix}*`);
    if (left.length) await redis.del(...left);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts the requests of one key and of one address across both servers', async () => {
    const got = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${servers[i % 2].base}/api/v1/markets`, {
        headers: { 'x-api-key': key },
        signal: AbortSignal.timeout(8000),
      });
      const body = (await res.json()) as { errors?: { code: string }[] };
      got.push([res.status, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining'), body.errors?.[0].code ?? null]);
    }
    expect(got).toEqual([
      [200, '4', '3', null],
      [200, '4', '2', null],
      [200, '4', '1', null],
      [200, '4', '0', null],
      [429, '4', '0', 'rate_limited'],
      [429, '4', '0', 'rate_limited'],
    ]);
    // The counter is one Redis key under the prefix, a window long.
    const counters = await redis.keys(`${prefix}*`);
    expect(counters).toHaveLength(1);
    expect(await redis.get(counters[0])).toBe('6');
    const anon = [];
    for (let i = 0; i < 3; i++)
      anon.push((await fetch(`${servers[i % 2].base}/api/v1/markets`, { signal: AbortSignal.timeout(8000) })).status);
    expect(anon).toEqual([401, 401, 429]);
  });
});
