import { sql, type Kysely } from 'kysely';

/**
 * How an equity was listed (`instruments.listing_kind`): 'ipo' (a new listing) or 'transfer'
 * (moved from another venue: NEEQ's select tier to the Beijing Stock Exchange on 2021-11-15),
 * which decides whether its first days have price limits (market/limits.ts, `listingKind`).
 * Null, as every existing instrument gets, means the documented default of `listingKind`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table instruments add column listing_kind text').execute(db);
}
