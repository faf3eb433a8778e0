import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { CatalogSnapshot, InstrumentRow } from '../store/catalog.js';
import { DAY_FLAGS, type DayRecord, type DayRecords } from '../store/day-records.js';
import { breadthOf } from '../derived/market-sweep.js';
import type { MarketBreadthTable } from '../store/schema.js';
import type { MarketDayReader } from '../store/readers/market-days.js';

/** One instrument's bar of a market day, with its reference price and limits (prices in 1/1000 CNY). */
export interface MarketBar {
  row: InstrumentRow;
  date: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number | null;
  preClose: number | null;
  up: number | null;
  down: number | null;
}

/** Filters of a cross-section. */
export interface MarketBarFilter {
  kind?: string;
  board?: string;
  /** Only these instruments (internal keys): an index's members that day (query/index-members.ts). */
  members?: ReadonlySet<number>;
}

/** Decoded market days of the latest data versions, kept across requests. */
export class MarketDayCaches {
  readonly days = new CountedCache<string, Promise<DayRecords | null>>('market_days', { max: 32 });
  /** The caches, counted (CacheCounts), for the metrics. */
  readonly all: readonly CacheCounts[] = [this.days];
}

/**
 * Questions across a market on its trading days, from its stored days (derived/market-days.ts):
 * every instrument's bar of a day (a cross-section), and breadth over a date range. Decoded days
 * are cached per data version.
 */
export class MarketDays {
  private readonly cache: MarketDayCaches['days'];

  constructor(
    private readonly days: MarketDayReader,
    private readonly catalog: CatalogSnapshot,
    caches: MarketDayCaches,
    /** The last version that changed what the markets' days up to a date hold (their entries are keyed by it). */
    private readonly versionOf: (date: number) => number,
  ) {
    this.cache = caches.days;
  }

  /** The stored day of `market` on `date` (null: none stored). */
  async day(market: string, date: number): Promise<DayRecords | null> {
    const key = `${this.versionOf(date)}|${market}|${date}`;
    let d = this.cache.get(key);
    if (!d) {
      d = this.days.day(market, date);
      d.catch(() => this.cache.delete(key));
      this.cache.set(key, d);
    }
    return d;
  }

  /** Bars of `market` on `date` matching `f`, in instrument id order, ids after `after`, at most `limit`. */
  async bars(market: string, date: number, f: MarketBarFilter, after: string | null, limit: number): Promise<MarketBar[]> {
    const day = await this.day(market, date);
    if (!day) return [];
    const snap = this.catalog;
    const out: MarketBar[] = [];
    for (let i = 0; i < day.n && out.length < limit; i++) {
      if (!day.has(i, DAY_FLAGS.bar)) continue;
      const row = snap.byInst.get(day.inst[i]);
      if (!row || (after !== null && row.id <= after) || (f.kind && row.kind !== f.kind) || (f.board && row.board !== f.board)) continue;
      if (f.members && !f.members.has(row.inst)) continue;
      out.push({
        row,
        date,
        open: day.open[i],
        high: day.high[i],
        low: day.low[i],
        close: day.close[i],
        volume: day.volume[i],
        amount: day.amount[i] < 0 ? null : day.amount[i],
        preClose: day.preClose(i),
        up: day.up(i),
        down: day.down(i),
      });
    }
    return out;
  }

  /**
   * Breadth of `market` for from <= date <= to after `after`, ascending; of an index's members
   * that day only when `members` is given (computed from the stored day's records as the stored
   * breadth is, derived/market-sweep.ts breadthOf).
   */
  async breadth(
    market: string,
    from: number,
    to: number,
    after: number | null,
    limit: number,
    members?: (date: number) => Promise<ReadonlySet<number>>,
  ): Promise<MarketBreadthTable[]> {
    const rows = await this.days.breadth(market, from, to, after, limit);
    if (!members) return rows;
    const out: MarketBreadthTable[] = [];
    for (const r of rows) {
      const [day, set] = await Promise.all([this.day(market, r.date), members(r.date)]);
      const records: DayRecord[] = [];
      for (let i = 0; day !== null && i < day.n; i++) if (set.has(day.inst[i])) records.push(day.record(i));
      const b = breadthOf(records);
      out.push({
        market,
        date: r.date,
        listed: b.listed,
        advancers: b.advancers,
        decliners: b.decliners,
        unchanged: b.unchanged,
        limit_up: b.limitUp,
        limit_down: b.limitDown,
        suspended: b.suspended,
        volume: b.volume,
        amount: b.amount,
        unknown_amounts: b.unknownAmounts,
      });
    }
    return out;
  }
}
