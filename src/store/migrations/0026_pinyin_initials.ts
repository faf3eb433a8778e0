import { sql, type Kysely } from 'kysely';

/**
 * An instrument's pinyin initials as a vendor writes them (`GZMT` for 贵州茅台: Tongdaxin's name
 * tables, read by `mds ingest --tdx`), searched beside the initials the service makes of the
 * name (query/search.ts). Null when none was loaded. Frozen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table instruments add column pinyin_initials text').execute(db);
}
