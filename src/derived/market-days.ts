/**
 * Days of a market: for every market and trading day, one row of day records
 * (store/day-records.ts: every instrument's bar of the day; each listed equity's reference
 * price, price limits, pool memberships and limit-up streaks, suspended ones included) and one
 * row of breadth counts, so that a day's pools, its breadth and its cross-section read one row
 * instead of every equity's history. Made by a sweep over the trading days in order, a month of
 * every instrument's daily packs at a time (memory bounded by a month of the market), carrying
 * each equity's limit base and pool window (market/pool-tracker.ts) from day to day. The rules
 * are the ones the per-equity price limits use (market/day-limits.ts) and the pools'
 * (market/pools.ts), applied once at ingest.
 *
 * A write of daily bars, ST periods, corporate actions or instruments marks the earliest date
 * it can change (`DayMarks`); at the end of the transaction the days from that date on are made
 * again, each equity's state restored from the stored days before it. A derivation of the
 * registry (registry.ts): its version hashes what it makes of the fixture.
 */
import { createHash } from 'node:crypto';
import { effectiveCalendars, TradingCalendar } from '../market/calendar.js';
import { dayLimits, sinceListing, stOn, type DayLimit } from '../market/day-limits.js';
import type { CorporateAction } from '../market/adjust.js';
import { PoolTracker } from '../market/pool-tracker.js';
import type { Membership } from '../market/pools.js';
import type { InstrumentKind } from '../market/kinds.js';
import { MARKET_IDS, type Bar, type BoardId, type MarketId } from '../market/types.js';
import { DAY_FLAGS, decodeDay, encodeDay, encodeDayAsync, type DayRecord, type DayRecords } from '../store/day-records.js';
import { dailyPackKey, decodeBars } from '../store/packs.js';
import { storedAmount } from '../store/schema.js';
import type { BulkSession } from '../store/types.js';
import { dailyPackSpans, dailyPacksOfMonth } from '../store/tables/bar-packs.js';
import { allCorporateActions } from '../store/tables/corporate-actions.js';
import { sweepInstruments } from '../store/tables/instruments.js';
import { countDays, deleteDaysFrom, lastDays, daysBefore, daysBetween, writeDays, type Breadth } from '../store/tables/market-days.js';
import { tradingDays } from '../store/tables/reference.js';
import { allStPeriods } from '../store/tables/st-periods.js';
import { versionedInMeta, type Derivation } from './derivation.js';
import { deleteMeta, metaValue, setMeta } from '../store/meta.js';
import { FIXTURE } from './fixture.js';
import { STRONG_HIGH_DAYS } from '../market/pools.js';

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
  /** The month (YYYYMM) of its last stored bar: its days end with that bar. */
  lastMonth: number;
}

/** What the sweep reads besides bars: every ST period and corporate action, by instrument. */
export interface SweepEvents {
  st: Map<number, { start_date: number; end_date: number | null }[]>;
  actions: Map<number, Map<number, CorporateAction>>;
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

const POOL_FLAGS: Record<string, number> = {
  limit_up: DAY_FLAGS.limitUp,
  limit_down: DAY_FLAGS.limitDown,
  broken_limit_up: DAY_FLAGS.brokenLimitUp,
  previous_limit_up: DAY_FLAGS.previousLimitUp,
  strong: DAY_FLAGS.strong,
  sub_new: DAY_FLAGS.subNew,
};

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
      if (month > x.lastMonth) continue;
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
      // Its days end with its last stored bar (its data may end there: a suspension shows between bars), or its delisting.
      const end = Math.min(x.delistDate ?? Infinity, month === x.lastMonth && own?.size ? Math.max(...own.keys()) + 1 : Infinity);
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

/** What the sweep needs from the store: calendars, instruments by market (id order), ST periods and corporate actions. */
async function sweepInputs(s: BulkSession) {
  const loaded = await tradingDays(s);
  const cals = effectiveCalendars(
    loaded.map((r) => ({ market: r.market, date: Number(r.date), is_open: r.is_open === null ? null : Number(r.is_open) })),
  );
  const rows = await sweepInstruments(s, 'id');
  const byMarket = new Map<string, SweepInstrument[]>();
  for (const [inst, id, kind, market, board, list, delist, listingKind] of rows as [
    number,
    string,
    InstrumentKind,
    string,
    string | null,
    number | null,
    number | null,
    string | null,
  ][]) {
    const x = {
      inst: Number(inst),
      id,
      kind,
      market,
      board,
      listDate: list === null ? null : Number(list),
      delistDate: delist === null ? null : Number(delist),
      listingKind,
      lastMonth: 0,
    };
    (byMarket.get(market) ?? byMarket.set(market, []).get(market)!).push(x);
  }
  const events: SweepEvents = { st: new Map(), actions: new Map() };
  for (const [inst, start, end] of (await allStPeriods(s)) as number[][]) {
    const a = events.st.get(Number(inst)) ?? events.st.set(Number(inst), []).get(Number(inst))!;
    a.push({ start_date: Number(start), end_date: end === null ? null : Number(end) });
  }
  for (const r of await allCorporateActions(s)) {
    const a: CorporateAction = {
      cash_per_share: Number(r.cash_per_share),
      bonus_ratio: Number(r.bonus_ratio),
      transfer_ratio: Number(r.transfer_ratio),
      rights_ratio: Number(r.rights_ratio),
      rights_price: Number(r.rights_price),
    } as CorporateAction;
    const m = events.actions.get(Number(r.inst)) ?? events.actions.set(Number(r.inst), new Map()).get(Number(r.inst))!;
    m.set(Number(r.ex_date), a);
  }
  return { cals, byMarket, events };
}

/**
 * Sweeps every market from its date in `from` (0: from the first) on, handing each month's days
 * to `sink`; each market's sweep starts from the stored days before its date.
 */
async function sweep(s: BulkSession, from: (market: MarketId) => number, sink: (made: MadeDay[]) => Promise<void>): Promise<void> {
  const { cals, byMarket, events } = await sweepInputs(s);
  // Each instrument's first and last month with bars: a market's days end with its last bar.
  const spans = await dailyPackSpans(s);
  for (const market of MARKET_IDS) {
    const insts = byMarket
      .get(market)
      ?.filter((x) => spans.has(x.inst))
      .map((x) => ({ ...x, lastMonth: spans.get(x.inst)![1] }));
    if (!insts?.length) continue;
    const cal = cals[market],
      since = from(market);
    const sw = new MarketSweep(market, cal, insts, events);
    const firstIdx = cal.indexOnOrAfter(since);
    const before = cal.days.slice(Math.max(0, firstIdx - STRONG_HIGH_DAYS), firstIdx);
    if (before.length) {
      sw.restore((await daysBefore(s, market, before[0], since)).map((d) => decodeDay(d)));
    }
    const mine = new Set(insts.map((x) => x.inst));
    const first = Math.max(dailyPackKey(since), Math.min(...insts.map((x) => spans.get(x.inst)![0])));
    const end = Math.max(...insts.map((x) => spans.get(x.inst)![1]));
    // Every month from the first to the market's last, those without bars too (all suspended).
    for (let month = first; month <= end; month = month % 100 === 12 ? month + 89 : month + 1) {
      const bars = new Map<number, Map<number, Bar>>();
      let last = 0;
      for (const [inst, n, data] of await dailyPacksOfMonth(s, month)) {
        if (!mine.has(Number(inst))) continue;
        const out: Bar[] = [];
        decodeBars(out, data, Number(n), null, -Infinity, Infinity, Infinity);
        bars.set(Number(inst), new Map(out.map((b) => [b.date, b])));
        if (out.length) last = Math.max(last, out[out.length - 1].date);
      }
      const days = cal.between(Math.max(since, month * 100 + 1), month === end ? last : month * 100 + 31);
      await sink(sw.month(month, days, bars).filter((d) => d.records.length > 0));
    }
  }
}

/** The meta key of the instruments' print the stored days were made with. */
const PRINT = 'market_days_instruments';

/** What the days are made of in the instruments (ids, kinds, markets, boards, listing and delisting), as a hash. */
async function instrumentsPrint(s: BulkSession): Promise<string> {
  const rows = await sweepInstruments(s, 'inst');
  return createHash('sha256')
    .update(JSON.stringify(rows.map((r) => r.map((v) => (v === null ? null : String(v))))))
    .digest('base64url');
}

/**
 * Makes the days from `since` on again (deleting stored ones from then on first), and in each
 * market those after its last stored day (new bars extend a market's days: its equities without
 * them are suspended there); returns the days written.
 */
export async function makeDays(s: BulkSession, since: number): Promise<number> {
  const lastStored = await lastDays(s);
  const from = (market: string) => Math.min(since, (lastStored.get(market) ?? -1) + 1);
  for (const m of MARKET_IDS) await deleteDaysFrom(s, m, from(m));
  let written = 0;
  // A month's days are deflated on the thread pool while the sweep makes the next month (one
  // month in flight: memory stays bounded); the session's statements still run one at a time.
  let inFlight: Promise<void> = Promise.resolve();
  try {
    await sweep(s, from, async (made) => {
      const data = Promise.all(made.map((d) => encodeDayAsync(d.records)));
      data.catch(() => {}); // awaited by the write below
      const before = inFlight;
      inFlight = (async () => {
        await before;
        const encoded = await data;
        await writeDays(
          s,
          made.map((d, i) => ({ market: d.market, date: d.date, n: d.records.length, data: encoded[i], breadth: d.breadth })),
        );
      })();
      inFlight.catch(() => {}); // awaited below or by the next month; never unhandled
      await before;
      written += made.length;
    });
  } finally {
    // Never leave a write running past a failed sweep: the transaction is about to roll back,
    // and a statement after that would run outside it.
    await inFlight.catch(() => {});
  }
  await inFlight;
  await setMeta(s, PRINT, await instrumentsPrint(s));
  return written;
}

/** Compares the stored days with what the sweep makes now; returns the days that were right. */
async function checkDays(s: BulkSession, problem: (p: string) => void): Promise<number> {
  let right = 0,
    compared = 0;
  const storedCount = await countDays(s);
  await sweep(
    s,
    () => 0,
    async (made) => {
      const first = made[0],
        last = made[made.length - 1];
      if (!first) return;
      const stored = await daysBetween(s, first.market, first.date, last.date);
      for (const d of made) {
        compared++;
        const have = stored.get(d.date);
        if (!have) {
          problem(`market_days ${d.market} ${d.date}: missing`);
          continue;
        }
        const got = decodeDay(have);
        const same = got.n === d.records.length && d.records.every((r, i) => JSON.stringify(got.record(i)) === JSON.stringify(r));
        if (same) right++;
        else problem(`market_days ${d.market} ${d.date}: differs from what the code makes of the packs`);
      }
    },
  );
  if (storedCount > compared) problem(`market_days: ${storedCount - compared} stored days the packs do not make`);
  return right;
}

/** The days the sweep makes of the fixture (its dates as trading days), one line each: what versions them. */
export function marketDaysOutput(): string {
  const days = [
    ...new Set(
      FIXTURE.flatMap((f) =>
        f.packs.flatMap(([, n, data]) => {
          const out: Bar[] = [];
          decodeBars(out, data, n, null, -Infinity, Infinity, Infinity);
          return out.map((b) => b.date);
        }),
      ),
    ),
  ].sort((a, b) => a - b);
  const instruments: SweepInstrument[] = FIXTURE.map((f) => ({
    inst: f.inst,
    id: f.meta.id,
    kind: f.meta.kind,
    market: 'SH',
    board: f.meta.kind === 'equity' ? 'main' : null,
    listDate: null,
    delistDate: null,
    listingKind: null,
    lastMonth: f.packs[f.packs.length - 1][0],
  }));
  const sw = new MarketSweep('SH', new TradingCalendar(days), instruments, { st: new Map(), actions: new Map() });
  const lines: string[] = [];
  for (const month of [...new Set(days.map(dailyPackKey))]) {
    const bars = new Map<number, Map<number, Bar>>();
    for (const f of FIXTURE) {
      const out: Bar[] = [];
      for (const [m, n, data] of f.packs) if (m === month) decodeBars(out, data, n, null, -Infinity, Infinity, Infinity);
      bars.set(f.inst, new Map(out.map((b) => [b.date, b])));
    }
    for (const d of sw.month(
      month,
      days.filter((x) => dailyPackKey(x) === month),
      bars,
    )) {
      lines.push(`${d.date} ${JSON.stringify(d.breadth)} ${encodeDay(d.records).toString('base64')}`);
    }
  }
  return lines.join('\n');
}

/** Tables whose writes change days, and the column of a row's first affected date (null: any date). */
const REMAKE_AFTER: Record<string, string | null> = {
  bars_1d: 'date',
  st_periods: 'start_date',
  corporate_actions: 'ex_date',
  instruments: null,
};

const base = versionedInMeta({
  name: 'market_days',
  unit: 'days',
  output: marketDaysOutput,
  make: (s) => makeDays(s, 0),
  check: checkDays,
});

/** The days of every market (registry.ts). */
export const MARKET_DAYS: Derivation = {
  ...base,
  remakeAfter: REMAKE_AFTER,
  async remake(s, from, tables) {
    // A store whose days were never made (or were forgotten) is made whole by migration instead.
    if ((await base.stored(s)) !== base.version()) return;
    // Instruments written without a change to what days are made of (a name, shares) change no day.
    if (tables.size === 1 && tables.has('instruments') && (await instrumentsPrint(s)) === (await metaValue(s, PRINT))) return;
    await makeDays(s, from);
  },
  async forget(s) {
    await deleteMeta(s, base.name);
  },
};
