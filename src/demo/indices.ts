/**
 * The demo indices and how their constituents are chosen from the demo universe (by market,
 * board and free-float market value at the start, then again at each review: index-members.ts).
 * Levels are computed by levels.ts.
 */
import type { MarketId } from '../market/types.js';
import type { EquitySpec } from './model.js';

export interface IndexDef {
  code: string;
  market: MarketId;
  name: string;
  nameEn: string;
  /** Publication date (stored as list_date), base date and base value in points. */
  launch: number;
  baseDate: number;
  baseValue: number;
  /** Approximate level at the first trading day of 2023..2026; the demo starts near it. */
  levels: [number, number, number, number];
  /** The members of `universe` (the equities listed by then) ranked by `size`, their free-float market value then. */
  select(universe: EquitySpec[], size: Size): EquitySpec[];
}

/** An equity's free-float market value at a selection. */
export type Size = (s: EquitySpec) => number;
const bySize = (xs: EquitySpec[], size: Size) => xs.slice().sort((a, b) => size(b) - size(a) || (a.id < b.id ? -1 : 1));
const is =
  (...boards: string[]) =>
  (s: EquitySpec) =>
    boards.includes(s.board);
const inMarket =
  (...m: MarketId[]) =>
  (s: EquitySpec) =>
    m.includes(s.market);

/**
 * The pool of a size-ranked index: established (listed before the data starts), never-ST stocks
 * passing `keep`; new listings too when fewer than two remain (a board that opens in the range).
 */
const eligible = (u: EquitySpec[], keep: (s: EquitySpec) => boolean) => {
  const pool = u.filter((s) => keep(s) && s.st.length === 0);
  const old = pool.filter((s) => !s.isNew);
  return old.length >= 2 ? old : pool;
};

/** The `share` largest of `xs` after skipping the `skip` largest (at least 2, at most `max`). */
function slice(xs: EquitySpec[], size: Size, skip: number, share: number, max: number): EquitySpec[] {
  const sorted = bySize(xs, size);
  const from = Math.min(Math.round(skip * sorted.length), Math.max(0, sorted.length - 2));
  const n = Math.min(max, Math.max(2, Math.round(share * sorted.length)));
  return sorted.slice(from, from + n);
}

export const INDEX_DEFS: readonly IndexDef[] = [
  {
    code: '000001',
    market: 'SH',
    name: '上证指数',
    nameEn: 'SSE Composite Index',
    launch: 19910715,
    baseDate: 19901219,
    baseValue: 100,
    levels: [3116, 2962, 3262, 3968],
    select: (u) => u.filter(inMarket('SH')),
  },
  {
    code: '000016',
    market: 'SH',
    name: '上证50',
    nameEn: 'SSE 50 Index',
    launch: 20040102,
    baseDate: 20031231,
    baseValue: 1000,
    levels: [2630, 2372, 2680, 3050],
    select: (u, size) =>
      slice(
        eligible(u, (s) => is('main')(s) && inMarket('SH')(s)),
        size,
        0,
        0.25,
        50,
      ),
  },
  {
    code: '000300',
    market: 'SH',
    name: '沪深300',
    nameEn: 'CSI 300 Index',
    launch: 20050408,
    baseDate: 20041231,
    baseValue: 1000,
    levels: [3887, 3386, 3820, 4630],
    select: (u, size) => slice(eligible(u, inMarket('SH', 'SZ')), size, 0, 0.3, 300),
  },
  {
    code: '000905',
    market: 'SH',
    name: '中证500',
    nameEn: 'CSI 500 Index',
    launch: 20070115,
    baseDate: 20041231,
    baseValue: 1000,
    levels: [5930, 5430, 5620, 7460],
    select: (u, size) => slice(eligible(u, inMarket('SH', 'SZ')), size, 0.3, 0.25, 500),
  },
  {
    code: '000852',
    market: 'SH',
    name: '中证1000',
    nameEn: 'CSI 1000 Index',
    launch: 20141017,
    baseDate: 20041231,
    baseValue: 1000,
    levels: [6380, 5720, 5860, 7600],
    select: (u, size) => slice(eligible(u, inMarket('SH', 'SZ')), size, 0.55, 0.35, 1000),
  },
  {
    code: '000688',
    market: 'SH',
    name: '科创50',
    nameEn: 'STAR 50 Index',
    launch: 20200723,
    baseDate: 20191231,
    baseValue: 1000,
    levels: [955, 845, 990, 1330],
    select: (u, size) => slice(eligible(u, is('star')), size, 0, 0.6, 50),
  },
  {
    code: '399001',
    market: 'SZ',
    name: '深证成指',
    nameEn: 'SZSE Component Index',
    launch: 19950123,
    baseDate: 19940720,
    baseValue: 1000,
    levels: [11180, 9350, 10350, 13500],
    select: (u, size) => slice(eligible(u, inMarket('SZ')), size, 0, 0.5, 500),
  },
  {
    code: '399006',
    market: 'SZ',
    name: '创业板指',
    nameEn: 'ChiNext Index',
    launch: 20100601,
    baseDate: 20100531,
    baseValue: 1000,
    levels: [2380, 1850, 2140, 3200],
    select: (u, size) => slice(eligible(u, is('chinext')), size, 0, 0.5, 100),
  },
  {
    code: '399106',
    market: 'SZ',
    name: '深证综指',
    nameEn: 'SZSE Composite Index',
    launch: 19910403,
    baseDate: 19910403,
    baseValue: 100,
    levels: [2010, 1790, 1950, 2550],
    select: (u) => u.filter(inMarket('SZ')),
  },
  {
    code: '399330',
    market: 'SZ',
    name: '深证100',
    nameEn: 'SZSE 100 Index',
    launch: 20030102,
    baseDate: 20021231,
    baseValue: 1000,
    levels: [6620, 5200, 5780, 7350],
    select: (u, size) => slice(eligible(u, inMarket('SZ')), size, 0, 0.2, 100),
  },
  {
    code: '899050',
    market: 'BJ',
    name: '北证50',
    nameEn: 'BSE 50 Index',
    launch: 20221121,
    baseDate: 20220429,
    baseValue: 1000,
    levels: [980, 1010, 1250, 1420],
    select: (u, size) => slice(eligible(u, is('bse')), size, 0, 0.7, 50),
  },
];

/** The approximate real level at `start` (nearest tabulated year). */
export function startLevel(def: IndexDef, start: number): number {
  const y = Math.floor(start / 10000);
  return def.levels[Math.min(3, Math.max(0, y - 2023))];
}

/**
 * Index share counts q: free-float shares, capped so that no constituent weighs more than
 * `max(10%, 2/n)` of the index at the start (the capping factor of CSI and SZSE indices), so
 * that one giant of the small demo market (600519.SH) does not make an index one stock.
 */
export function cappedShares(members: { floatShares: number; price: number }[]): number[] {
  const n = members.length;
  const cap = Math.max(0.1, 2 / n);
  const w = members.map((m) => m.floatShares * m.price);
  const capped = new Set<number>();
  for (;;) {
    const free = w.reduce((a, x, i) => (capped.has(i) ? a : a + x), 0);
    // The capped share the others leave: each capped member is cap × total, total = free / (1 - cap × k).
    const total = free / (1 - cap * capped.size);
    const over = w.map((x, i) => i).filter((i) => !capped.has(i) && w[i] > cap * total);
    if (over.length === 0 || capped.size + over.length >= n) {
      return members.map((m, i) => (capped.has(i) ? Math.max(1, Math.round((m.floatShares * (cap * total)) / w[i])) : m.floatShares));
    }
    for (const i of over) capped.add(i);
  }
}
