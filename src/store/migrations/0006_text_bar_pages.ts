import { sql, type Kysely } from 'kysely';

/**
 * Bar pages as text (store/bar-pages.ts, rendition 2): the table is made again with a text
 * column and left empty; `migrate` then renders every page, as it does whenever the rendition
 * changes. On PostgreSQL a page (about 5 KB) is compressed with lz4 where the server has it
 * (PostgreSQL 14+ built with lz4; pglz otherwise), which decompresses several times faster than
 * pglz on every read, and kept in its row (storage main) rather than in the TOAST table, which
 * would cost every page read an index lookup more.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql.raw('drop table bars_1d_pages').execute(db);
  await sql.raw('create table bars_1d_pages (inst integer not null, month integer not null, data text not null, primary key (inst, month))').execute(db);
  if (dialect !== 'postgres') return;
  await sql.raw('alter table bars_1d_pages alter column data set storage main').execute(db);
  await sql.raw(`do $$ begin
    alter table bars_1d_pages alter column data set compression lz4;
  exception when feature_not_supported or invalid_parameter_value then
    null; -- a server without lz4 keeps pglz
  end $$`).execute(db);
}
