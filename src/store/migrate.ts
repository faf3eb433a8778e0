import { readdirSync } from 'node:fs';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect, Store } from './types.js';

/** A migration's module: `up` of the schema of a store of `d`. */
type MigrationModule = { up(db: Kysely<any>, d: Dialect): Promise<void> };

const FOLDER = new URL('./migrations/', import.meta.url);
/** A migration's file: a 4-digit number, its name, .ts (sources) or .js (dist/). */
const FILE = /^(\d{4})_([a-z0-9_]+)\.(?:ts|js)$/;

/**
 * The migrations of `files` (a folder's names), by name in order: every `NNNN_name.ts` (or .js);
 * other files (page-storage.ts, a helper) are not migrations. Two of one number are refused:
 * migrations are applied by name in order, so a number is taken once.
 */
export function migrationFiles(files: readonly string[]): { name: string; file: string }[] {
  const out = files
    .map((file) => ({ file, m: FILE.exec(file) }))
    .filter((x): x is { file: string; m: RegExpExecArray } => x.m !== null)
    .map(({ file, m }) => ({ name: `${m[1]}_${m[2]}`, file }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  for (let i = 1; i < out.length; i++)
    if (out[i].name.slice(0, 4) === out[i - 1].name.slice(0, 4))
      throw new Error(
        `migrations ${out[i - 1].file} and ${out[i].file} share the number ${out[i].name.slice(0, 4)}: renumber the newer one`,
      );
  return out;
}

/** The migrations folder's, read once: a new migration is a file there, nothing else. */
const MIGRATIONS = migrationFiles(readdirSync(FOLDER));

/** The names of the schema migrations, in order. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map((m) => m.name);

/** A Kysely migrator of `store` over MIGRATIONS. */
function migrator(store: Store): Migrator {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const { name, file } of MIGRATIONS) {
        const m = (await import(new URL(file, FOLDER).href)) as MigrationModule;
        out[name] = { up: (db) => m.up(db, store.dialect) };
      }
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
