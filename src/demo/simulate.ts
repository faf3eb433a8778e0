/**
 * The demo market in memory: universe and events, equity paths, minute bars, trades and quotes,
 * then indices computed from their constituents, then the funds that track them.
 */
import type { BoardId, MarketId } from '../market/types.js';
import { CALENDAR_FIRST, CALENDAR_LAST, tradingDaysBetween, marketOpened } from '../market/calendar.js';
import { KINDS, type InstrumentKind } from '../market/kinds.js';
import { Rng } from './random.js';
import type { DayBar, DemoOptions, MinuteBar, Span, Trade } from './model.js';
import { buildUniverse } from './universe.js';
import { assignSt, assignSuspensions, planActions } from './events.js';
import { marketFactors, simulateEquity, type ActionRow, type ShareCount } from './prices.js';
import { minuteBars } from './intraday.js';
import { dayQuotes, dayTrades } from './ticks.js';
import { INDEX_DEFS, startLevel } from './indices.js';
import { indexPeriods, levelMembers, weightRows, type WeightRow } from './index-members.js';
import { computeIndex, type IndexSeries } from './levels.js';
import { FUND_DEFS, simulateFund } from './funds.js';

export interface InstrumentOut {
  id: string;
  kind: InstrumentKind;
  code: string;
  market: MarketId;
  board: BoardId | null;
  name: string;
  nameEn: string;
  listDate: number;
  totalShares: number | null;
  floatShares: number | null;
  fundType: string | null;
  underlying: string | null;
  baseDate: number | null;
  baseValue: number | null;
  daily: (DayBar | null)[];
  minutes: Map<number, MinuteBar[]>;
  trades: Map<number, Trade[]>;
  quotes: Map<number, (number | null)[][]>;
  classifications: string[];
  st: { start: number; end: number | null }[];
  actions: ActionRow[];
  /** Equities: the share counts at listing and after each change (prices.ts). */
  shares: ShareCount[];
  /** Indices: today's constituent ids and their free-float share counts. */
  constituents: { id: string; shares: number }[];
  /** Indices: the members and weights published on each period's first day (index-members.ts). */
  weights: WeightRow[];
}

export interface DemoMarket {
  span: Span;
  instruments: InstrumentOut[];
}

export function buildSpan(o: DemoOptions): Span {
  const days = tradingDaysBetween(o.start, o.end);
  return { days, minuteDays: new Set(days.slice(days.length - o.minuteDays)), tickDays: new Set(days.slice(days.length - o.tickDays)) };
}

/** Turns a day with minute bars into their exact aggregate (amounts may have come from trades). */
function rollUp(day: DayBar, mins: MinuteBar[]): void {
  let hi = -Infinity,
    lo = Infinity,
    vol = 0,
    amt = 0;
  for (const m of mins) {
    hi = Math.max(hi, m.high);
    lo = Math.min(lo, m.low);
    vol += m.volume;
    amt += m.amount;
  }
  if (mins[0].open !== day.open || mins[mins.length - 1].close !== day.close || hi !== day.high || lo !== day.low || vol !== day.volume) {
    throw new Error(`demo: minute bars of ${day.date} do not aggregate to the daily bar`);
  }
  day.amount = amt;
}

/** Minute bars, then trades and quotes on tick days, for an equity or a fund. */
function intraday(o: DemoOptions, out: InstrumentOut, span: Span, tick: number, given: Map<number, MinuteBar[]> | null): void {
  span.days.forEach((date, i) => {
    const day = out.daily[i];
    if (!day || !span.minuteDays.has(date)) return;
    const r = Rng.from(o.seed, `intraday/${out.id}/${date}`);
    const mins = given?.get(date) ?? minuteBars(r, { ...day, tick });
    const lim = { up: day.up, down: day.down };
    if (span.tickDays.has(date)) {
      out.trades.set(date, dayTrades(r, date, mins, tick, lim));
      const lots = Math.min(5000, Math.max(5, Math.round(day.volume / 100 / 241 / 2)));
      const limitQueue = Math.max(100, Math.round(((out.floatShares ?? 1e8) * r.uniform(0.002, 0.02)) / 100));
      out.quotes.set(date, dayQuotes(r, mins, { date, preClose: day.ref, tick, lim, book: { lots, limitQueue } }));
    }
    out.minutes.set(date, mins);
    rollUp(day, mins);
  });
}

const blank = () => ({
  minutes: new Map(),
  trades: new Map(),
  quotes: new Map(),
  st: [],
  actions: [],
  shares: [],
  constituents: [],
  weights: [],
  classifications: [],
});

export function simulate(o: DemoOptions): DemoMarket {
  const span = buildSpan(o);
  const { days } = span;
  const root = (key: string) => Rng.from(o.seed, key);
  const specs = buildUniverse(root('universe'), { n: o.equities, start: o.start, end: o.end, days });
  assignSt(root('st'), specs, span);
  assignSuspensions(root('suspensions'), specs, span);
  planActions(root('actions'), specs, span);
  const calendar = tradingDaysBetween(CALENDAR_FIRST, CALENDAR_LAST);
  const ctx = { span, factors: marketFactors(root('market'), days.length), calPos: new Map(calendar.map((d, i) => [d, i])) };

  const equities = new Map<string, InstrumentOut>();
  for (const s of specs) {
    const path = simulateEquity(root(`path/${s.id}`), s, ctx);
    const out: InstrumentOut = {
      ...blank(),
      id: s.id,
      kind: 'equity',
      code: s.code,
      market: s.market,
      board: s.board,
      name: s.name,
      nameEn: s.nameEn,
      listDate: s.listDate,
      totalShares: path.totalShares,
      floatShares: path.floatShares,
      fundType: null,
      underlying: null,
      baseDate: null,
      baseValue: null,
      daily: path.bars,
      st: s.st,
      actions: path.actions,
      shares: path.shares,
      classifications: [
        `industry.${s.industry.key}`,
        `csrc.${s.industry.csrc}`,
        `region.${s.region}`,
        ...s.concepts.map((c) => `concept.${c}`),
      ].sort(),
    };
    intraday(o, out, span, KINDS.equity.tick, null);
    equities.set(s.id, out);
  }

  const indices = new Map<string, IndexSeries>();
  const indexOuts: InstrumentOut[] = [];
  const sources = new Map(specs.map((s) => [s.id, { spec: s, ...equities.get(s.id)! }]));
  for (const def of INDEX_DEFS) {
    const id = `${def.code}.${def.market}`;
    const periods = indexPeriods(def, sources, days);
    const opened = marketOpened(def.market);
    const series = computeIndex(levelMembers(periods, sources), days, span.minuteDays, startLevel(def, o.start) * 1000, (d) => d >= opened);
    indices.set(id, series);
    const out: InstrumentOut = {
      ...blank(),
      id,
      kind: 'index',
      code: def.code,
      market: def.market,
      board: null,
      name: def.name,
      nameEn: def.nameEn,
      listDate: def.launch,
      totalShares: null,
      floatShares: null,
      fundType: null,
      underlying: null,
      baseDate: def.baseDate,
      baseValue: def.baseValue * 1000,
      daily: series.daily,
      minutes: series.minutes,
      // Today's members (the last period's) and every period's published weights.
      constituents: periods[periods.length - 1].members.map((m) => ({ id: m.id, shares: m.q })),
      weights: weightRows(periods, sources, days),
    };
    span.tickDays.forEach((date) => {
      const i = days.indexOf(date),
        mins = series.minutes.get(date);
      if (!mins || !series.daily[i]) return;
      out.quotes.set(
        date,
        dayQuotes(root(`quotes/${id}/${date}`), mins, {
          date,
          preClose: series.daily[i]!.ref,
          tick: KINDS.index.tick,
          lim: { up: null, down: null },
          book: null,
        }),
      );
    });
    indexOuts.push(out);
  }

  const funds = FUND_DEFS.map((def) => {
    const id = `${def.code}.${def.market}`;
    const f = simulateFund(root(`fund/${id}`), def, indices.get(def.underlying)!, days);
    const out: InstrumentOut = {
      ...blank(),
      id,
      kind: 'fund',
      code: def.code,
      market: def.market,
      board: null,
      name: def.name,
      nameEn: def.nameEn,
      listDate: def.listDate,
      totalShares: f.units,
      floatShares: f.units,
      fundType: def.type,
      underlying: def.underlying,
      baseDate: null,
      baseValue: null,
      daily: f.daily,
    };
    intraday(o, out, span, KINDS.fund.tick, f.minutes);
    return out;
  });

  const instruments = [...equities.values(), ...indexOuts, ...funds].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { span, instruments };
}
