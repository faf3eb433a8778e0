import { sql, type Kysely } from 'kysely';

/**
 * Bar pages (store/bar-pages.ts): the JSON of every bar pack, keyed as the packs are. Created
 * empty; `migrate` renders them from the packs (rebuildBarPages) because their content is code's
 * output, re-rendered whenever the rendition changes, not a schema's.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  for (const [name, key] of [['bars_1d_pages', 'month'], ['bars_1m_pages', 'date']]) {
    await sql.raw(`create table ${name} (inst integer not null, ${key} integer not null, data ${blob} not null, primary key (inst, ${key}))`).execute(db);
  }
}
