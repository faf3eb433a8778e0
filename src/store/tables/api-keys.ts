/** Statements on `api_keys` (auth/keys.ts: keys are issued, listed, revoked and verified). */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { ReadDb } from '../types.js';

/** Stores a new live key: its id, name, the hash of the whole key, when it was made, and its own rate limit (null: the server's). */
export async function insertApiKey(
  db: Kysely<Database>,
  key: { id: string; name: string; hash: string; createdAt: string; rateLimit: number | null },
): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      name: key.name,
      hash: key.hash,
      created_at: key.createdAt,
      revoked_at: null,
      ...(key.rateLimit === null ? {} : { rate_limit: key.rateLimit }),
    })
    .execute();
}

/** Every key, live and revoked (never its hash), in the order made. */
export function listApiKeys(db: ReadDb) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'created_at', 'revoked_at', 'rate_limit'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Revokes the live key `id` at `at`; returns whether there was one. */
export async function revokeApiKey(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** What verifying key `id` needs: its hash, whether it is revoked and its rate limit; undefined when there is no such key. */
export function apiKeyById(db: ReadDb, id: string) {
  return db.selectFrom('api_keys').select(['hash', 'revoked_at', 'rate_limit']).where('id', '=', id).executeTakeFirst();
}
