import { sql, type Kysely } from 'kysely';

/**
 * Bar pages (derived/bar-pages.ts): the JSON of every daily bar pack, keyed as the packs are. Created
 * empty; `migrate` renders them from the packs (derived/registry.ts) because their content is code's
 * output, re-rendered whenever its version changes, not a schema's.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await sql
    .raw(`create table bars_1d_pages (inst integer not null, month integer not null, data ${blob} not null, primary key (inst, month))`)
    .execute(db);
}
