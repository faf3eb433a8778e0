import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { ReferenceReader } from '../store/readers/reference.js';
import { effectiveCalendars, type TradingCalendar } from '../market/calendar.js';
import type { MarketId } from '../market/types.js';

/** The calendars of the latest data versions, kept across requests. */
export class CalendarCaches {
  readonly calendars = new CountedCache<number, Promise<Record<MarketId, TradingCalendar>>>('calendars', { max: 4 });
  /** The caches, counted (CacheCounts), for the metrics. */
  readonly all: readonly CacheCounts[] = [this.calendars];
}

/**
 * The trading calendars a store answers with: the shipped calendar of each market with the
 * store's loaded trading days applied (market/calendar.ts effectiveCalendars), of one read
 * snapshot's data version (read once per version).
 */
export class Calendars {
  private readonly cache: CalendarCaches['calendars'];

  constructor(
    private readonly reference: ReferenceReader,
    private readonly version: number,
    caches: CalendarCaches,
  ) {
    this.cache = caches.calendars;
  }

  async all(): Promise<Record<MarketId, TradingCalendar>> {
    const v = this.version;
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
