import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { ReadDb } from '../store/types.js';
import { StoreUnavailable } from '../store/health.js';
import { apiKeyById, insertApiKey, listApiKeys, revokeApiKey } from '../store/tables/api-keys.js';

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

export interface KeyInfo {
  id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
  rate_limit: number | null;
}

/** A live key as a request uses it: its id, and its own rate limit (null: the server's RATE_LIMIT; 0: none). */
export interface LiveKey {
  id: string;
  rateLimit: number | null;
}

/**
 * Where keys are read when the primary cannot answer (a store with replicas: docs/scaling.md):
 * `read` run on a replica's snapshot; `primaryDown`: whether the primary's last query failed for
 * want of it (then a key is read there without first waiting on the primary).
 */
export interface KeyFallback {
  onReplica<T>(read: (db: ReadDb) => Promise<T>): Promise<T>;
  primaryDown(): boolean;
}

/**
 * Issues, lists, revokes and verifies API keys against the store. A key's answer is cached for
 * `cacheMs`; after that it is read again, from the primary, else (`fallback`) from a replica,
 * else, while the store cannot answer, the answer cached is kept (another `cacheMs`): a key
 * checked once stays usable through an outage of the primary, and a revocation applies as soon
 * as a read sees it.
 */
export class KeyStore {
  private cache = new Map<string, { live: LiveKey | null; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly cacheMs = 2000,
    private readonly fallback?: KeyFallback,
  ) {}

  /**
   * Creates a key and returns it; the plain key is never stored. `rateLimit`: requests per
   * RATE_LIMIT_WINDOW for this key (0: unlimited); omitted, the server's RATE_LIMIT applies.
   */
  async create(name: string, opts: { rateLimit?: number | null } = {}): Promise<{ id: string; key: string }> {
    const id = base62(8);
    const key = `mds_${id}_${base62(32)}`;
    await insertApiKey(this.db, { id, name, hash: hashKey(key), createdAt: new Date().toISOString(), rateLimit: opts.rateLimit ?? null });
    return { id, key };
  }

  async list(): Promise<KeyInfo[]> {
    const rows = await listApiKeys(this.db);
    return rows.map((r) => ({ ...r, rate_limit: r.rate_limit === null ? null : Number(r.rate_limit) }));
  }

  /** Revokes by id (or by the full key); returns whether a live key was revoked. */
  async revoke(idOrKey: string): Promise<boolean> {
    const id = KEY_RE.exec(idOrKey)?.[1] ?? idOrKey;
    const revoked = await revokeApiKey(this.db, id, new Date().toISOString());
    this.cache.clear();
    return revoked;
  }

  /** True when `key` is a live key. Results are cached briefly (revocation applies within cacheMs). */
  async verify(key: string): Promise<boolean> {
    return (await this.lookup(key)) !== null;
  }

  /** The live key `key`, or null. Cached as `verify` (a changed rate limit also applies within cacheMs). */
  async lookup(key: string): Promise<LiveKey | null> {
    const m = KEY_RE.exec(key);
    if (!m) return null;
    const hit = this.cache.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.live;
    let row: Awaited<ReturnType<typeof apiKeyById>>;
    try {
      row = await this.read(m[1]);
    } catch (e) {
      if (!(hit && e instanceof StoreUnavailable)) throw e;
      hit.until = now + this.cacheMs;
      return hit.live;
    }
    const given = Buffer.from(hashKey(key), 'hex');
    const stored = Buffer.from(row?.hash ?? '0'.repeat(64), 'hex');
    const ok = timingSafeEqual(given, stored) && row !== undefined && row.revoked_at === null;
    const live = ok ? { id: m[1], rateLimit: row!.rate_limit === null ? null : Number(row!.rate_limit) } : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { live, until: now + this.cacheMs });
    return live;
  }

  /**
   * The live key of id `id` (a stream token names its key by id: tokens.ts), or null when no
   * key has that id or it is revoked. Cached as `lookup`.
   */
  async liveById(id: string): Promise<LiveKey | null> {
    if (!/^[A-Za-z0-9]{8}$/.test(id)) return null;
    const at = `id:${id}`;
    const hit = this.cache.get(at);
    const now = Date.now();
    if (hit && hit.until > now) return hit.live;
    let row: Awaited<ReturnType<typeof apiKeyById>>;
    try {
      row = await this.read(id);
    } catch (e) {
      if (!(hit && e instanceof StoreUnavailable)) throw e;
      hit.until = now + this.cacheMs;
      return hit.live;
    }
    const live =
      row !== undefined && row.revoked_at === null ? { id, rateLimit: row.rate_limit === null ? null : Number(row.rate_limit) } : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(at, { live, until: now + this.cacheMs });
    return live;
  }

  /** The row of key `id`: from the primary, else from a replica (`fallback`), else StoreUnavailable. */
  private async read(id: string) {
    const fb = this.fallback;
    if (!fb) return apiKeyById(this.db, id);
    if (!fb.primaryDown())
      try {
        return await apiKeyById(this.db, id);
      } catch (e) {
        if (!(e instanceof StoreUnavailable)) throw e;
      }
    return fb.onReplica((db) => apiKeyById(db, id));
  }
}
