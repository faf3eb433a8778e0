import { sql, type Kysely } from 'kysely';

/**
 * Where an instrument's listing date came from (docs/ingest.md, "Whole market: a Tongdaxin
 * folder"): `exchange` (loaded from an instruments or stock_basic file), `first_bar` (inferred
 * from its first stored bar by `mds ingest --tdx`) or `before_first_bar` (unknown: it traded on
 * the folder's first day, so it listed before; list_date is null). Null when nothing is known.
 * Listing dates stored before this migration were loaded from files: `exchange`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table instruments add column list_date_source text').execute(db);
  await sql.raw("update instruments set list_date_source = 'exchange' where list_date is not null").execute(db);
}
