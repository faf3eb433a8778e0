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
  /** Requests per second allowed per API key and worker (token bucket, burst = 2 s); 0 = unlimited. */
  rateLimit: number;
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
  return {
    host: env.HOST || '127.0.0.1',
    port: int('PORT', 8080),
    databaseUrl: env.DATABASE_URL || resolve('data/mds.sqlite'),
    logLevel: env.LOG_LEVEL || 'info',
    cursorSecret: env.CURSOR_SECRET || 'mds-cursor-v1',
    demoSeed: int('DEMO_SEED', 1),
    demoOnFirstRun: env.DEMO !== '0',
    rateLimit: int('RATE_LIMIT', 0),
    pgConnectTimeoutMs: int('PG_CONNECT_TIMEOUT_MS', 3000),
    pgStatementTimeoutMs: int('PG_STATEMENT_TIMEOUT_MS', 5000),
    pgPoolAcquireTimeoutMs: int('PG_POOL_ACQUIRE_TIMEOUT_MS', 5000),
    workers: env.WORKERS === 'auto' ? availableParallelism() : Math.max(1, int('WORKERS', 1)),
  };
}

/** The configured bounds on waiting for PostgreSQL, as the store takes them. */
export function storeTimeouts(cfg: Config): StoreTimeouts {
  return { connectMs: cfg.pgConnectTimeoutMs, statementMs: cfg.pgStatementTimeoutMs, acquireMs: cfg.pgPoolAcquireTimeoutMs };
}
