/**
 * Lifecycle events of the demo equities: special-treatment (ST) periods, suspensions and the
 * plan of corporate actions (dividends, bonus and transfer shares, rights issues). Cash amounts
 * are fixed later by prices.ts, from the close before each ex-date.
 */
import { tradingDaysBetween, CALENDAR_FIRST } from '../market/calendar.js';
import { addDays } from '../lib/time.js';
import type { Rng } from './random.js';
import type { EquitySpec, PlannedAction, Span } from './model.js';
import { stName } from './names.js';

/** True when `s` is under special treatment on `date`. */
export function isSt(s: EquitySpec, date: number): boolean {
  return s.st.some((p) => p.start <= date && (p.end === null || date <= p.end));
}

const ordinary = (s: EquitySpec) => !s.isNew && !s.wellKnown && s.price0 < 200_000 && s.industry.key !== 'banks';

/** ST periods: some for the whole range, some starting inside it, one ending inside it. */
export function assignSt(rng: Rng, specs: EquitySpec[], span: Span): void {
  const { days } = span;
  const L = days.length;
  const count = Math.max(3, Math.round(specs.length * 0.05));
  const boardWeight = { main: 6, chinext: 1, star: 1, bse: 0.5 };
  const pool = specs.filter(ordinary);
  const types = ['leaving', 'becoming', 'whole', 'both'];
  for (let k = 0; k < count && pool.length > 0; k++) {
    const s = pool.splice(rng.weighted(pool.map((p) => boardWeight[p.board])), 1)[0];
    const type = k < 3 ? types[k] : rng.pick(types.slice(1));
    const before = tradingDaysBetween(Math.max(CALENDAR_FIRST, s.listDate, addDays(days[0], -900)), addDays(days[0], -30));
    const earlyStart = before.length > 0 ? rng.pick(before) : days[0];
    const at = (a: number, b: number) => days[Math.min(L - 1, rng.int(Math.floor(a * L), Math.floor(b * L)))];
    if (type === 'whole') s.st.push({ start: earlyStart, end: null });
    else if (type === 'becoming') s.st.push({ start: at(0.3, 0.85), end: null });
    else if (type === 'leaving') s.st.push({ start: earlyStart, end: at(0.3, 0.7) });
    else {
      const a = at(0.1, 0.4);
      s.st.push({ start: a, end: days[Math.min(L - 2, days.indexOf(a) + rng.int(60, 200))] });
    }
    if (type === 'whole' || type === 'leaving') s.price0 = Math.round(rng.uniform(1.8, 5) * 100) * 10;
    if (isSt(s, days[L - 1])) {
      const star = rng.chance(0.5);
      s.name = stName(s.brand, star);
      s.nameEn = `${star ? '*ST' : 'ST'} ${s.nameEn}`;
    }
  }
}

/** Suspension spells; one inside the minute-data window and one running through `end`. */
export function assignSuspensions(rng: Rng, specs: EquitySpec[], span: Span): void {
  const { days } = span;
  const L = days.length;
  const minute = days.filter((d) => span.minuteDays.has(d));
  const pool = rng.shuffle(specs.filter((s) => ordinary(s) && s.st.length === 0));
  const take = () => pool.shift();
  const mark = (s: EquitySpec | undefined, from: number, len: number) => {
    if (!s) return;
    for (let i = Math.max(1, from); i < Math.min(L, from + len); i++) s.suspended.add(days[i]);
  };
  if (minute.length > 0) {
    const m = minute.length;
    const len = m >= 3 ? Math.min(2, m - 2) : 1;
    const first = m >= 3 ? Math.max(0, m - 2 - len) : 0;
    mark(take(), days.indexOf(minute[first]), len);
  }
  if (L > 40) mark(take(), L - 8, 8);
  const spells = Math.max(2, Math.round(specs.length * 0.03));
  const latest = Math.max(6, L - minute.length - 25);
  for (let k = 0; k < spells; k++) mark(take(), rng.int(5, latest), rng.int(3, 20));
}

/** Yearly dividends (May–July ex-dates), some with bonus/transfer shares, and a few rights issues. */
export function planActions(rng: Rng, specs: EquitySpec[], span: Span): void {
  const { days } = span;
  const pos = new Map(days.map((d, i) => [d, i]));
  const calendar = tradingDaysBetween(CALENDAR_FIRST, days[days.length - 1]);
  const calPos = new Map(calendar.map((d, i) => [d, i]));
  const firstYear = Math.floor(days[0] / 10000),
    lastYear = Math.floor(days[days.length - 1] / 10000);
  const usable = (s: EquitySpec, d: number) =>
    (pos.get(d) ?? 0) >= 2 && !s.suspended.has(d) && !isSt(s, d) && !s.actions.some((a) => a.exDate === d) && d > s.listDate;
  const dated = (d: number, r: Rng): Pick<PlannedAction, 'exDate' | 'recordDate' | 'announceDate'> => {
    const i = calPos.get(d)!;
    return { exDate: d, recordDate: calendar[i - 1], announceDate: calendar[Math.max(0, i - 1 - r.int(10, 30))] };
  };
  for (const s of specs) {
    const r = rng.fork(s.id);
    for (let y = firstYear; y <= lastYear; y++) {
      if (s.listDate >= y * 10000 + 101 || !r.chance(0.88)) continue;
      const window = tradingDaysBetween(y * 10000 + 515, y * 10000 + 731).filter((d) => usable(s, d));
      if (window.length === 0) continue;
      const d = r.pick(window);
      const shares = r.chance(0.12);
      const transfer = shares && r.chance(0.7) ? r.int(2, 5) * 100_000 : 0;
      const bonus = shares && transfer === 0 ? r.int(1, 3) * 100_000 : 0;
      s.actions.push({
        ...dated(d, r),
        cashYield: s.dividendYield * r.uniform(0.7, 1.3) * (shares ? 0.5 : 1),
        bonusRatio: bonus,
        transferRatio: transfer,
        rightsRatio: 0,
        rightsDiscount: 0,
      });
    }
  }
  const rights = rng
    .shuffle(specs.filter((s) => !s.isNew && !s.wellKnown && s.st.length === 0))
    .slice(0, Math.max(1, Math.round(specs.length / 100)));
  for (const s of rights) {
    const r = rng.fork(`rights/${s.id}`);
    const window = days.slice(Math.floor(days.length * 0.2), Math.floor(days.length * 0.8)).filter((d) => usable(s, d));
    if (window.length === 0) continue;
    s.actions.push({
      ...dated(r.pick(window), r),
      cashYield: 0,
      bonusRatio: 0,
      transferRatio: 0,
      rightsRatio: r.int(2, 3) * 100_000,
      rightsDiscount: r.uniform(0.6, 0.8),
    });
  }
  for (const s of specs) s.actions.sort((a, b) => a.exDate - b.exDate);
}
