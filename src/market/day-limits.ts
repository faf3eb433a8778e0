import type { BoardId, Bar, MarketId } from './types.js';
import { hasReformMark, limitPrices, limitRounding, limitRule, listingKind } from './limits.js';
import { referencePrice, type CorporateAction } from './adjust.js';
import type { TradingCalendar } from './calendar.js';

/** One equity's price-limit state on one trading day (prices in 1/1000 CNY). */
export interface DayLimit {
  date: number;
  /** Ex-rights reference of the previous close; null when no earlier close is known (listing day). */
  preClose: number | null;
  up: number | null;
  down: number | null;
  ratioPct: number | null;
  reason: string;
  st: boolean;
  /** 1 on the listing day; null when the listing date is unknown (listed before the first stored bar). */
  listingDay: number | null;
  /** The day's bar, or null when suspended. */
  bar: Bar | null;
}

export interface DayLimitInput {
  /** Trading days to evaluate, ascending, none before the listing date. */
  days: number[];
  board: BoardId;
  market: MarketId;
  /** Null when unknown: taken as listed long before (no new-listing days; see sinceListing). */
  listDate: number | null;
  /** The instrument record's `listing_kind` (null: the default of `listingKind`). */
  listingKind: string | null;
  /**
   * The equity's name, as stored (its current one): an `S` mark (hasReformMark) says it has not
   * been through the split-share reform, so its limit is 5% (limits.ts). Null: no name known.
   */
  name: string | null;
  /**
   * The first date the name's `S` mark no longer holds, the exchange's own trades having shown the
   * share through its reform (reformEnd); null or absent: the mark holds on every date.
   */
  reformedFrom?: number | null;
  /** 0-based trading-day index of a date since listing (0 = listing day). */
  sinceListing: (date: number) => number;
  isSt: (date: number) => boolean;
  actions: ReadonlyMap<number, CorporateAction>;
  /** Last bar before days[0], if any. */
  prevBar: Bar | null;
  bars: ReadonlyMap<number, Bar>;
}

/**
 * Price limits day by day (CONTRACT.md §6): limit = reference × (1 ± r), where the reference is
 * the previous close adjusted by that day's ex-rights event; r by board, ST status and the days
 * since listing. A suspended day keeps the last close as its base.
 */
export function dayLimits(input: DayLimitInput): DayLimit[] {
  let last = input.prevBar?.close ?? null;
  const kind = listingKind(input.market, input.listDate ?? 0, input.listingKind);
  const marked = hasReformMark(input.name);
  const reformedFrom = input.reformedFrom ?? Infinity;
  const out: DayLimit[] = [];
  for (const date of input.days) {
    const reformPending = marked && date < reformedFrom;
    const action = input.actions.get(date);
    const pre = last === null ? null : action ? referencePrice(last, action) : last;
    const st = input.isSt(date);
    const idx = input.sinceListing(date);
    const rule = limitRule({
      board: input.board,
      market: input.market,
      st,
      date,
      listDate: input.listDate ?? 0,
      tradingDayIndexSinceListing: idx,
      listingKind: kind,
      reformPending,
    });
    const lim =
      pre !== null && rule.ratioPct !== null ? limitPrices(pre, rule.ratioPct, undefined, limitRounding(input.market, date)) : null;
    const bar = input.bars.get(date) ?? null;
    out.push({
      date,
      preClose: pre,
      up: lim?.up ?? null,
      down: lim?.down ?? null,
      ratioPct: lim ? rule.ratioPct : null,
      reason: rule.reason,
      st,
      listingDay: Number.isFinite(idx) ? idx + 1 : null,
      bar,
    });
    // A suspended day keeps its base: the last close, or its ex-rights reference when the ex-date fell in the suspension.
    last = bar ? bar.close : pre;
  }
  return out;
}

/**
 * When the `S` mark of an equity's name (hasReformMark) stops holding: the first day, of its
 * whole daily history in `input` (every trading day from its listing or first bar, its bars,
 * ex-dates and ST periods), whose close lies beyond the 5% limits of a share not through the
 * split-share reform and within the 10% limits of the same reference: a move the exchange let
 * only a reformed share make (a name, a Tongdaxin name table of 2017 among them, is as of its own
 * date, not of every later day). A close beyond both says the reference is in doubt (a missing
 * ex-date, the reform's resumption day itself, which has no limit), not which limit held.
 * S前锋 (600733.SH, in a 2017 name table) resumed on 2018-09-27 as 北汽蓝谷 after its reform
 * and closed 10% up the next day; S佳通 (600182.SH) never closed beyond 5% and keeps its mark.
 * Null when the mark holds on every day, or the name has none.
 */
export function reformEnd(input: DayLimitInput): number | null {
  if (!hasReformMark(input.name)) return null;
  for (const d of dayLimits({ ...input, reformedFrom: null })) {
    if (d.reason !== 'share_reform_pending' || d.bar === null || d.up === null || d.down === null || d.preClose === null) continue;
    const { close } = d.bar;
    if (close <= d.up && close >= d.down) continue;
    const ten = limitPrices(d.preClose, 10, undefined, limitRounding(input.market, d.date));
    if (close <= ten.up && close >= ten.down) return d.date;
  }
  return null;
}

/**
 * 0-based trading-day index of `date` since the listing day in `cal` (0 = the first trading day
 * on or after the listing date): listing age counts from the listing, however old. An unknown
 * listing date (null: listed before the equity's first stored bar, docs/ingest.md) is taken as
 * long before: Infinity, so no day is a new-listing day.
 */
export function sinceListing(cal: TradingCalendar, listDate: number | null): (date: number) => number {
  if (listDate === null) return () => Infinity;
  const listIdx = cal.indexOnOrAfter(listDate);
  return (d) => (cal.ordinal(d) ?? cal.indexOnOrAfter(d)) - listIdx;
}

/** Under risk warning on `d` by the equity's ST periods (inclusive; an open period has no end). */
export const stOn = (periods: readonly { start_date: number; end_date: number | null }[]) => (d: number) =>
  periods.some((p) => p.start_date <= d && (p.end_date === null || d <= p.end_date));

/**
 * Whether an equity whose stored bars end on `lastBar` is suspended from then to the data's last
 * day: a loaded suspension without an end (`openStart`, its first day; null: none) that begins
 * no later than the trading day after that bar, so that no day between is unknown. Its days then
 * go on, suspended, to the latest stored day of its market instead of ending with its last bar.
 * suspendedToEnd(cal, 20261110, 20261111) -> true (the next trading day)
 */
export function suspendedToEnd(cal: TradingCalendar, lastBar: number | null, openStart: number | null): boolean {
  if (lastBar === null || openStart === null) return false;
  const next = cal.at(cal.indexOnOrAfter(lastBar + 1));
  return next !== undefined && openStart <= next;
}
