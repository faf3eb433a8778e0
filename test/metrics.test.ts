import { afterAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { listenMetrics, Metrics } from '../src/http/plugins/metrics.js';
import { recordIngest } from '../src/store/ingest-totals.js';
import { latestVersion, recordVersion } from '../src/store/versions.js';
import { harness, STORES, TINY_DEMO } from './helpers.js';
import { exited, mds } from './ingest-helpers.js';
import { freePort, serve, type Served } from './serve-helpers.js';

/** The value of the sample `name{labels}` in Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(STORES)('metrics on $name', ({ url }) => {
  it('counts requests by operation and status, 304s, rate limits, store queries, the data version and ingests', async () => {
    const h = await harness(await url(), TINY_DEMO);
    const metrics = new Metrics();
    const app = await buildApp({ config: { ...loadConfig({}), rateLimit: 4, rateLimitWindowS: 3600 }, store: h.store, metrics });
    try {
      const key = { 'x-api-key': h.key };
      const first = await app.inject({ url: '/api/v1/markets', headers: key });
      await app.inject({ url: '/api/v1/markets', headers: { ...key, 'if-none-match': first.headers.etag as string } });
      await app.inject({ url: '/api/v1/markets', headers: { ...key, 'if-none-match': '"other"' } });
      await app.inject({ url: '/api/v1/markets/XX', headers: key });
      await app.inject({ url: '/api/v1/markets', headers: key });
      await app.inject({ url: '/api/v1/markets' });
      await app.inject({ url: '/nowhere' });
      let text = await metrics.text();
      const requests = (op: string, status: number) => sample(text, `mds_http_requests_total{operation="${op}",status="${status}"}`);
      expect([
        requests('listMarkets', 200),
        requests('listMarkets', 304),
        requests('getMarket', 404),
        requests('listMarkets', 429),
        requests('listMarkets', 401),
        requests('none', 404),
      ]).toEqual([2, 1, 1, 1, 1, 1]);
      expect(sample(text, 'mds_http_request_duration_seconds_count{operation="listMarkets"}')).toBe(5);
      expect(sample(text, 'mds_http_request_duration_seconds_bucket{le="+Inf",operation="listMarkets"}')).toBe(5);
      expect(sample(text, 'mds_http_conditional_requests_total{result="hit"}')).toBe(1);
      expect(sample(text, 'mds_http_conditional_requests_total{result="miss"}')).toBe(1);
      expect(sample(text, 'mds_rate_limit_decisions_total{outcome="allowed"}')).toBe(4);
      expect(sample(text, 'mds_rate_limit_decisions_total{outcome="limited"}')).toBe(1);
      const dialect = h.store.dialect;
      // Every data request opened a snapshot (the 304 too), and listMarkets reads through Kysely.
      expect(sample(text, `mds_store_query_duration_seconds_count{dialect="${dialect}",path="snapshot"}`)).toBe(4);
      expect(sample(text, `mds_store_query_duration_seconds_count{dialect="${dialect}",path="kysely"}`)).toBeGreaterThan(0);
      // The demo's last version (its build), and when it was made; no ingest yet.
      const latest = (await latestVersion((q, p) => h.store.selectRows(q, p)))!;
      expect(latest.version).toBeGreaterThan(1);
      expect(sample(text, `mds_data_version_info{version="${latest.version}"}`)).toBe(1);
      expect(sample(text, 'mds_data_changed_timestamp_seconds')).toBe(latest.at / 1000);
      expect(sample(text, 'mds_ingest_runs_total')).toBe(0);
      expect(sample(text, 'mds_ingest_last_success_timestamp_seconds')).toBe(0);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      expect(text).toMatch(/^# TYPE mds_http_request_duration_seconds histogram$/m);

      // Ingests record their rows in the store, with the rows; the server reads them at each scrape.
      const version = await h.store.bulkTransaction(async (s) => {
        await recordIngest(s, [{ dataset: 'bars_1d', inserted: 3, updated: 1, unchanged: 2 }], new Date('2025-01-02T03:04:05Z'));
        return recordVersion(
          s,
          'test',
          [{ dataset: 'bars_1d', rows: 4, instruments: null, from: null, to: null }],
          Date.parse('2025-01-02T03:04:05Z'),
        );
      });
      await h.store.bulkTransaction((s) =>
        recordIngest(
          s,
          [
            { dataset: 'bars_1d', inserted: 1, updated: 0, unchanged: 5 },
            { dataset: 'equities', inserted: 7, updated: 0, unchanged: 0 },
          ],
          new Date('2025-01-03T00:00:00Z'),
        ),
      );
      text = await metrics.text();
      expect(sample(text, 'mds_ingest_runs_total')).toBe(2);
      expect(sample(text, `mds_data_version_info{version="${version}"}`)).toBe(1);
      expect(sample(text, 'mds_data_changed_timestamp_seconds')).toBe(Date.parse('2025-01-02T03:04:05Z') / 1000);
      expect(sample(text, 'mds_ingest_last_success_timestamp_seconds')).toBe(Date.parse('2025-01-03T00:00:00Z') / 1000);
      expect(
        ['inserted', 'updated', 'unchanged'].map((o) => sample(text, `mds_ingest_rows_total{dataset="bars_1d",outcome="${o}"}`)),
      ).toEqual([4, 1, 7]);
      expect(sample(text, 'mds_ingest_rows_total{dataset="equities",outcome="inserted"}')).toBe(7);
    } finally {
      await app.close();
      await h.close();
    }
  });

  it('answers the scrape while the store cannot answer: mds_store_up 0, the 503s counted, the data version last read', async () => {
    const h = await harness(await url(), TINY_DEMO);
    const metrics = new Metrics();
    const app = await buildApp({ config: loadConfig({}), store: h.store, metrics });
    const server = await listenMetrics('127.0.0.1', 0, null, () => metrics.text());
    const scrape = async () => {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, { signal: AbortSignal.timeout(10_000) });
      return { status: r.status, text: await r.text() };
    };
    try {
      const key = { 'x-api-key': h.key };
      expect((await app.inject({ url: '/api/v1/markets', headers: key })).statusCode).toBe(200);
      const before = await scrape();
      const latest = (await latestVersion((q, p) => h.store.selectRows(q, p)))!;
      expect(before.status).toBe(200);
      expect(sample(before.text, 'mds_store_up')).toBe(1);
      expect(sample(before.text, `mds_data_version_info{version="${latest.version}"}`)).toBe(1);
      // The store goes away under the running app (as a store that stops answering).
      await h.store.close();
      for (let i = 0; i < 3; i++)
        expect((await app.inject({ url: `/api/v1/markets?page[size]=${i + 1}`, headers: key })).statusCode).toBe(503);
      const during = await scrape();
      expect(during.status, during.text).toBe(200);
      expect(sample(during.text, 'mds_store_up')).toBe(0);
      expect(sample(during.text, 'mds_http_requests_total{operation="listMarkets",status="503"}')).toBe(3);
      expect(sample(during.text, 'mds_http_requests_total{operation="listMarkets",status="200"}')).toBe(1);
      expect(sample(during.text, `mds_data_version_info{version="${latest.version}"}`)).toBe(1);
      expect(sample(during.text, 'mds_data_changed_timestamp_seconds')).toBe(latest.at / 1000);
    } finally {
      server.close();
      await app.close();
      await h.close().catch(() => {});
    }
  });

  it("counts the lookups of the request path's caches: weekly KDJ computed, then the same page again from memory", async () => {
    const h = await harness(await url(), TINY_DEMO);
    const metrics = new Metrics();
    const app = await buildApp({ config: loadConfig({}), store: h.store, metrics });
    try {
      const key = { 'x-api-key': h.key };
      const id = JSON.parse((await app.inject({ url: '/api/v1/equities?page[size]=1', headers: key })).body).data[0].id as string;
      const lookups = (text: string, cache: string) =>
        ['hit', 'miss'].map((r) => sample(text, `mds_cache_lookups_total{cache="${cache}",result="${r}"}`));
      expect(lookups(await metrics.text(), 'indicator_values')).toEqual([0, 0]);
      const page = `/api/v1/equities/${id}/technical-indicators/kdj?interval=1w&page[size]=5`;
      const first = await app.inject({ url: page, headers: key });
      expect(JSON.parse(first.body).data).toHaveLength(5);
      const text = await metrics.text();
      const [hits, misses] = lookups(text, 'indicator_values');
      expect(misses).toBeGreaterThan(0);
      expect(lookups(text, 'bar_series')[1]).toBeGreaterThan(0);
      // The same page again: its values come from the cache.
      expect((await app.inject({ url: page, headers: key })).body).toBe(first.body);
      const again = lookups(await metrics.text(), 'indicator_values');
      expect(again[1]).toBe(misses);
      expect(again[0]).toBeGreaterThan(hits!);
      for (const cache of ['adjustment_factors', 'indicator_checkpoints', 'equity_days', 'latest_trading_day', 'pools', 'calendars']) {
        expect(
          lookups(text, cache).every((n) => Number.isInteger(n)),
          cache,
        ).toBe(true);
      }
    } finally {
      await app.close();
      await h.close();
    }
  });
});

describe('the metrics listener', () => {
  it('answers GET /metrics in Prometheus text format, with the bearer token when one is set', async () => {
    const token = 'a-token-of-24-characters';
    const server = await listenMetrics('127.0.0.1', 0, token, async () => 'up 1\n');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect([ok.status, ok.headers.get('content-type'), await ok.text()]).toEqual([
        200,
        'text/plain; version=0.0.4; charset=utf-8',
        'up 1\n',
      ]);
      const none = await fetch(`${base}/metrics`);
      expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="metrics"']);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${base}/other`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('is configured by METRICS_PORT, METRICS_HOST and METRICS_TOKEN, checked at start', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: null, metricsHost: '127.0.0.1', metricsToken: null });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'x'.repeat(16) })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
      metricsToken: 'x'.repeat(16),
    });
    expect(() => loadConfig({ METRICS_PORT: '8080' })).toThrow(
      'METRICS_PORT must differ from PORT (8080): metrics have their own listener',
    );
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT must be a port 1..65535, got 70000');
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN must be at least 16 printable ASCII characters without spaces',
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'x'.repeat(16) })).toThrow(
      'METRICS_TOKEN is set but METRICS_PORT is not: set METRICS_PORT to serve /metrics',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://localhost' })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL, got http://localhost',
    );
    expect(() => loadConfig({ RATE_LIMIT_WINDOW: '0' })).toThrow('RATE_LIMIT_WINDOW must be a positive integer, got 0');
    expect(loadConfig({ RATE_LIMIT: '5' })).toMatchObject({
      rateLimit: 5,
      rateLimitAnon: 5,
      rateLimitWindowS: 1,
      redisUrl: null,
      redisKeyPrefix: 'mds:rl:',
    });
  });
});

/**
 * `mds serve` with METRICS_PORT and `workers` processes (1, the default: the process serves its
 * own; more: the primary sums the workers'): `n` keyed requests, then one scrape, as text.
 */
describe.each([1, 2])('metrics of a server with WORKERS=%i', (workers) => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-metrics-'));
  const file = join(dir, 'store.sqlite');
  let served: Served | null = null;
  let metricsPort = 0;
  afterAll(async () => {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the server, sends `n` keyed requests and one without a key, and scrapes /metrics. */
  async function scrapeAfter(n: number): Promise<string> {
    const created = await mds(file, 'keys', 'create', '--name', 'metrics');
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    metricsPort = await freePort();
    served = await serve({ DATABASE_URL: file, WORKERS: String(workers), METRICS_PORT: String(metricsPort) });
    expect(served.stderr()).toContain(`with ${workers} worker`);
    for (let i = 0; i < n; i++) {
      const r = await fetch(`${served.base}/api/v1/markets`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(8000) });
      expect(r.status).toBe(200);
    }
    expect((await fetch(`${served.base}/api/v1/markets`, { signal: AbortSignal.timeout(8000) })).status).toBe(401);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(8000) });
    const text = await res.text();
    expect(res.status, served.stderr() + JSON.stringify(served.logs.slice(-5))).toBe(200);
    expect(sample(text, 'mds_http_requests_total{operation="listMarkets",status="200"}')).toBe(n);
    expect(sample(text, 'mds_http_requests_total{operation="listMarkets",status="401"}')).toBe(1);
    expect(sample(text, 'mds_http_request_duration_seconds_count{operation="listMarkets"}')).toBe(n + 1);
    return text;
  }

  it.runIf(workers === 1)(
    'are served by the process itself, which closes them and exits 0 on SIGTERM',
    async () => {
      await scrapeAfter(3);
      served!.child.kill('SIGTERM');
      expect(await exited(served!.child), served!.stderr()).toEqual({ code: 0, signal: null });
      // The metrics listener closed with the server.
      await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(8000) })).rejects.toThrow();
    },
    120_000,
  );

  it.runIf(workers > 1)(
    'are the sum over the workers, scraped from the primary',
    async () => {
      const text = await scrapeAfter(8);
      // Read from the store by each worker: the first worker's value, not a sum.
      expect(text).toMatch(/^mds_data_version_info\{version="[^"]+"\} 1$/m);
    },
    120_000,
  );
});
