import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: the primary keys of `bars_1d` and `bars_1m` no longer INCLUDE the bars' columns.
 * They were for index-only scans of the request path, which reads the bar packs instead since
 * migration 0003; the covering key made the daily bars 161 bytes a bar instead of about 110 (a
 * second copy of every bar), and every insert wrote it. SQLite's tables are their keys (without
 * rowid): nothing changes there.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [table, key] of [
    ['bars_1d', 'inst, date'],
    ['bars_1m', 'inst, ts'],
  ]) {
    await sql.raw(`alter table ${table} drop constraint ${table}_pkey, add primary key (${key})`).execute(db);
  }
}
