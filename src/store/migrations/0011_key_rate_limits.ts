import { sql, type Kysely } from 'kysely';

/**
 * A rate limit per API key (`mds keys create --rate N`): requests per RATE_LIMIT_WINDOW for
 * that key, overriding RATE_LIMIT (0: unlimited). Null, as every existing key gets, means the
 * server's RATE_LIMIT applies (http/plugins/rate-limit.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table api_keys add column rate_limit integer').execute(db);
}
