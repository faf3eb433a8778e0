import { sql, type Kysely } from 'kysely';

/**
 * On PostgreSQL, a page column (text of a few KB read whole on every request) is compressed
 * with lz4 where the server has it (PostgreSQL 14+ built with lz4; pglz otherwise), which
 * decompresses several times faster than pglz, and kept in its row (storage main) rather than in
 * the TOAST table, which would cost every page read an index lookup more.
 */
export async function pageColumnStorage(db: Kysely<any>, table: string, column: string): Promise<void> {
  await sql.raw(`alter table ${table} alter column ${column} set storage main`).execute(db);
  await sql
    .raw(
      `do $$ begin
    alter table ${table} alter column ${column} set compression lz4;
  exception when feature_not_supported or invalid_parameter_value then
    null; -- a server without lz4 keeps pglz
  end $$`,
    )
    .execute(db);
}
