/**
 * Days of a market: for every market and trading day, one row of day records
 * (store/day-records.ts: every instrument's bar of the day; each listed equity's reference
 * price, price limits, pool memberships and limit-up streaks, suspended ones included) and one
 * row of breadth counts, so that a day's pools, its breadth and its cross-section read one row
 * instead of every equity's history. Made by a sweep over the trading days in order
 * (market-sweep.ts), a month of every instrument's daily packs at a time (memory bounded by a
 * month of the market). The rules are the ones the per-equity price limits use
 * (market/day-limits.ts) and the pools' (market/pools.ts), applied once at ingest.
 *
 * A write of daily bars, ST periods, corporate actions, suspensions or instruments marks the
 * earliest date it can change (`DayMarks`); at the end of the transaction the days from that
 * date on are made again, each equity's state restored from the stored days before it. A
 * derivation of the registry (registry.ts): its version hashes what it makes of the fixture.
 */
import { createHash } from 'node:crypto';
import { effectiveCalendars } from '../market/calendar.js';
import { suspendedToEnd } from '../market/day-limits.js';
import { hasReformMark } from '../market/limits.js';
import type { TradingCalendar } from '../market/calendar.js';
import type { CorporateAction } from '../market/adjust.js';
import type { InstrumentKind } from '../market/kinds.js';
import { MARKET_IDS, type Bar, type MarketId } from '../market/types.js';
import { DAY_FLAGS, decodeDay, encodeDayAsync } from '../store/day-records.js';
import { madeDaysOf, outsideLimits } from './made-days.js';
import { dailyPackKey, decodeBars } from '../store/packs.js';
import type { BulkSession } from '../store/types.js';
import { dailyPackSpans, dailyPacksOf, dailyPacksOfMonth } from '../store/tables/bar-packs.js';
import { allCorporateActions } from '../store/tables/corporate-actions.js';
import { sweepInstruments } from '../store/tables/instruments.js';
import { countDays, deleteDaysFrom, lastDays, daysBefore, daysBetween, writeDays } from '../store/tables/market-days.js';
import { tradingDays } from '../store/tables/reference.js';
import { allStPeriods } from '../store/tables/st-periods.js';
import { openSuspensions } from '../store/tables/suspensions.js';
import { versionedInMeta, type Derivation } from './derivation.js';
import { deleteMeta, metaValue, setMeta } from '../store/meta.js';
import { STRONG_HIGH_DAYS } from '../market/pools.js';
import { MarketSweep, sweepReformEnd, type MadeDay, type SweepEvents, type SweepInstrument } from './market-sweep.js';
import { marketDaysOutput } from './market-days-fixture.js';

export { breadthOf, MarketSweep, type MadeDay, type SweepEvents, type SweepInstrument } from './market-sweep.js';
export { marketDaysOutput } from './market-days-fixture.js';

/**
 * What the sweep needs from the store: calendars, instruments by market (id order), ST periods,
 * corporate actions, and the equities suspended to the end by an open suspension.
 */
async function sweepInputs(s: BulkSession) {
  const loaded = await tradingDays(s);
  const cals = effectiveCalendars(
    loaded.map((r) => ({ market: r.market, date: Number(r.date), is_open: r.is_open === null ? null : Number(r.is_open) })),
  );
  const rows = await sweepInstruments(s, 'id');
  const byMarket = new Map<string, SweepInstrument[]>();
  for (const [inst, id, kind, market, board, list, delist, listingKind, name] of rows as [
    number,
    string,
    InstrumentKind,
    string,
    string | null,
    number | null,
    number | null,
    string | null,
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
      name,
      lastMonth: 0,
    };
    (byMarket.get(market) ?? byMarket.set(market, []).get(market)!).push(x);
  }
  const events: SweepEvents = { st: new Map(), actions: new Map(), suspendedToEnd: new Set() };
  const marketOf = new Map([...byMarket.values()].flat().map((x) => [x.inst, x.market as MarketId]));
  for (const [inst, start, lastBar] of await openSuspensions(s)) {
    const market = marketOf.get(Number(inst));
    if (market && suspendedToEnd(cals[market], lastBar === null ? null : Number(lastBar), Number(start)))
      events.suspendedToEnd.add(Number(inst));
  }
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
 * Sets `reformedFrom` of the equities of `insts` whose name carries the `S` mark (a handful at
 * most), from each one's whole daily history (sweepReformEnd).
 */
async function setReformEnds(s: BulkSession, cal: TradingCalendar, insts: SweepInstrument[], events: SweepEvents): Promise<void> {
  for (const x of insts) {
    if (x.kind !== 'equity' || !hasReformMark(x.name)) continue;
    const bars: Bar[] = [];
    for (const [, n, data] of await dailyPacksOf(s, x.inst)) decodeBars(bars, data, Number(n), null, -Infinity, Infinity, Infinity);
    x.reformedFrom = sweepReformEnd(cal, x, events, bars);
  }
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
    await setReformEnds(s, cal, insts, events);
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

/** A hash of instruments rows (`sweepInstruments`). */
const hashRows = (rows: unknown[][]) =>
  createHash('sha256')
    .update(JSON.stringify(rows.map((r) => r.map((v) => (v === null ? null : String(v))))))
    .digest('base64url');

/**
 * What the days are made of in the instruments (ids, kinds, markets, boards, listing and
 * delisting), as `M.hash`: the highest `inst` and a hash of every row up to it.
 */
async function instrumentsPrint(s: BulkSession): Promise<string> {
  const rows = await sweepInstruments(s, 'inst');
  return `${rows.length ? Number(rows[rows.length - 1][0]) : 0}.${hashRows(rows)}`;
}

/**
 * When the instruments changed only by new ones (those of the stored print unchanged, the others
 * after its highest `inst`): the least date the new ones can change, their listing or delisting
 * (Infinity: none; their bars mark their own dates). Null: instruments the days were made with changed.
 */
async function addedFrom(s: BulkSession): Promise<number | null> {
  const m = /^(\d+)\.(.+)$/.exec((await metaValue(s, PRINT)) ?? '');
  if (!m) return null;
  const top = Number(m[1]);
  const rows = await sweepInstruments(s, 'inst');
  const old = rows.filter((r) => Number(r[0]) <= top);
  if (hashRows(old) !== m[2]) return null;
  let least = Infinity;
  for (const r of rows.slice(old.length)) for (const d of [r[5], r[6]]) if (d !== null) least = Math.min(least, Number(d));
  return least;
}

/**
 * Makes the days from `since` on again (deleting stored ones from then on first), and in each
 * market those after its last stored day (new bars extend a market's days: its equities without
 * them are suspended there); returns the days written.
 */
export async function makeDays(s: BulkSession, since: number): Promise<number> {
  const lastStored = await lastDays(s);
  const from = (market: string) => Math.min(since, (lastStored.get(market) ?? -1) + 1);
  // What the transaction made, for its limit check (made-days.ts): what is about to be made again forgotten.
  const kept = madeDaysOf(s);
  for (const m of MARKET_IDS) {
    await deleteDaysFrom(s, m, from(m));
    kept?.from(m, from(m));
  }
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
      for (const d of made) kept?.add(d, (r) => outsideLimits(r, (r.flags & DAY_FLAGS.equity) !== 0, (r.flags & DAY_FLAGS.bar) !== 0));
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

/** Tables whose writes change days, and the column of a row's first affected date (null: any date). */
const REMAKE_AFTER: Record<string, string | null> = {
  bars_1d: 'date',
  st_periods: 'start_date',
  corporate_actions: 'ex_date',
  suspensions: 'start_date',
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
    if (tables.has('instruments')) {
      // Instruments written without a change to what days are made of (shares, an English name) change no day;
      // new ones (a listing) change the days from their listing on, and from their bars' (which mark their own dates).
      const added = await addedFrom(s);
      if (added !== null) {
        from = Math.min(added, ...[...tables].filter(([t]) => t !== 'instruments').map(([, d]) => d));
        if (from === Infinity) {
          await setMeta(s, PRINT, await instrumentsPrint(s));
          return;
        }
      }
    }
    await makeDays(s, from);
  },
  async forget(s) {
    await deleteMeta(s, base.name);
  },
};
