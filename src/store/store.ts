import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import { openSqlite } from './dialects/sqlite.js';
import { openPostgres } from './dialects/postgres.js';
import * as m0001 from './migrations/0001_core.js';
import * as m0002 from './migrations/0002_fundamentals.js';
import * as m0003 from './migrations/0003_bar_packs.js';
import * as m0004 from './migrations/0004_bar_pages.js';
import * as m0005 from './migrations/0005_indicator_states.js';
import * as m0006 from './migrations/0006_text_bar_pages.js';
import { withBarPacks } from './bar-packs.js';
import { ensureBarPages } from './bar-pages.js';
import { ensureIndicatorStates } from './indicator-states.js';
import { ensureIndicatorPages } from './indicator-pages.js';
import * as m0007 from './migrations/0007_indicator_pages.js';
import * as m0008 from './migrations/0008_markets_calendar.js';
import * as m0010 from './migrations/0010_derived_daily_bars.js';
import * as m0009 from './migrations/0009_adj_factors.js';
import * as m0011 from './migrations/0011_key_rate_limits.js';
import { randomBytes } from 'node:crypto';
import type { StoreHealth } from './health.js';

export type Dialect = 'sqlite' | 'postgres';

/** A table written by natural key: `key` columns identify a row, the other `columns` are its payload. */
export interface UpsertTarget { table: keyof Database & string; columns: string[]; key: string[] }
export interface UpsertCounts { inserted: number; updated: number; unchanged: number }

/**
 * One transaction of `Store.bulkTransaction`: reads see the transaction's own writes.
 * `upsert` writes rows (values in `columns` order) by natural key, in order: a new key is
 * inserted, a stored row that differs is replaced, an equal one is left alone (and counted).
 * Bars are written by `upsert` only, never by `query`: the store merges what it writes into
 * their packs (store/bar-packs.ts), which stay equal to the bars only if nothing else writes them.
 */
export interface BulkSession {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** As `query` for a read, rows as arrays in column order (cheaper to build for many rows). */
  queryRows(sql: string, params?: unknown[]): Promise<unknown[][]>;
  upsert(target: UpsertTarget, rows: unknown[][]): Promise<UpsertCounts>;
}

/**
 * A connection to one store. Everything above this seam is dialect-agnostic.
 * @example const store = openStore('data/mds.sqlite'); await migrate(store);
 */
export interface Store {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /** Inserts many rows fast (prepared statement in one transaction / batched multi-row insert). */
  bulkInsert(table: keyof Database & string, columns: string[], rows: unknown[][]): Promise<void>;
  /**
   * Runs a hot read with `?` placeholders through a cached prepared statement (better-sqlite3
   * statement cache; PostgreSQL named statements). For the keyset reads on the request path.
   */
  select<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** As `select`, rows as arrays in column order (cheaper to build than objects in the driver). */
  selectRows(sql: string, params: unknown[]): Promise<unknown[][]>;
  /**
   * Runs `fn` in one transaction on one connection: commits when it resolves, rolls back when it
   * throws (or the process dies). Readers see the old snapshot until the commit. `readOnly`
   * takes a consistent read snapshot and no write lock (export, dry runs).
   */
  bulkTransaction<T>(fn: (s: BulkSession) => Promise<T>, opts?: { readOnly?: boolean }): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * What the store's queries tell of its health. A query that fails for want of the store
   * (down, unreachable, frozen, unreadable) throws `StoreUnavailable` (store/health.ts).
   */
  readonly health: StoreHealth;
}

/**
 * Bounds on waiting for PostgreSQL (ms; 0 = none), for the server's request path. Bulk
 * transactions (ingest, migrations) run without the statement timeout.
 */
export interface StoreTimeouts {
  /** Opening a connection (TCP, startup, authentication). */
  connectMs: number;
  /** One statement (server-side `statement_timeout`; the client gives up 1 s later if the server does not answer at all). */
  statementMs: number;
  /** Waiting for a pooled connection, opening one included. */
  acquireMs: number;
}

/**
 * `postgres://…` / `postgresql://…` opens PostgreSQL; anything else is a SQLite file path.
 * Every store keeps its bar packs current as it writes bars (store/bar-packs.ts).
 */
export function openStore(url: string, timeouts?: StoreTimeouts): Store {
  return withBarPacks(/^postgres(ql)?:\/\//.test(url) ? openPostgres(url, timeouts) : openSqlite(url));
}

const MIGRATIONS: Record<string, { up(db: Kysely<any>, d: Dialect): Promise<void> }> = {
  '0001_core': m0001,
  '0002_fundamentals': m0002,
  '0003_bar_packs': m0003,
  '0004_bar_pages': m0004,
  '0005_indicator_states': m0005,
  '0006_text_bar_pages': m0006,
  '0007_indicator_pages': m0007,
  '0008_markets_calendar': m0008,
  '0009_adj_factors': m0009,
  '0010_derived_daily_bars': m0010,
  '0011_key_rate_limits': m0011,
};

/**
 * Records a new `meta.data_version` in session `s` (running servers drop what they cached of the
 * old data at their next check) and returns it.
 */
export async function bumpDataVersion(s: BulkSession): Promise<string> {
  const version = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  await s.query('insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value', ['data_version', version]);
  return version;
}

/** Applies pending migrations, then renders the bar pages and folds the indicator states if stale; returns the migrations applied. */
export async function migrate(store: Store): Promise<string[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(MIGRATIONS)) out[name] = { up: (db) => m.up(db, store.dialect) };
      return out;
    },
  };
  const { error, results } = await new Migrator({ db: store.db, provider }).migrateToLatest();
  if (error) throw error;
  // Bar pages and indicator states are code's output: made again whenever their rendition changes.
  await ensureBarPages(store);
  await ensureIndicatorStates(store);
  await ensureIndicatorPages(store);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
