/**
 * After the files of an `mds ingest` are written, every loaded daily bar of an equity is checked
 * against its day's price limits (market/day-limits.ts, computed from the store as the command
 * leaves it: bars, corporate actions, ST periods, calendar). A bar outside them (high above the
 * up limit or low below the down limit) is almost always a missing corporate action, sometimes a
 * vendor error: ingest reports it as a warning naming the file line, instrument and date, and
 * loads it all the same.
 */
import { formatScaled, PRICE_SCALE } from '../lib/decimal.js';
import { formatDate } from '../lib/time.js';
import { dayLimits, reformEnd, sinceListing, stOn, type DayLimit } from '../market/day-limits.js';
import { hasReformMark } from '../market/limits.js';
import type { CorporateAction } from '../market/adjust.js';
import type { Bar, BoardId, MarketId } from '../market/types.js';
import type { BulkSession } from '../store/types.js';
import { dailyBarBefore, dailyBarDates, dailyBars } from '../store/tables/bars.js';
import { corporateActionsOf } from '../store/tables/corporate-actions.js';
import { equityOf } from '../store/tables/instruments.js';
import { dayKeysBetween, dayOn } from '../store/tables/market-days.js';
import { stPeriodsOf } from '../store/tables/st-periods.js';
import { decodedAmount } from '../store/schema.js';
import type { IngestContext } from './context.js';
import { MARKET_DAYS } from '../derived/market-days.js';
import { DAY_FLAGS, decodeDay, type DayRecord } from '../store/day-records.js';
import { madeDaysOf, outsideLimits } from '../derived/made-days.js';

/** The stored corporate actions of `inst` by ex-date. */
async function actionsOf(s: BulkSession, inst: number): Promise<Map<number, CorporateAction>> {
  return new Map(
    (await corporateActionsOf(s, inst)).map((a) => {
      const x = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Number(v)])) as unknown as CorporateAction;
      return [x.ex_date, x];
    }),
  );
}

const barMap = (bars: Bar[]) => new Map(bars.map((b) => [b.date, b]));

/**
 * A run of daily bars loaded from consecutive lines of one file in ascending date order: kept as
 * its bounds, so memory does not grow with the rows (a Tongdaxin file is one run).
 */
interface Run {
  file: string;
  line: number;
  lastLine: number;
  lo: number;
  hi: number;
  count: number;
}

const px = (v: number) => formatScaled(v, PRICE_SCALE, 2);

/** A stored daily bar row (numbers, or numeric text on PostgreSQL) as a Bar. */
const toBar = (r: Record<string, unknown>): Bar => ({
  ts: 0,
  ...decodedAmount({
    date: Number(r.date),
    open: Number(r.open),
    high: Number(r.high),
    low: Number(r.low),
    close: Number(r.close),
    volume: Number(r.volume),
    amount: Number(r.amount),
  }),
});

/** Index of the first element of ascending `xs` that is >= x. */
function lowerBound(xs: number[], x: number): number {
  let lo = 0,
    hi = xs.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (xs[m] < x) lo = m + 1;
    else hi = m;
  }
  return lo;
}

export class LimitCheck {
  /** Per inst, the runs of daily bars this command loaded. */
  private readonly loaded = new Map<number, Run[]>();

  /** Records a daily bar loaded at `line` of `file` (the label `path:` or `path:record `). */
  note(file: string, inst: number, date: number, line: number): void {
    let per = this.loaded.get(inst);
    if (!per) {
      per = [];
      this.loaded.set(inst, per);
    }
    const l = per[per.length - 1];
    if (l && l.file === file && line === l.lastLine + 1 && date > l.hi) {
      l.lastLine = line;
      l.hi = date;
      l.count++;
      return;
    }
    per.push({ file, line, lastLine: line, lo: date, hi: date, count: 1 });
  }

  /**
   * The loaded bars that the markets' days (derived/market-days.ts, made by the same rules) hold
   * outside their limits, by instrument and date (the day's record), or null when the stored days
   * are not current (then every instrument is checked from its bars). Reading a day of the market
   * is much cheaper than computing every loaded equity's limits again; the days this transaction
   * made are not read at all (derived/made-days.ts kept their records outside their limits).
   */
  private async flagged(s: BulkSession): Promise<Map<number, Map<number, DayRecord>> | null> {
    if (!s.settle || this.loaded.size === 0) return null;
    await s.settle();
    if ((await MARKET_DAYS.stored(s)) !== MARKET_DAYS.version()) return null;
    const span = new Map<number, [number, number]>();
    let lo = Infinity,
      hi = -Infinity;
    for (const [inst, per] of this.loaded) {
      const a = Math.min(...per.map((l) => l.lo)),
        b = Math.max(...per.map((l) => l.hi));
      span.set(inst, [a, b]);
      lo = Math.min(lo, a);
      hi = Math.max(hi, b);
    }
    const out = new Map<number, Map<number, DayRecord>>();
    const flag = (date: number, r: DayRecord) => {
      const sp = span.get(r.inst);
      if (sp && date >= sp[0] && date <= sp[1]) (out.get(r.inst) ?? out.set(r.inst, new Map()).get(r.inst)!).set(date, r);
    };
    const made = madeDaysOf(s);
    if (made) for (const [date, r] of made.outsideBetween(lo, hi)) flag(date, r);
    // The stored days the transaction did not make: read and decoded.
    for (const [market, date] of await dayKeysBetween(s, lo, hi)) {
      if (made?.has(market, date)) continue;
      const stored = await dayOn(s, market, date);
      if (stored === null) continue;
      const day = decodeDay(stored);
      for (let i = 0; i < day.n; i++) {
        const r = day.record(i);
        if (outsideLimits(r, day.has(i, DAY_FLAGS.equity), day.has(i, DAY_FLAGS.bar))) flag(date, r);
      }
    }
    return out;
  }

  /** The warnings, one per loaded bar outside its limits, in file order per instrument. */
  async warnings(s: BulkSession, ctx: IngestContext): Promise<string[]> {
    const out: string[] = [];
    const flagged = await this.flagged(s);
    for (const [inst, per] of this.loaded) {
      const days = flagged?.get(inst);
      if (flagged && !days) continue;
      const eq = await equityOf(s, inst);
      if (!eq || eq.board === null) continue;
      // An unknown listing date (null) is before the first stored bar (market/day-limits.ts sinceListing).
      const listDate = eq.list_date === null ? null : Number(eq.list_date);
      let lo = Infinity,
        hi = -Infinity;
      for (const l of per) {
        if (l.lo < lo) lo = l.lo;
        if (l.hi > hi) hi = l.hi;
      }
      const st = await stPeriodsOf(s, inst);
      const cal = ctx.calendar(eq.market as MarketId);
      const input = {
        board: eq.board as BoardId,
        market: eq.market as MarketId,
        listDate,
        listingKind: eq.listing_kind,
        name: eq.name,
        reformedFrom: null as number | null,
        sinceListing: sinceListing(cal, listDate),
        isSt: stOn(st.map((p) => ({ start_date: Number(p.start_date), end_date: p.end_date === null ? null : Number(p.end_date) }))),
      };
      if (hasReformMark(eq.name)) {
        // When the name's S mark stops holding, from the whole daily history (a handful of equities).
        const all = (await dailyBars(s, inst, 0, 99991231)).map(toBar);
        if (all.length) {
          const days = cal.between(Math.max(listDate ?? 0, all[0].date), all[all.length - 1].date);
          input.reformedFrom = reformEnd({ ...input, days, actions: await actionsOf(s, inst), prevBar: null, bars: barMap(all) });
        }
      }
      let dates: number[];
      let states: DayLimit[];
      if (days) {
        // Each flagged day alone, from its record's reference price: the rule's ratio and reason for the message.
        dates = await dailyBarDates(s, inst, lo, hi);
        states = [...days]
          .sort((a, b) => a[0] - b[0])
          .flatMap(([date, r]) => {
            const bar: Bar = { ts: 0, date, open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume, amount: null };
            const pre = r.preClose!;
            return dayLimits({ ...input, days: [date], actions: new Map(), prevBar: { ...bar, close: pre }, bars: new Map([[date, bar]]) });
          });
      } else {
        // One session runs one statement at a time.
        const bars = await dailyBars(s, inst, lo, hi);
        const prev = await dailyBarBefore(s, inst, lo);
        states = dayLimits({
          ...input,
          days: cal.between(listDate === null ? lo : Math.max(lo, listDate), hi),
          actions: await actionsOf(s, inst),
          prevBar: prev ? toBar(prev) : null,
          bars: barMap(bars.map(toBar)),
        });
        dates = bars.map((b) => Number(b.date));
      }
      const byDate = new Map(states.map((d) => [d.date, d]));
      for (const l of per) {
        // The run's bars are the stored ones in its range unless other bars lie between them.
        const from = lowerBound(dates, l.lo),
          to = lowerBound(dates, l.hi + 1);
        const exact = to - from === l.count;
        for (let i = from; i < to; i++) {
          const d = byDate.get(dates[i]);
          if (!d?.bar || d.up === null || d.down === null || d.preClose === null) continue;
          const b = d.bar;
          const what =
            b.high > d.up
              ? `high ${px(b.high)} above the up limit ${px(d.up)}`
              : b.low < d.down
                ? `low ${px(b.low)} below the down limit ${px(d.down)}`
                : null;
          if (what) {
            out.push(
              `${l.file}${exact ? l.line + i - from : `${l.line}-${l.lastLine}`}: ${eq.id} ${formatDate(d.date)}: ${what} ` +
                `(pre_close ${px(d.preClose)}, ${d.ratioPct}%, ${d.reason}); a missing corporate action?`,
            );
          }
        }
      }
    }
    return out;
  }
}
