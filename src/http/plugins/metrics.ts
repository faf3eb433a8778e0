import { createServer, type Server } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import client from 'prom-client';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/types.js';
import type { RateLimitCounts } from './rate-limit.js';
import type { IngestTotals } from '../../store/ingest-totals.js';
import type { CacheCounts } from '../../lib/counted-cache.js';

/** Seconds: from a cached 304 (well under a millisecond) to a slow page (seconds). */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/** Where the scrape-time metrics come from (wired by app.ts). */
export interface MetricSources {
  /** The data version in the store now and when it was made (store/versions.ts). */
  dataVersion(): Promise<{ version: number; at: number } | undefined>;
  /** What `mds ingest` recorded in the store (ingest/stats.ts), if anything. */
  ingestTotals(): Promise<IngestTotals | null>;
  /** The in-process caches of the request path, with their lookups counted. */
  caches: readonly CacheCounts[];
}

/** How long a scrape waits for the store's answer (ms): a frozen store makes the scrape say so, not hang. */
const STORE_READ_MS = 2000;

/** `p`, or a rejection after `ms`. */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  p.catch(() => {});
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * The Prometheus metrics of one server process (docs/operations.md, "Metrics"), in a registry
 * of its own (tests build many apps in one process). With WORKERS > 1 every worker's registry
 * is collected and summed by the primary (prom-client's AggregatorRegistry, see server.ts).
 * Observing costs a label lookup and a histogram bucket per request and per store query.
 */
export class Metrics {
  readonly registry = new client.Registry();
  /** Counted by the rate limits (rate-limit.ts). */
  readonly rateLimits: RateLimitCounts = { allowed: 0, limited: 0, failedOpen: 0 };
  private readonly requests: client.Counter<'operation' | 'status'>;
  private readonly duration: client.Histogram<'operation'>;
  private readonly conditional: client.Counter<'result'>;
  private readonly queries: client.Histogram<'dialect' | 'path'>;
  private readonly snapshots: client.Counter<'source'>;
  private sources: MetricSources | null = null;

  constructor() {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    this.requests = new client.Counter({
      name: 'mds_http_requests_total',
      help: 'HTTP requests answered, by operation (operationId; "none" when no route matched) and status.',
      labelNames: ['operation', 'status'],
      registers,
    });
    this.duration = new client.Histogram({
      name: 'mds_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by operation.',
      labelNames: ['operation'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.conditional = new client.Counter({
      name: 'mds_http_conditional_requests_total',
      help: 'GET requests with If-None-Match, by result: hit (answered 304 Not Modified) or miss (a full response).',
      labelNames: ['result'],
      registers,
    });
    this.queries = new client.Histogram({
      name: 'mds_store_query_duration_seconds',
      help: 'Store query time, by dialect (sqlite, postgres) and path (prepared: the keyset reads of the request path; kysely: the other queries).',
      labelNames: ['dialect', 'path'],
      buckets: QUERY_BUCKETS,
      registers,
    });
    this.snapshots = new client.Counter({
      name: 'mds_store_snapshots_total',
      help: 'Read snapshots opened (one per data request, or shared by the requests of one event-loop turn), by where they read: primary (or the only store), or a replica (its URL, DATABASE_REPLICA_URLS).',
      labelNames: ['source'],
      registers,
    });
    const rl = this.rateLimits;
    new client.Counter({
      name: 'mds_rate_limit_decisions_total',
      help: 'Requests counted against a rate limit, by outcome: allowed, limited (answered 429), failed_open (the counter store failed; let through).',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        this.inc({ outcome: 'allowed' }, rl.allowed);
        this.inc({ outcome: 'limited' }, rl.limited);
        this.inc({ outcome: 'failed_open' }, rl.failedOpen);
      },
    });
    const caches = () => this.sources?.caches ?? [];
    new client.Counter({
      name: 'mds_cache_lookups_total',
      help: 'Lookups in the in-process caches of the request path (adjustment factors, adjusted series, indicator values and checkpoints, equity days, pools, calendars), by cache and result: hit or miss.',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        this.reset();
        for (const c of caches()) {
          this.inc({ cache: c.name, result: 'hit' }, c.hits);
          this.inc({ cache: c.name, result: 'miss' }, c.misses);
        }
      },
    });
    // Read from the store at each scrape: every process sees the same values, so the cluster
    // aggregate takes the first worker's, not their sum.
    const version = new client.Gauge({
      name: 'mds_data_version_info',
      help: 'The data version the store holds (meta.data_version; every ingest that changes data makes a new one): 1, labelled with it.',
      labelNames: ['version'],
      registers,
      aggregator: 'first',
    });
    const changed = new client.Gauge({
      name: 'mds_data_changed_timestamp_seconds',
      help: 'When the data last changed: the commit time of the current data version (Unix seconds; 0 when no ingest has changed it).',
      registers,
      aggregator: 'first',
    });
    const rows = new client.Counter({
      name: 'mds_ingest_rows_total',
      help: 'Rows written by successful `mds ingest` runs into this store, by dataset and outcome (inserted, updated, unchanged).',
      labelNames: ['dataset', 'outcome'],
      registers,
      aggregator: 'first',
    });
    const runs = new client.Counter({
      name: 'mds_ingest_runs_total',
      help: 'Successful `mds ingest` runs recorded in this store (a failed ingest is rolled back whole and leaves no trace: watch its exit code).',
      registers,
      aggregator: 'first',
    });
    const last = new client.Gauge({
      name: 'mds_ingest_last_success_timestamp_seconds',
      help: 'When the last successful `mds ingest` committed (Unix seconds; 0 before the first).',
      registers,
      aggregator: 'first',
    });
    const up = new client.Gauge({
      name: 'mds_store_up',
      help: `1 when the store answered this scrape's read (the data version, the ingest totals), 0 when it did not within ${STORE_READ_MS / 1000} s (down, unreachable, frozen): the store-derived values are then those last read.`,
      registers,
      aggregator: 'min',
    });
    // One read of the store per scrape serves all six: prom-client collects the metrics
    // concurrently, so each waits for the same read. A store that cannot answer makes no scrape
    // fail: an outage is what the scrape must show (mds_store_up 0, and the 503s counted).
    let reading: Promise<void> | null = null;
    const read = async () => {
      const sources = this.sources;
      if (sources === null) return;
      let v: Awaited<ReturnType<MetricSources['dataVersion']>>, totals: IngestTotals | null;
      try {
        [v, totals] = await within(STORE_READ_MS, Promise.all([sources.dataVersion(), sources.ingestTotals()]));
      } catch {
        up.set(0);
        return;
      }
      up.set(1);
      version.reset();
      changed.reset();
      rows.reset();
      runs.reset();
      last.reset();
      if (v !== undefined) {
        version.set({ version: String(v.version) }, 1);
        changed.set(v.at / 1000);
      }
      if (totals) {
        runs.inc(totals.runs);
        const at = Date.parse(totals.last_at);
        if (Number.isFinite(at)) last.set(at / 1000);
        for (const [dataset, c] of Object.entries(totals.rows)) {
          for (const outcome of ['inserted', 'updated', 'unchanged'] as const) rows.inc({ dataset, outcome }, c[outcome]);
        }
      }
    };
    const collect = () =>
      (reading ??= read().finally(() => {
        reading = null;
      }));
    for (const m of [version, changed, rows, runs, last, up]) (m as unknown as { collect: () => Promise<void> }).collect = collect;
  }

  /** The store to read the scrape-time metrics from. */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  /** Counts every response of `app` by operation and status, with its latency and conditional-request outcome. */
  observe(app: FastifyInstance): void {
    const requests = new Map<string, { inc(): void }>();
    const durations = new Map<string, { observe(v: number): void }>();
    const hit = this.conditional.labels('hit');
    const miss = this.conditional.labels('miss');
    app.addHook('onResponse', (req, reply, done) => {
      const operation =
        (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId ??
        (req.routeOptions.url ? req.routeOptions.url : 'none');
      const status = reply.statusCode;
      const key = `${operation} ${status}`;
      let c = requests.get(key);
      if (c === undefined) requests.set(key, (c = this.requests.labels(operation, String(status))));
      c.inc();
      let d = durations.get(operation);
      if (d === undefined) durations.set(operation, (d = this.duration.labels(operation)));
      d.observe(reply.elapsedTime / 1000);
      if (req.headers['if-none-match'] !== undefined && (req.method === 'GET' || req.method === 'HEAD'))
        (status === 304 ? hit : miss).inc();
      done();
    });
  }

  /** `store` with its queries timed: the prepared reads (select, selectRows) and every Kysely query. */
  instrument(store: Store): Store {
    const prepared = this.queries.labels(store.dialect, 'prepared');
    const kysely = this.queries.labels(store.dialect, 'kysely');
    const timed = Object.create(store) as Store & { db: Store['db'] };
    const time = async <T>(run: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      try {
        return await run();
      } finally {
        prepared.observe((performance.now() - t) / 1000);
      }
    };
    const timer = new QueryTimer((s) => kysely.observe(s));
    // Kysely over a snapshot's connection, timed: made once per connection (snapshots reuse theirs).
    const timedDb = new WeakMap<Store['db'], Store['db']>();
    const dbOf = (db: Store['db']) => {
      let t = timedDb.get(db);
      if (!t) timedDb.set(db, (t = db.withPlugin(timer)));
      return t;
    };
    timed.select = <T>(sql: string, params: unknown[]) => time(() => store.select<T>(sql, params));
    timed.selectRows = (sql: string, params: unknown[]) => time(() => store.selectRows(sql, params));
    const opening = this.queries.labels(store.dialect, 'snapshot');
    timed.snapshot = async (want) => {
      const t = performance.now();
      const s = await store.snapshot(want);
      opening.observe((performance.now() - t) / 1000);
      this.snapshots.inc({ source: s.source?.startsWith('replica ') ? s.source.slice('replica '.length) : 'primary' });
      return {
        version: s.version,
        source: s.source,
        db: dbOf(s.db),
        release: () => s.release(),
        select: <T>(sql: string, params: unknown[]) => time(() => s.select<T>(sql, params)),
        selectRows: (sql: string, params: unknown[]) => time(() => s.selectRows(sql, params)),
      };
    };
    Object.defineProperty(timed, 'db', { value: dbOf(store.db), enumerable: true });
    return timed;
  }

  /** The metrics in Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * Times Kysely queries from compilation to result. A query that fails is not observed (its
 * start is forgotten with its id).
 */
class QueryTimer implements KyselyPlugin {
  private readonly started = new WeakMap<object, number>();
  constructor(private readonly observe: (seconds: number) => void) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.started.set(args.queryId, performance.now());
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const t = this.started.get(args.queryId);
    if (t !== undefined) this.observe((performance.now() - t) / 1000);
    return args.result;
  }
}

/** Prometheus's text exposition format, as prom-client writes it. */
export const CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * The metrics listener (METRICS_PORT on METRICS_HOST): GET /metrics answers `collect()`, after
 * checking `Authorization: Bearer METRICS_TOKEN` when a token is set (401 otherwise); anything
 * else is 404. Apart from the API's port, so that the API's keys, limits and logs are not in
 * the way of the scraper, and the port can be firewalled on its own.
 */
export function metricsServer(token: string | null, collect: () => Promise<string>, onError: (err: unknown) => void = () => {}): Server {
  const expected = token === null ? null : createHash('sha256').update(`Bearer ${token}`).digest();
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    if (expected !== null) {
      const given = createHash('sha256')
        .update(req.headers.authorization ?? '')
        .digest();
      if (!timingSafeEqual(given, expected)) {
        res
          .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' })
          .end('Unauthorized: send Authorization: Bearer METRICS_TOKEN\n');
        return;
      }
    }
    collect().then(
      (body) => {
        res.writeHead(200, { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
      },
      (err) => {
        onError(err);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected; see the server log.\n');
      },
    );
  });
}

/** Starts the metrics listener; resolves once it listens. */
export function listenMetrics(
  host: string,
  port: number,
  token: string | null,
  collect: () => Promise<string>,
  onError?: (err: unknown) => void,
): Promise<Server> {
  const server = metricsServer(token, collect, onError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
