import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect, Store } from './types.js';
import * as m0001 from './migrations/0001_core.js';
import * as m0002 from './migrations/0002_fundamentals.js';
import * as m0003 from './migrations/0003_bar_packs.js';
import * as m0004 from './migrations/0004_bar_pages.js';
import * as m0005 from './migrations/0005_indicator_states.js';
import * as m0006 from './migrations/0006_text_bar_pages.js';
import * as m0007 from './migrations/0007_indicator_pages.js';
import * as m0008 from './migrations/0008_markets_calendar.js';
import * as m0009 from './migrations/0009_adj_factors.js';
import * as m0010 from './migrations/0010_derived_daily_bars.js';
import * as m0011 from './migrations/0011_key_rate_limits.js';
import * as m0012 from './migrations/0012_listing_kind.js';
import * as m0013 from './migrations/0013_list_date_source.js';
import * as m0014 from './migrations/0014_market_days.js';
import * as m0015 from './migrations/0015_drop_bar_pages.js';
import * as m0016 from './migrations/0016_bar_keys.js';
import * as m0017 from './migrations/0017_data_versions.js';
import * as m0018 from './migrations/0018_margin_trading.js';
import * as m0019 from './migrations/0019_suspensions.js';
import * as m0020 from './migrations/0020_share_capital.js';
import * as m0021 from './migrations/0021_version_notify.js';
import * as m0022 from './migrations/0022_statement_versions.js';
import * as m0026 from './migrations/0026_pinyin_initials.js';
import * as m0027 from './migrations/0027_tdx_files.js';
import * as m0028 from './migrations/0028_minute_partitions.js';
import * as m0029 from './migrations/0029_index_weights.js';

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
  '0012_listing_kind': m0012,
  '0013_list_date_source': m0013,
  '0014_market_days': m0014,
  '0015_drop_bar_pages': m0015,
  '0016_bar_keys': m0016,
  '0017_data_versions': m0017,
  '0018_margin_trading': m0018,
  '0019_suspensions': m0019,
  '0020_share_capital': m0020,
  '0021_version_notify': m0021,
  '0022_statement_versions': m0022,
  '0026_pinyin_initials': m0026,
  '0027_tdx_files': m0027,
  '0028_minute_partitions': m0028,
  '0029_index_weights': m0029,
};

/** The names of the schema migrations, in order. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/** A Kysely migrator of `store` over MIGRATIONS. */
function migrator(store: Store): Migrator {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(MIGRATIONS)) out[name] = { up: (db) => m.up(db, store.dialect) };
      return out;
    },
  };
  return new Migrator({ db: store.db, provider });
}

/**
 * The schema migrations not applied to `store` yet (all of them when it has none), without
 * applying them: what `mds check` reports on a store that was not migrated.
 */
export async function pendingMigrations(store: Store): Promise<string[]> {
  return (await migrator(store).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * Applies the pending schema migrations (those up to `upTo` included, when named: a store as an
 * older release left it, for the tests of a later migration); returns those applied. The schema
 * only: derived data is made again by derived/open.ts `migrate`.
 */
export async function migrateSchema(store: Store, upTo?: string): Promise<string[]> {
  if (upTo !== undefined && !MIGRATION_NAMES.includes(upTo)) throw new Error(`no migration ${upTo}`);
  const m = migrator(store);
  const { error, results } = await (upTo === undefined ? m.migrateToLatest() : m.migrateTo(upTo));
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
