import { LRUCache } from 'lru-cache';

/** Lookups of a cache: found (`hits`) or not (`misses`), since it was made. */
export interface CacheCounts {
  readonly name: string;
  readonly hits: number;
  readonly misses: number;
}

/**
 * An LRU cache (lru-cache) that counts its lookups, so the service's caches can be watched
 * (`mds_cache_lookups_total`, docs/operations.md "Metrics"): every `get` is a hit or a miss. The
 * count is two integers, nothing per key.
 * @example const c = new CountedCache<string, Bar[]>('bar_series', { max: 512 }); c.get(k); c.hits;
 */
export class CountedCache<K extends {}, V extends {}> extends LRUCache<K, V> implements CacheCounts {
  hits = 0;
  misses = 0;

  constructor(
    readonly name: string,
    options: LRUCache.Options<K, V, unknown>,
  ) {
    super(options);
  }

  override get(key: K, options?: LRUCache.GetOptions<K, V, unknown>): V | undefined {
    const v = super.get(key, options);
    if (v === undefined) this.misses++;
    else this.hits++;
    return v;
  }
}
