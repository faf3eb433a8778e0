import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { Catalog } from '../store/catalog.js';
import type { ReferenceReader } from '../store/readers/reference.js';
import { effectiveCalendars, type TradingCalendar } from '../market/calendar.js';
import type { MarketId } from '../market/types.js';

/**
 * The trading calendars a store answers with: the shipped calendar of each market with the
 * store's loaded trading days applied (market/calendar.ts effectiveCalendars), per data version.
 */
export class Calendars {
  private cache = new CountedCache<string, Promise<Record<MarketId, TradingCalendar>>>('calendars', { max: 4 });

  /** The caches, counted (CacheCounts), for the metrics. */
  readonly caches: readonly CacheCounts[] = [this.cache];

  constructor(private readonly reference: ReferenceReader, private readonly catalog: Catalog) {}

  async all(): Promise<Record<MarketId, TradingCalendar>> {
    const v = await this.catalog.dataVersion();
    let c = this.cache.get(v);
    if (!c) {
      c = this.reference.loadedTradingDays().then(effectiveCalendars);
      c.catch(() => this.cache.delete(v));
      this.cache.set(v, c);
    }
    return c;
  }

  async of(market: string): Promise<TradingCalendar> {
    return (await this.all())[market as MarketId];
  }

  /** True when any market trades on `date`. */
  async anyTradingDay(date: number): Promise<boolean> {
    return Object.values(await this.all()).some((c) => c.isTradingDay(date));
  }
}
