import { connect } from '../store/connect.js';
import { migrateSchema } from '../store/migrate.js';
import type { Store, StoreTimeouts } from '../store/types.js';
import { withBarPacks } from './bar-packs.js';
import { ensureDerived } from './ensure.js';

/**
 * Opens a store (`postgres://…` / `postgresql://…`, else a SQLite file path) whose writes keep
 * the derived data current: bar packs, and the pages and indicator states made from them
 * (withBarPacks). Everything that writes bars opens its store here.
 * @example const store = openStore('data/mds.sqlite'); await migrate(store);
 */
export function openStore(url: string, timeouts?: StoreTimeouts): Store {
  return withBarPacks(connect(url, timeouts));
}

/**
 * Applies pending schema migrations (store/migrate.ts), then makes again the derived data whose
 * rendition changed (ensureDerived); returns the migrations applied.
 */
export async function migrate(store: Store): Promise<string[]> {
  const applied = await migrateSchema(store);
  await ensureDerived(store);
  return applied;
}
