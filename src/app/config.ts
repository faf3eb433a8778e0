import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import type { StoreTimeouts } from '../store/types.js';
import { DEFAULT_SQLITE_PATH, shownUrl } from '../store/connect.js';
import { pgHosts } from '../store/dialects/postgres-hosts.js';

export interface Config {
  host: string;
  port: number;
  /** SQLite file path or postgres:// URL. */
  databaseUrl: string;
  /**
   * MB of instruments' daily packs kept per data version by a PostgreSQL store's server
   * (PACK_CACHE_MB, default 64; 0: none): a daily page then costs no read but its snapshot's.
   */
  packCacheMb: number;
  /** PostgreSQL streaming replicas that read snapshots go to (DATABASE_REPLICA_URLS, comma-separated; docs/scaling.md). */
  replicaUrls: string[];
  logLevel: string;
  /** Log lines as JSON (pino) or human-readable; default: readable on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty';
  /** Read the client address from X-Forwarded-For (behind a reverse proxy): Fastify's trustProxy. */
  trustProxy: boolean | number | string;
  /** Key that signs pagination cursors (tamper detection, not secrecy). */
  cursorSecret: string;
  /** Seed and size of the demo market created on first start. */
  demoSeed: number;
  demoOnFirstRun: boolean;
  /** HTTP worker processes sharing the port (node:cluster); `WORKERS=auto` = one per core. */
  workers: number;
  /**
   * The first wait before forking again a worker that failed to start (WORKER_RETRY_MS, default
   * 250 ms); it doubles with each failure, up to 32 times this (8 s by default).
   */
  workerRetryMs: number;
  /**
   * Origins whose pages may call the service from a browser (CORS_ORIGINS, comma-separated, e.g.
   * `https://pro.openbb.co` for OpenBB Workspace; `*` any); empty (the default): none.
   */
  corsOrigins: string[];
  /**
   * Requests per `rateLimitWindowS` allowed per API key (a key's own `--rate` overrides it); 0 =
   * none. Counted in Redis when `redisUrl` is set (shared by every process and server), else per process.
   */
  rateLimit: number;
  /** The rate limits' fixed window, seconds (RATE_LIMIT_WINDOW, default 1). */
  rateLimitWindowS: number;
  /** Requests per window per client address without a valid key (missing or invalid); 0 = none. Default RATE_LIMIT. */
  rateLimitAnon: number;
  /** Redis holding the rate-limit counters (REDIS_URL); null: in-process counters. */
  redisUrl: string | null;
  /** Prefix of the rate-limit counters' Redis keys (REDIS_KEY_PREFIX, default `mds:rl:`). */
  redisKeyPrefix: string;
  /** Port of the Prometheus `/metrics` listener (METRICS_PORT); null: no metrics (the default). */
  metricsPort: number | null;
  /** Address the metrics listener binds (METRICS_HOST, default 127.0.0.1). */
  metricsHost: string;
  /** Bearer token `/metrics` requires (METRICS_TOKEN); null: none. */
  metricsToken: string | null;
  /** PostgreSQL: bounds on waiting for the server on the request path (ms; 0 = none). */
  pgConnectTimeoutMs: number;
  pgStatementTimeoutMs: number;
  pgPoolAcquireTimeoutMs: number;
  /** GET /api/v1/events (docs/api.md, "Events"): its bounds and how it learns of new versions. */
  events: EventsConfig;
  /** Signs the short-lived stream tokens of `mds keys token` (TOKEN_SECRET); null: none issued or accepted. */
  tokenSecret: string | null;
}

/** The event stream's configuration (docs/operations.md, "Event streams"). */
export interface EventsConfig {
  /** A comment line every this many ms on an idle stream, and the key checked again (EVENT_HEARTBEAT_MS, default 15 s). */
  heartbeatMs: number;
  /** How often a store that announces nothing (SQLite) is asked for new versions (EVENT_POLL_MS, default 500). */
  pollMs: number;
  /** Streams one key may hold open on one server process (EVENT_STREAMS_PER_KEY, default 8; 0: none). */
  streamsPerKey: number;
  /** KB a slow reader may leave unread before its stream ends with `event: dropped` (EVENT_BUFFER_KB, default 256). */
  bufferKb: number;
}

/** The configuration cannot be used: one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `bad configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads the configuration from the environment (README, "Configuration"; docs/operations.md).
 * Every variable is checked; a ConfigError lists every bad one, each with what it must be.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  const int = (
    name: string,
    def: number,
    min = 0,
    max = Number.MAX_SAFE_INTEGER,
    what = min === 0 ? 'a non-negative integer' : 'a positive integer',
  ) => {
    if (!set(name)) return def;
    const v = env[name]!;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) {
      problems.push(`${name} must be ${what}, got ${v}`);
      return def;
    }
    return n;
  };
  const oneOf = <T extends string>(name: string, values: readonly T[], def: T): T => {
    if (!set(name)) return def;
    if ((values as readonly string[]).includes(env[name]!)) return env[name] as T;
    problems.push(`${name} must be one of ${values.join(', ')}, got ${env[name]}`);
    return def;
  };
  const port = int('PORT', 8080, 1, 65535, 'a port 1..65535');
  const rateLimit = int('RATE_LIMIT', 0);
  const databaseUrl = env.DATABASE_URL || resolve(DEFAULT_SQLITE_PATH);
  if (/^postgres(ql)?:/i.test(databaseUrl)) {
    // libpq's form: several hosts (`host1:5432,host2:5432`), target_session_attrs (docs/scaling.md, "Failover").
    const hosts = pgHosts(databaseUrl);
    if (typeof hosts === 'string')
      problems.push(
        `DATABASE_URL must be a SQLite file path or a postgres://user@host:port/db URL (host:port,host:port… for several), got ${shownUrl(databaseUrl)}: ${hosts}`,
      );
  }
  const replicaUrls = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (replicaUrls.length && !/^postgres(ql)?:/i.test(databaseUrl))
    problems.push('DATABASE_REPLICA_URLS needs a PostgreSQL DATABASE_URL (the primary the replicas stream from)');
  for (const u of replicaUrls) {
    let ok = /^postgres(ql)?:\/\//i.test(u);
    try {
      new URL(u);
    } catch {
      ok = false;
    }
    if (!ok) problems.push(`DATABASE_REPLICA_URLS must list postgres://user@host:port/db URLs separated by commas, got ${u}`);
  }
  let workers = 1;
  if (env.WORKERS === 'auto') workers = availableParallelism();
  else workers = Math.max(1, int('WORKERS', 1, 1, 256, "a number of processes 1..256 or 'auto'"));
  const cfg: Config = {
    host: env.HOST || '127.0.0.1',
    port,
    databaseUrl,
    replicaUrls,
    packCacheMb: int('PACK_CACHE_MB', 64, 0, 65536, 'a size in MB, 0..65536'),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf('LOG_FORMAT', ['json', 'pretty'] as const, process.stdout.isTTY ? 'pretty' : 'json'),
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    cursorSecret: env.CURSOR_SECRET || 'mds-cursor-v1',
    demoSeed: int('DEMO_SEED', 1),
    demoOnFirstRun: oneOf('DEMO', ['0', '1'], '1') === '1',
    rateLimit,
    rateLimitWindowS: int('RATE_LIMIT_WINDOW', 1, 1),
    rateLimitAnon: int('RATE_LIMIT_ANON', rateLimit),
    redisUrl: redisUrl(env.REDIS_URL, problems),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'mds:rl:',
    ...metricsConfig(env, port, problems, int),
    pgConnectTimeoutMs: int('PG_CONNECT_TIMEOUT_MS', 3000),
    pgStatementTimeoutMs: int('PG_STATEMENT_TIMEOUT_MS', 5000),
    pgPoolAcquireTimeoutMs: int('PG_POOL_ACQUIRE_TIMEOUT_MS', 5000),
    workers,
    workerRetryMs: int('WORKER_RETRY_MS', 250, 1),
    corsOrigins: corsOrigins(env.CORS_ORIGINS, problems),
    events: {
      heartbeatMs: int('EVENT_HEARTBEAT_MS', 15_000, 1, 3_600_000, 'a number of ms 1..3600000'),
      pollMs: int('EVENT_POLL_MS', 500, 1, 600_000, 'a number of ms 1..600000'),
      streamsPerKey: int('EVENT_STREAMS_PER_KEY', 8, 0, 10_000, 'a number of streams 0..10000'),
      bufferKb: int('EVENT_BUFFER_KB', 256, 1, 1_048_576, 'a size in KB 1..1048576'),
    },
    tokenSecret: tokenSecret(env.TOKEN_SECRET, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return cfg;
}

/**
 * TRUST_PROXY: whether the client address (per-address rate limits, logs) is read from
 * X-Forwarded-For: unset or `false` no; `true` yes; a number, that many proxies; else a comma
 * list of proxy addresses or CIDR ranges (Fastify's trustProxy).
 */
function trustProxy(v: string | undefined, problems: string[]): boolean | number | string {
  if (v === undefined || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  if (/^[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*$/.test(v)) return v;
  problems.push(`TRUST_PROXY must be true, false, a number of proxies or a comma list of proxy addresses, got ${v}`);
  return false;
}

/** CORS_ORIGINS: `*`, or origins (scheme://host[:port], no path) separated by commas. */
function corsOrigins(v: string | undefined, problems: string[]): string[] {
  const list = (v ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of list) {
    let origin = '';
    try {
      origin = new URL(o).origin;
    } catch {
      /* reported below */
    }
    if (o !== '*' && origin !== o)
      problems.push(
        `CORS_ORIGINS must list origins such as https://pro.openbb.co (scheme, host, port; no path or trailing slash) or *, got ${o}`,
      );
  }
  return list;
}

/** TOKEN_SECRET: at least 16 characters (it signs stream tokens: auth/tokens.ts); unset, none. */
function tokenSecret(v: string | undefined, problems: string[]): string | null {
  if (v === undefined || v === '') return null;
  if (v.length < 16) problems.push('TOKEN_SECRET must be at least 16 characters (it signs stream tokens)');
  return v;
}

function redisUrl(v: string | undefined, problems: string[]): string | null {
  if (v === undefined || v === '') return null;
  let protocol = '';
  try {
    protocol = new URL(v).protocol;
  } catch {
    /* reported below */
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    problems.push(`REDIS_URL must be a redis:// or rediss:// URL, got ${v}`);
    return null;
  }
  return v;
}

function metricsConfig(
  env: NodeJS.ProcessEnv,
  port: number,
  problems: string[],
  int: (name: string, def: number, min?: number, max?: number, what?: string) => number,
) {
  const given = env.METRICS_PORT !== undefined && env.METRICS_PORT !== '';
  const metricsPort = given ? int('METRICS_PORT', 0, 1, 65535, 'a port 1..65535') : null;
  if (metricsPort !== null && metricsPort === port)
    problems.push(`METRICS_PORT must differ from PORT (${port}): metrics have their own listener`);
  const token = env.METRICS_TOKEN || null;
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token))
    problems.push('METRICS_TOKEN must be at least 16 printable ASCII characters without spaces');
  if (token !== null && !given) problems.push('METRICS_TOKEN is set but METRICS_PORT is not: set METRICS_PORT to serve /metrics');
  return { metricsPort: metricsPort === 0 ? null : metricsPort, metricsHost: env.METRICS_HOST || '127.0.0.1', metricsToken: token };
}

/** The configured bounds on waiting for PostgreSQL, as the store takes them. */
export function storeTimeouts(cfg: Config): StoreTimeouts {
  return { connectMs: cfg.pgConnectTimeoutMs, statementMs: cfg.pgStatementTimeoutMs, acquireMs: cfg.pgPoolAcquireTimeoutMs };
}
