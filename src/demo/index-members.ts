/**
 * The demo indices' members over time: chosen at the start and again at each review (the CSI and
 * SZSE indices review in June and December, effective the trading day after the second Friday),
 * from the equities listed by then, ranked by free-float market value at the close before; each
 * period's share counts q capped as indices.ts cappedShares does. The weights published on each
 * period's first day (the `index_weights` rows) are each member's q × reference price over the
 * sum: what levels.ts computes that day's change from.
 */
import { cappedShares, type IndexDef } from './indices.js';
import type { Member } from './levels.js';
import type { EquitySpec } from './model.js';
import type { DayBar, MinuteBar } from './model.js';
import type { ShareCount } from './prices.js';

/** Weights in millionths of a percent (datasets/index-weights.ts WEIGHT). */
const WEIGHT_UNIT = 1_000_000;

/** What index-members needs of a simulated equity. */
export interface MemberSource {
  spec: EquitySpec;
  daily: (DayBar | null)[];
  minutes: Map<number, MinuteBar[]>;
  shares: ShareCount[];
}

/** An index's members of one period (day indices from..to−1), with their q. */
export interface IndexPeriod {
  from: number;
  to: number;
  members: { id: string; q: number }[];
}

/** A weight row: on `date`, member `id` weighs `weight` millionths of a percent. */
export interface WeightRow {
  date: number;
  id: string;
  weight: number;
}

/** YYYYMMDD of the second Friday of `month` in `year`. */
function secondFriday(year: number, month: number): number {
  const dow = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return year * 10000 + month * 100 + 1 + ((5 - dow + 7) % 7) + 7;
}

/** The first day index of each period: 0, then each review's effective day (the trading day after the second Friday of June and December). */
export function periodStarts(days: readonly number[]): number[] {
  const out = [0];
  if (days.length === 0) return out;
  for (let y = Math.floor(days[0] / 10000); y <= Math.floor(days[days.length - 1] / 10000); y++)
    for (const m of [6, 12]) {
      const f = secondFriday(y, m);
      const i = days.findIndex((d) => d > f);
      if (i > 0 && i > out[out.length - 1]) out.push(i);
    }
  return out;
}

/** The last close of `daily` on or before day index `i` (null: none). */
function closeBy(daily: (DayBar | null)[], i: number): number | null {
  for (let k = i; k >= 0; k--) if (daily[k]) return daily[k]!.close;
  return null;
}

/** The float in force on `date` (the latest change on or before it; the spec's before any). */
function floatOn(src: MemberSource, date: number): number {
  let f = src.spec.floatShares;
  for (const c of src.shares) if (c.date <= date) f = c.float;
  return f;
}

/** The periods of `def`'s members over `days`. */
export function indexPeriods(def: IndexDef, sources: ReadonlyMap<string, MemberSource>, days: readonly number[]): IndexPeriod[] {
  const starts = periodStarts(days);
  const specs = [...sources.values()].map((s) => s.spec);
  return starts.map((from, k) => {
    const to = starts[k + 1] ?? days.length;
    // At the start, sizes at the first prices; at a review, at the close before it.
    const price = (s: EquitySpec) => (from === 0 ? s.price0 : (closeBy(sources.get(s.id)!.daily, from - 1) ?? s.price0));
    const float = (s: EquitySpec) => (from === 0 ? s.floatShares : floatOn(sources.get(s.id)!, days[from - 1]));
    const listed = specs.filter((s) => s.listDate < days[from]);
    const chosen = def.select(listed, (s) => float(s) * price(s));
    const q = cappedShares(chosen.map((s) => ({ floatShares: float(s), price: price(s) })));
    return { from, to, members: chosen.map((s, i) => ({ id: s.id, q: q[i] })) };
  });
}

/** The members of levels.ts over the periods. */
export function levelMembers(periods: readonly IndexPeriod[], sources: ReadonlyMap<string, MemberSource>): Member[] {
  return periods.flatMap((p) =>
    p.members.map((m) => {
      const s = sources.get(m.id)!;
      return { q: m.q, from: p.from, to: p.to, listDate: s.spec.listDate, daily: s.daily, minutes: s.minutes };
    }),
  );
}

/**
 * The weights published on each period's first day: q × reference price (that day's, or the last
 * close of a suspended member) over their sum, rounded to a millionth of a percent.
 */
export function weightRows(
  periods: readonly IndexPeriod[],
  sources: ReadonlyMap<string, MemberSource>,
  days: readonly number[],
): WeightRow[] {
  const out: WeightRow[] = [];
  for (const p of periods) {
    const caps = p.members.map((m) => {
      const daily = sources.get(m.id)!.daily;
      const ref = daily[p.from]?.ref ?? closeBy(daily, p.from - 1);
      return ref === null ? 0 : m.q * ref;
    });
    const total = caps.reduce((a, x) => a + x, 0);
    if (total === 0) continue;
    p.members.forEach((m, i) => {
      if (caps[i] > 0) out.push({ date: days[p.from], id: m.id, weight: Math.round((caps[i] / total) * 100 * WEIGHT_UNIT) });
    });
  }
  return out;
}
