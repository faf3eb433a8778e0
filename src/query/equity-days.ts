import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import { decodedAmount } from '../store/schema.js';
import type { CatalogSnapshot, InstrumentRow } from '../store/catalog.js';
import type { CorporateAction } from '../market/adjust.js';
import type { BoardId, MarketId } from '../market/types.js';
import { dayLimits, reformEnd, sinceListing, stOn, suspendedToEnd, type DayLimit } from '../market/day-limits.js';
import { hasReformMark } from '../market/limits.js';
import type { TradingCalendar } from '../market/calendar.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { EquityDayReader } from '../store/readers/equity-days.js';
import type { Calendars } from './calendars.js';

interface Meta {
  st: { start_date: number; end_date: number | null }[];
  actions: Map<number, CorporateAction>;
  firstBar: number | null;
  lastBar: number | null;
  /** First day of a loaded suspension without an end, null when none. */
  openSuspension: number | null;
  /** When the `S` mark of its name stops holding (reformEnd); null: never, or no mark. */
  reformedFrom: number | null;
}

/** What an equity's Meta reads of it (EquityDayReader.equity). */
const META_DATASETS = ['bars_1d', 'bars_1m', 'corporate_actions', 'st_periods', 'suspensions'];

/** What EquityDays keeps across requests, keyed by data version (an equity's: the last that changed it). */
export class EquityDayCaches {
  readonly meta = new CountedCache<string, Meta>('equity_days', { max: 20_000 });
  readonly latest = new CountedCache<string, number>('latest_trading_day', { max: 16 });
  /** The caches, counted (CacheCounts), for the metrics. */
  readonly all: readonly CacheCounts[] = [this.meta, this.latest];
}

/**
 * Per-equity daily states (price limits and the bars they bound) for any window, from the
 * store: the previous close before the window, corporate actions, ST periods and listing age.
 */
export class EquityDays {
  private readonly meta: EquityDayCaches['meta'];
  private readonly latest: EquityDayCaches['latest'];

  constructor(
    private readonly days: EquityDayReader,
    private readonly catalog: CatalogSnapshot,
    private readonly reader: MarketDataReader,
    private readonly calendars: Calendars,
    caches: EquityDayCaches,
    /** The last version that changed an instrument (by internal key), or only `datasets` of it. */
    private readonly versionOf: (inst: number, datasets?: readonly string[]) => number,
    /** The last version that may have moved the last bar date (of `market`'s instruments when given). */
    private readonly lastBarVersion: (market?: string) => number = () => catalog.version,
  ) {
    ({ meta: this.meta, latest: this.latest } = caches);
  }

  /** Latest trading day with any daily bar in the store (of `market`'s instruments when given): the data's "today". */
  async latestDate(market?: string): Promise<number | null> {
    const key = `${this.lastBarVersion(market)}|${market ?? ''}`;
    let d = this.latest.get(key);
    if (d === undefined) {
      d = await this.days.latestBarDate(market);
      this.latest.set(key, d);
    }
    return d || null;
  }

  private async metaOf(inst: InstrumentRow): Promise<Meta> {
    const marked = hasReformMark(inst.name);
    // A marked name's reform end depends on the instrument's record too.
    const key = `${this.versionOf(inst.inst, marked ? [...META_DATASETS, 'instruments'] : META_DATASETS)}|${inst.inst}`;
    let m = this.meta.get(key);
    if (!m) {
      const { st, actions, firstBar, lastBar, openSuspension } = await this.days.equity(inst.inst);
      m = { st, actions: new Map(actions.map((a) => [a.ex_date, a])), firstBar, lastBar, openSuspension, reformedFrom: null };
      if (marked && firstBar !== null && lastBar !== null) m.reformedFrom = await this.reformEndOf(inst, m, firstBar, lastBar);
      this.meta.set(key, m);
    }
    return m;
  }

  /** reformEnd of an equity whose name carries the `S` mark, from its whole daily history. */
  private async reformEndOf(inst: InstrumentRow, m: Meta, firstBar: number, lastBar: number): Promise<number | null> {
    const cal = await this.calendars.of(inst.market);
    const days = cal.between(Math.max(inst.list_date ?? 0, firstBar), lastBar);
    const rows = await this.reader.dailyBars(inst.inst, firstBar, lastBar, null, days.length + 1);
    return reformEnd({
      ...this.limitInput(inst, cal, m),
      days,
      prevBar: null,
      bars: new Map(rows.map((r) => [r.date, r])),
    });
  }

  private limitInput(inst: InstrumentRow, cal: TradingCalendar, m: Meta) {
    return {
      board: inst.board as BoardId,
      market: inst.market as MarketId,
      listDate: inst.list_date,
      listingKind: inst.listing_kind,
      name: inst.name,
      reformedFrom: m.reformedFrom,
      sinceListing: sinceListing(cal, inst.list_date),
      isSt: stOn(m.st),
      actions: m.actions,
    };
  }

  /**
   * Day states of an equity for trading days in [from, to] after `after`, at most `limit`: from
   * the listing day (or the first day whose previous close is in the store) to the equity's last
   * stored bar, or to its market's latest stored day while a loaded suspension is open
   * (suspendedToEnd); the day before its delisting at the latest; on its market's calendar.
   */
  async limits(inst: InstrumentRow, from: number, to: number, after: number | null, limit: number): Promise<DayLimit[]> {
    const m = await this.metaOf(inst);
    if (m.firstBar === null || m.lastBar === null) return [];
    const cal = await this.calendars.of(inst.market);
    const last = suspendedToEnd(cal, m.lastBar, m.openSuspension) ? ((await this.latestDate(inst.market)) ?? m.lastBar) : m.lastBar;
    const end = Math.min(to, last, inst.delist_date === null ? Infinity : inst.delist_date - 1);
    // Rows need a known base: the listing day itself, or the day after the first stored bar (also
    // when the listing date is unknown: listed before the first stored bar).
    const first =
      inst.list_date !== null && inst.list_date >= m.firstBar ? inst.list_date : (cal.at(cal.indexOnOrAfter(m.firstBar) + 1) ?? Infinity);
    const startIdx = cal.indexOnOrAfter(Math.max(from, first, after === null ? 0 : after + 1));
    const days: number[] = [];
    for (let i = startIdx; i < cal.days.length && cal.days[i] <= end && days.length < limit; i++) days.push(cal.days[i]);
    if (!days.length) return [];
    const rows = await this.reader.dailyBars(inst.inst, days[0], days[days.length - 1], null, days.length);
    const prev = await this.days.barBefore(inst.inst, days[0]);
    return dayLimits({
      ...this.limitInput(inst, cal, m),
      days,
      prevBar: prev ? { ts: 0, ...decodedAmount(prev) } : null,
      bars: new Map(rows.map((r) => [r.date, r])),
    });
  }
}
