/**
 * The sweep of a market's days (market-days.ts makes and checks them with it): a month of every
 * instrument's daily bars at a time turned into that month's day records (store/day-records.ts)
 * and breadth, in order, each equity's limit base and pool window (market/pool-tracker.ts)
 * carried from day to day. The rules are the per-equity price limits' (market/day-limits.ts) and
 * the pools' (market/pools.ts). Pure: no store.
 */
import type { TradingCalendar } from '../market/calendar.js';
import { dayLimits, reformEnd, sinceListing, stOn, type DayLimit } from '../market/day-limits.js';
import type { CorporateAction } from '../market/adjust.js';
import { PoolTracker } from '../market/pool-tracker.js';
import { STRONG_HIGH_DAYS, type Membership } from '../market/pools.js';
import type { InstrumentKind } from '../market/kinds.js';
import type { Bar, BoardId, MarketId } from '../market/types.js';
import { DAY_FLAGS, POOL_FLAGS, type DayRecord, type DayRecords } from '../store/day-records.js';
import { storedAmount } from '../store/schema.js';
import type { Breadth } from '../store/tables/market-days.js';

/** An instrument as the sweep sees it. */
export interface SweepInstrument {
  inst: number;
  id: string;
  kind: InstrumentKind;
  market: string;
  board: string | null;
  listDate: number | null;
  delistDate: number | null;
  /** The record's `listing_kind` (null: by market/limits.ts listingKind's default). */
  listingKind: string | null;
  /** Its name as stored: an `S` mark gives a share not through the split-share reform its 5% limit. */
  name: string | null;
  /** When that mark stops holding (market/day-limits.ts reformEnd); null or absent: never. */
  reformedFrom?: number | null;
  /** The month (YYYYMM) of its last stored bar: its days end with that bar (unless a loaded suspension is open). */
  lastMonth: number;
}

/**
 * What the sweep reads besides bars: every ST period and corporate action by instrument, and the
 * equities whose loaded suspension is still open from the day after their last bar
 * (suspendedToEnd): their days go on, suspended, to the market's last day.
 */
export interface SweepEvents {
  st: Map<number, { start_date: number; end_date: number | null }[]>;
  actions: Map<number, Map<number, CorporateAction>>;
  suspendedToEnd: Set<number>;
}

/** A day made by the sweep: its records (instrument id order) and breadth. */
export interface MadeDay {
  market: string;
  date: number;
  records: DayRecord[];
  breadth: Breadth;
}

/** An equity's state carried from one day to the next. */
interface Carry {
  tracker: PoolTracker;
  /** The base of the next day's limits: the last close (or its ex-rights reference over a suspension); null: none yet. */
  last: number | null;
  /** The first day it has a price-limit state: its first stored bar, or its listing when stored bars precede it. */
  start: number;
}

/** The record of an equity's day state and memberships. */
function equityRecord(inst: number, d: DayLimit, m: Membership): DayRecord {
  let flags =
    DAY_FLAGS.equity | (d.st ? DAY_FLAGS.st : 0) | (d.bar ? DAY_FLAGS.bar : 0) | (m.strongReason === 'new_high' ? DAY_FLAGS.newHigh : 0);
  for (const p of m.pools) flags |= POOL_FLAGS[p];
  const b = d.bar;
  return {
    inst,
    open: b?.open ?? 0,
    high: b?.high ?? 0,
    low: b?.low ?? 0,
    close: b?.close ?? 0,
    preClose: d.preClose,
    up: d.up,
    down: d.down,
    volume: b?.volume ?? 0,
    amount: b ? storedAmount(b.amount) : 0,
    streak: m.streak,
    previousStreak: m.previousStreak,
    flags,
  };
}

/** The record of a bar alone (an index's, a fund's, an equity's before it has a limit state), with the previous close. */
function barRecord(inst: number, b: Bar, preClose: number | null): DayRecord {
  return {
    inst,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    preClose,
    up: null,
    down: null,
    volume: b.volume,
    amount: storedAmount(b.amount),
    streak: 0,
    previousStreak: 0,
    flags: DAY_FLAGS.bar,
  };
}

/**
 * The breadth of a day's records. `listedFirst`: equities whose plain bar (no price-limit state)
 * is their first stored bar, listed before it on an unknown day (a folder's first day): listed and
 * traded, with their volume and amount, but neither advancing nor declining (no previous close).
 */
export function breadthOf(records: readonly DayRecord[], listedFirst: ReadonlySet<number> = new Set()): Breadth {
  const out: Breadth = {
    listed: 0,
    advancers: 0,
    decliners: 0,
    unchanged: 0,
    limitUp: 0,
    limitDown: 0,
    suspended: 0,
    volume: 0,
    amount: 0,
    unknownAmounts: 0,
  };
  for (const r of records) {
    if (!(r.flags & DAY_FLAGS.equity) && !listedFirst.has(r.inst)) continue;
    out.listed++;
    if (!(r.flags & DAY_FLAGS.bar)) {
      out.suspended++;
      continue;
    }
    if (r.preClose !== null) {
      if (r.close > r.preClose) out.advancers++;
      else if (r.close < r.preClose) out.decliners++;
      else out.unchanged++;
    }
    if (r.flags & DAY_FLAGS.limitUp) out.limitUp++;
    if (r.flags & DAY_FLAGS.limitDown) out.limitDown++;
    out.volume += r.volume;
    if (r.amount < 0) out.unknownAmounts++;
    else out.amount += r.amount;
  }
  return out;
}

/**
 * One market's sweep: `days()` turns a month of bars into that month's day records, in order,
 * carrying each instrument's state into the next month.
 */
export class MarketSweep {
  private readonly carry = new Map<number, Carry>();
  /** Index and fund closes: the reference of their next day's change. */
  private readonly lastClose = new Map<number, number>();
  /** Equities whose first stored bar is a plain bar of a listed day (breadthOf). */
  private readonly listedFirst = new Set<number>();

  constructor(
    private readonly market: MarketId,
    private readonly cal: TradingCalendar,
    /** The market's instruments, in id order. */
    private readonly instruments: readonly SweepInstrument[],
    private readonly events: SweepEvents,
  ) {}

  /** Restores each instrument's state from the stored days before the sweep's first day (ascending, at most STRONG_HIGH_DAYS). */
  restore(days: readonly DayRecords[]): void {
    const seen = new Map<number, { closes: (number | null)[]; ups: number[]; streak: number; last: number | null }>();
    const equities = new Set(this.instruments.filter((x) => x.kind === 'equity').map((x) => x.inst));
    for (const day of days) {
      for (let i = 0; i < day.n; i++) {
        const inst = day.inst[i],
          bar = day.has(i, DAY_FLAGS.bar);
        // An equity's plain bar is its first stored bar, before it has a limit state: its pool window counts it.
        if (!equities.has(inst)) {
          if (bar) this.lastClose.set(inst, day.close[i]);
          continue;
        }
        let s = seen.get(inst);
        if (!s) seen.set(inst, (s = { closes: [], ups: [], streak: 0, last: null }));
        s.closes.push(bar ? day.close[i] : null);
        s.ups.push(day.has(i, DAY_FLAGS.limitUp) ? 1 : 0);
        if (bar) s.streak = day.streak[i];
        s.last = bar ? day.close[i] : day.preClose(i);
      }
    }
    const byInst = new Map(this.instruments.map((x) => [x.inst, x]));
    for (const [inst, s] of seen) {
      const x = byInst.get(inst);
      if (!x) continue;
      const closes = s.closes.slice(-(STRONG_HIGH_DAYS - 1));
      this.carry.set(inst, {
        tracker: PoolTracker.from({ day: closes.length, streak: s.streak, ups: s.ups.slice(-5), closes }),
        last: s.last,
        start: x.listDate ?? -Infinity,
      });
    }
  }

  /** The day records of `days` (trading days of one month, ascending) from `bars` (that month's bars by instrument). */
  month(month: number, days: readonly number[], bars: ReadonlyMap<number, ReadonlyMap<number, Bar>>): MadeDay[] {
    const perDay: DayRecord[][] = days.map(() => []);
    const index = new Map(days.map((d, i) => [d, i]));
    for (const x of this.instruments) {
      const own = bars.get(x.inst);
      if (x.kind !== 'equity') {
        if (!own) continue;
        for (const d of days) {
          const b = own.get(d);
          if (!b) continue;
          perDay[index.get(d)!].push(barRecord(x.inst, b, this.lastClose.get(x.inst) ?? null));
          this.lastClose.set(x.inst, b.close);
        }
        continue;
      }
      // A loaded suspension still open keeps the equity listed, suspended, to the market's last day.
      const suspended = this.events.suspendedToEnd.has(x.inst);
      if (month > x.lastMonth && !suspended) continue;
      let c = this.carry.get(x.inst);
      if (!c) {
        // An equity has a state from its listing day when its bars start there (or before it), else from
        // the day after its first stored bar (the first with a known reference); that first bar is a plain bar.
        if (!own?.size) continue;
        const first = Math.min(...own.keys());
        const start =
          x.listDate !== null && x.listDate >= first ? x.listDate : (this.cal.at(this.cal.indexOnOrAfter(first) + 1) ?? Infinity);
        this.carry.set(x.inst, (c = { tracker: new PoolTracker(), last: null, start }));
        if (start > first) {
          const b = own.get(first)!;
          const at = index.get(first);
          if (at !== undefined) perDay[at].push(barRecord(x.inst, b, null));
          // Listed before this bar (not a bar before its listing day): listed that day.
          if (x.listDate === null || x.listDate < first) this.listedFirst.add(x.inst);
          c.last = b.close;
          c.tracker.push({
            date: first,
            preClose: null,
            up: null,
            down: null,
            ratioPct: null,
            reason: '',
            st: false,
            listingDay: 0,
            bar: b,
          });
        }
      }
      // Its days end with its last stored bar (its data may end there: a suspension shows between bars, or
      // by a loaded suspension still open), or its delisting.
      const end = Math.min(
        x.delistDate ?? Infinity,
        month === x.lastMonth && own?.size && !suspended ? Math.max(...own.keys()) + 1 : Infinity,
      );
      const start = c.start;
      // Bars before the listing (grey-market quotes some vendors keep) give the listing day's reference.
      if (own && x.listDate !== null && start === x.listDate) for (const d of days) if (d < start && own.has(d)) c.last = own.get(d)!.close;
      const active = days.filter((d) => d >= start && d < end);
      if (!active.length) continue;
      const states = dayLimits({
        days: active,
        board: x.board as BoardId,
        market: this.market,
        listDate: x.listDate,
        listingKind: x.listingKind,
        name: x.name,
        reformedFrom: x.reformedFrom,
        sinceListing: sinceListing(this.cal, x.listDate),
        isSt: stOn(this.events.st.get(x.inst) ?? []),
        actions: this.events.actions.get(x.inst) ?? new Map(),
        prevBar: c.last === null ? null : { ts: 0, date: 0, open: c.last, high: c.last, low: c.last, close: c.last, volume: 0, amount: 0 },
        bars: own ?? new Map(),
      });
      for (const d of states) {
        perDay[index.get(d.date)!].push(equityRecord(x.inst, d, c.tracker.push(d)));
        c.last = d.bar ? d.bar.close : d.preClose;
      }
    }
    return days.map((date, i) => ({ market: this.market, date, records: perDay[i], breadth: breadthOf(perDay[i], this.listedFirst) }));
  }
}

/**
 * When the `S` mark of equity `x`'s name stops holding (market/day-limits.ts reformEnd), from its
 * whole daily history `bars` (ascending) on calendar `cal`; null: never, or no mark.
 */
export function sweepReformEnd(cal: TradingCalendar, x: SweepInstrument, events: SweepEvents, bars: readonly Bar[]): number | null {
  if (x.kind !== 'equity' || x.board === null || !bars.length) return null;
  return reformEnd({
    days: cal.between(Math.max(x.listDate ?? 0, bars[0].date), bars[bars.length - 1].date),
    board: x.board as BoardId,
    market: x.market as MarketId,
    listDate: x.listDate,
    listingKind: x.listingKind,
    name: x.name,
    sinceListing: sinceListing(cal, x.listDate),
    isSt: stOn(events.st.get(x.inst) ?? []),
    actions: events.actions.get(x.inst) ?? new Map(),
    prevBar: null,
    bars: new Map(bars.map((b) => [b.date, b])),
  });
}
