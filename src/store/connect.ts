import type { Store, StoreTimeouts } from './types.js';
import { openSqlite } from './dialects/sqlite.js';
import { openPostgres } from './dialects/postgres.js';

/**
 * `postgres://…` / `postgresql://…` opens PostgreSQL; anything else is a SQLite file path. The
 * connection alone: derived/open.ts opens a store whose writes keep the derived data current.
 */
export function connect(url: string, timeouts?: StoreTimeouts): Store {
  return /^postgres(ql)?:\/\//.test(url) ? openPostgres(url, timeouts) : openSqlite(url);
}
