import { sql, type Kysely } from 'kysely';

/**
 * Daily bar pages are written from the packs as they are read (store/packs.ts PackSlices) instead
 * of stored: `bars_1d_pages` and its version in `meta` go. They were two thirds of a
 * whole-market store (272 bytes a bar) and a third of its ingest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table bars_1d_pages').execute(db);
  await sql.raw("delete from meta where key = 'bar_pages'").execute(db);
}
