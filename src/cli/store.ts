/**
 * How a command gets its store: opened from --database or DATABASE_URL, and closed after it.
 * A store that cannot be opened (or migrated) is a StoreOpenError: exit code 3 from every
 * command (docs/ingest.md, "Exit codes").
 */
import { existsSync } from 'node:fs';
import { loadConfig } from '../app/config.js';
import { migrate, openStore, type MigrateReport } from '../derived/open.js';
import { pendingMigrations } from '../store/migrate.js';
import type { Store } from '../store/types.js';
import { ensureStoreDirectory, shownUrl, storeLocation, StoreUrlError } from '../store/connect.js';

/** The store could not be opened or migrated: every command exits 3 (docs/ingest.md, "Exit codes"). */
export class StoreOpenError extends Error {}

/**
 * Opens the store at `url` (default: the configured one) and runs `prepare` on it, which either
 * fails as a StoreOpenError or gives what `fn` is handed with the store; closes it after `fn`.
 * `create`: a SQLite file that does not exist is made (else it is a StoreOpenError).
 */
async function opened<P, T>(
  url: string | undefined,
  create: boolean,
  prepare: (s: Store) => Promise<P>,
  fn: (s: Store, p: P) => Promise<T>,
): Promise<T> {
  const where = url ?? loadConfig().databaseUrl;
  let store: Store | undefined;
  let prepared: P;
  try {
    const at = storeLocation(where);
    if (!create && at.dialect === 'sqlite' && at.path !== ':memory:' && !existsSync(at.path)) throw new Error('no such file');
    if (create) ensureStoreDirectory(where);
    store = openStore(where);
    prepared = await prepare(store);
  } catch (e) {
    await store?.close().catch(() => {});
    if (e instanceof StoreUrlError) throw new StoreOpenError(e.message);
    throw new StoreOpenError(`cannot open the store ${shownUrl(where)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return await fn(store, prepared);
  } finally {
    await store.close();
  }
}

/** Opens the store named by --database or DATABASE_URL, migrated (`fn` hears what migration did), and closes it after `fn`. */
export function withStore<T>(url: string | undefined, fn: (s: Store, migrated: MigrateReport) => Promise<T>): Promise<T> {
  return opened(url, true, migrate, fn);
}

/**
 * Opens the store as it is, not migrated (what `mds check` examines), and closes it after `fn`,
 * which hears the schema migrations the store lacks.
 */
export function withStoreAsIs<T>(url: string | undefined, fn: (s: Store, pending: string[]) => Promise<T>): Promise<T> {
  return opened(url, false, pendingMigrations, fn);
}
