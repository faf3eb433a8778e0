import { sql, type Kysely } from 'kysely';
import { pageColumnStorage } from './page-storage.js';

/**
 * Bar pages as text (derived/bar-pages.ts): the table is made again with a text column and left
 * empty; `migrate` then renders every page, as it does whenever their version changes (the
 * stored one, from before, is not the code's). On PostgreSQL a page (about 5 KB) is compressed with lz4 and kept in its row
 * (page-storage.ts).
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql.raw('drop table bars_1d_pages').execute(db);
  await sql
    .raw('create table bars_1d_pages (inst integer not null, month integer not null, data text not null, primary key (inst, month))')
    .execute(db);
  if (dialect !== 'postgres') return;
  await pageColumnStorage(db, 'bars_1d_pages', 'data');
}
