import { connect } from '../store/connect.js';
import { MIGRATION_NAMES, migrateSchema } from '../store/migrate.js';
import type { Store, StoreTimeouts } from '../store/types.js';
import { withBarPacks } from './bar-packs.js';
import { describeRebuilt, ensureDerived, type Rebuilt } from './ensure.js';

/**
 * Opens a store (`postgres://…` / `postgresql://…`, else a SQLite file path) whose writes keep
 * the derived data current: bar packs, and the pages and indicator states made from them
 * (withBarPacks). Everything that writes bars opens its store here.
 * @example const store = openStore('data/mds.sqlite'); await migrate(store);
 */
export function openStore(url: string, timeouts?: StoreTimeouts, replicaUrls?: readonly string[]): Store {
  return withBarPacks(connect(url, timeouts, replicaUrls));
}

/** What `migrate` did: the schema migrations it applied, and the derivations it made again and why. */
export interface MigrateReport {
  applied: string[];
  rebuilt: Rebuilt[];
}

/**
 * Applies pending schema migrations (store/migrate.ts), then makes again the derived data whose
 * stored version is not the code's (ensureDerived); returns what it did.
 */
export async function migrate(store: Store): Promise<MigrateReport> {
  const applied = await migrateSchema(store);
  return { applied, rebuilt: await ensureDerived(store) };
}

/**
 * A report as lines: the migrations applied ("applied 0010_x, 0011_y", or "schema up to date
 * (11 migrations)"), then one line per derivation rebuilt (describeRebuilt).
 */
export function describeMigration(r: MigrateReport): string[] {
  return [
    r.applied.length ? `applied ${r.applied.join(', ')}` : `schema up to date (${MIGRATION_NAMES.length} migrations)`,
    ...r.rebuilt.map(describeRebuilt),
  ];
}
