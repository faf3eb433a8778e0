import { CountedCache } from '../../lib/counted-cache.js';

/** An instrument's daily packs of one year as stored: `[month, n, data]` rows, months ascending. */
export type PackRows = unknown[][];

/** Bytes a row is counted for besides its data (the row array, its numbers). */
const ROW_OVERHEAD = 64;

/**
 * An instrument's daily packs by year (twelve monthly packs), read once per data version and kept
 * in memory, for a store whose every read costs a network round trip (PostgreSQL:
 * Store.readCost): a daily page is then written from memory, and a request reads nothing but its
 * snapshot's version. A year is what a page of 100 days mostly falls in, small enough that a miss
 * costs about what the page's own read did. Keyed by a version (the last that changed the
 * instrument's bars of that year: query/snapshot.ts), the instrument and the year, so a snapshot
 * reads only entries holding its own version's packs, and a commit of other instruments or years leaves them in use; bounded by bytes (PACK_CACHE_MB), least
 * recently used first out. Concurrent misses of one entry share one read.
 */
export class DailyPackCache {
  private readonly rows: CountedCache<string, PackRows>;
  private readonly reading = new Map<string, Promise<PackRows>>();

  /** Whether anything is kept (a bound of 0 keeps nothing: pages read their packs). */
  readonly enabled: boolean;

  constructor(maxBytes: number) {
    this.enabled = maxBytes > 0;
    this.rows = new CountedCache<string, PackRows>('daily_packs', {
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (rows) => rows.reduce((n, r) => n + ROW_OVERHEAD + (r[2] as Uint8Array).byteLength, 1),
    });
  }

  /** The cache's lookups, counted (for the metrics). */
  get counts() {
    return this.rows;
  }

  /** The instrument's packs of `year` at `version`: from memory, else by `read` (once, whoever asks meanwhile). */
  async get(version: number, inst: number, year: number, read: () => Promise<PackRows>): Promise<PackRows> {
    const key = `${version}:${inst}:${year}`;
    const hit = this.rows.get(key);
    if (hit !== undefined) return hit;
    let pending = this.reading.get(key);
    if (pending === undefined) {
      pending = read().then(
        (rows) => {
          this.reading.delete(key);
          this.rows.set(key, rows);
          return rows;
        },
        (e: unknown) => {
          this.reading.delete(key);
          throw e;
        },
      );
      this.reading.set(key, pending);
    }
    return pending;
  }
}
