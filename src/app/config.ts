import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import type { StoreTimeouts } from '../store/types.js';

export interface Config {
  host: string;
  port: number;
  /** SQLite file path or postgres:// URL. */
  databaseUrl: string;
  logLevel: string;
  /** Key that signs pagination cursors (tamper detection, not secrecy). */
  cursorSecret: string;
  /** Seed and size of the demo market created on first start. */
  demoSeed: number;
  demoOnFirstRun: boolean;
  /** HTTP worker processes sharing the port (node:cluster); `WORKERS=auto` = one per core. */
  workers: number;
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
}

/** Reads the configuration from the environment (documented in the README). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const int = (name: string, def: number) => {
    const v = env[name];
    if (v === undefined || v === '') return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${v}`);
    return n;
  };
  const port = int('PORT', 8080);
  const rateLimit = int('RATE_LIMIT', 0);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL || resolve('data/mds.sqlite'),
    logLevel: env.LOG_LEVEL || 'info',
    cursorSecret: env.CURSOR_SECRET || 'mds-cursor-v1',
    demoSeed: int('DEMO_SEED', 1),
    demoOnFirstRun: env.DEMO !== '0',
    rateLimit,
    rateLimitWindowS: positive('RATE_LIMIT_WINDOW', int('RATE_LIMIT_WINDOW', 1)),
    rateLimitAnon: int('RATE_LIMIT_ANON', rateLimit),
    redisUrl: redisUrl(env.REDIS_URL),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'mds:rl:',
    ...metricsConfig(env, port, int),
    pgConnectTimeoutMs: int('PG_CONNECT_TIMEOUT_MS', 3000),
    pgStatementTimeoutMs: int('PG_STATEMENT_TIMEOUT_MS', 5000),
    pgPoolAcquireTimeoutMs: int('PG_POOL_ACQUIRE_TIMEOUT_MS', 5000),
    workers: env.WORKERS === 'auto' ? availableParallelism() : Math.max(1, int('WORKERS', 1)),
  };
}

const positive = (name: string, n: number) => {
  if (n < 1) throw new Error(`${name} must be a positive integer, got ${n}`);
  return n;
};

function redisUrl(v: string | undefined): string | null {
  if (v === undefined || v === '') return null;
  let u: URL;
  try { u = new URL(v); } catch { throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got ${v}`); }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got ${v}`);
  return v;
}

function metricsConfig(env: NodeJS.ProcessEnv, port: number, int: (name: string, def: number) => number) {
  const metricsPort = env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : int('METRICS_PORT', 0);
  if (metricsPort !== null && (metricsPort < 1 || metricsPort > 65535)) throw new Error(`METRICS_PORT must be a port 1..65535, got ${env.METRICS_PORT}`);
  if (metricsPort !== null && metricsPort === port) throw new Error(`METRICS_PORT must differ from PORT (${port}): metrics have their own listener`);
  const token = env.METRICS_TOKEN || null;
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token)) throw new Error('METRICS_TOKEN must be at least 16 printable ASCII characters without spaces');
  if (token !== null && metricsPort === null) throw new Error('METRICS_TOKEN is set but METRICS_PORT is not: set METRICS_PORT to serve /metrics');
  return { metricsPort, metricsHost: env.METRICS_HOST || '127.0.0.1', metricsToken: token };
}

/** The configured bounds on waiting for PostgreSQL, as the store takes them. */
export function storeTimeouts(cfg: Config): StoreTimeouts {
  return { connectMs: cfg.pgConnectTimeoutMs, statementMs: cfg.pgStatementTimeoutMs, acquireMs: cfg.pgPoolAcquireTimeoutMs };
}
