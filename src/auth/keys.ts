import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * API keys look like `mds_<8-char id>_<32-char secret>` (base62). Only the SHA-256 of the
 * whole key is stored; the id locates the row, the hash is compared in constant time.
 * Keys carry 190+ bits of entropy, so a fast hash is the right tool (as GitHub and Stripe do).
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_RE = /^mds_([A-Za-z0-9]{8})_([A-Za-z0-9]{32})$/;

function base62(n: number): string {
  const bytes = randomBytes(n * 2);
  let out = '';
  for (let i = 0; out.length < n && i < bytes.length; i++) {
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62]; // 248 = 4*62: no modulo bias
  }
  return out.length === n ? out : base62(n);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface KeyInfo { id: string; name: string; created_at: string; revoked_at: string | null }

/** Issues, lists, revokes and verifies API keys against the store. */
export class KeyStore {
  private cache = new Map<string, { ok: boolean; until: number }>();

  constructor(private readonly db: Kysely<Database>, private readonly cacheMs = 2000) {}

  /** Creates a key and returns it; the plain key is never stored. */
  async create(name: string): Promise<{ id: string; key: string }> {
    const id = base62(8);
    const key = `mds_${id}_${base62(32)}`;
    await this.db.insertInto('api_keys')
      .values({ id, name, hash: hashKey(key), created_at: new Date().toISOString(), revoked_at: null })
      .execute();
    return { id, key };
  }

  list(): Promise<KeyInfo[]> {
    return this.db.selectFrom('api_keys').select(['id', 'name', 'created_at', 'revoked_at']).orderBy('created_at').orderBy('id').execute();
  }

  /** Revokes by id (or by the full key); returns whether a live key was revoked. */
  async revoke(idOrKey: string): Promise<boolean> {
    const id = KEY_RE.exec(idOrKey)?.[1] ?? idOrKey;
    const r = await this.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    this.cache.clear();
    return Number(r.numUpdatedRows) > 0;
  }

  /** True when `key` is a live key. Results are cached briefly (revocation applies within cacheMs). */
  async verify(key: string): Promise<boolean> {
    const m = KEY_RE.exec(key);
    if (!m) return false;
    const hit = this.cache.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.ok;
    const row = await this.db.selectFrom('api_keys').select(['hash', 'revoked_at']).where('id', '=', m[1]).executeTakeFirst();
    const given = Buffer.from(hashKey(key), 'hex');
    const stored = Buffer.from(row?.hash ?? '0'.repeat(64), 'hex');
    const ok = timingSafeEqual(given, stored) && row !== undefined && row.revoked_at === null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { ok, until: now + this.cacheMs });
    return ok;
  }
}
