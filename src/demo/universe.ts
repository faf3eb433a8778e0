/**
 * The demo equities: board mix, realistic codes and listing dates, names, sizes, prices and
 * classifications. ST periods, suspensions and corporate actions are added by events.ts.
 */
import type { BoardId, MarketId } from '../market/types.js';
import { addDays, dateToDays, daysToDate, weekday } from '../lib/time.js';
import { tradingDaysBetween, CALENDAR_FIRST } from '../market/calendar.js';
import { boardOf } from '../market/boards.js';
import { CONCEPTS, INDUSTRIES, REGIONS } from './catalog.js';
import { companyName } from './names.js';
import { WELL_KNOWN } from './well-known.js';
import type { Rng } from './random.js';
import type { EquitySpec } from './model.js';

type Segment = 'sh_main' | 'star' | 'sz_main' | 'chinext' | 'bse';

/** [code prefix, first listing date, last listing date, weight]. */
type Prefix = [string, number, number, number];

/** Prefixes of new listings: [prefix, in use from]. */
type Fresh = [string, number][];

const SEGMENTS: Record<Segment, { market: MarketId; share: number; old: Prefix[]; fresh: Fresh }> = {
  sh_main: {
    market: 'SH',
    share: 0.3,
    fresh: [
      ['601', 20060101],
      ['603', 20110101],
      ['605', 20200101],
    ],
    old: [
      ['600', 19901219, 20051231, 5],
      ['601', 20060101, 20161231, 3],
      ['603', 20110101, 20211231, 3],
      ['605', 20200101, 20221231, 1],
    ],
  },
  star: { market: 'SH', share: 0.15, fresh: [['688', 20190722]], old: [['688', 20190722, 20221231, 1]] },
  sz_main: {
    market: 'SZ',
    share: 0.25,
    fresh: [
      ['002', 20040601],
      ['001', 20200101],
    ],
    old: [
      ['000', 19910703, 20001231, 5],
      ['002', 20040601, 20211231, 5],
      ['001', 20200101, 20221231, 1],
      ['003', 20201101, 20211231, 1],
    ],
  },
  chinext: {
    market: 'SZ',
    share: 0.2,
    fresh: [
      ['300', 20091030],
      ['301', 20200824],
    ],
    old: [
      ['300', 20091030, 20200821, 3],
      ['301', 20200824, 20221231, 2],
    ],
  },
  bse: {
    market: 'BJ',
    share: 0.1,
    fresh: [
      ['83', 20211115],
      ['87', 20211115],
      ['920', 20241021],
    ],
    old: [
      ['83', 20211115, 20221231, 2],
      ['87', 20211115, 20221231, 2],
    ],
  },
};
const SEGMENT_IDS = Object.keys(SEGMENTS) as Segment[];

/** Boards of the listings made inside the range: the first four cover every board. */
const NEW_ORDER: Segment[] = ['sh_main', 'chinext', 'star', 'bse', 'sz_main'];
/** Main-board IPOs are unlimited for five days only from the registration reform. */
const MAIN_REGISTRATION = 20230410;

/** Largest-remainder allocation of n over shares, at least `min` each. */
function allocate(n: number, shares: number[], min: number): number[] {
  const out = shares.map(() => min);
  const rest = n - min * shares.length;
  const raw = shares.map((s) => s * rest);
  raw.forEach((r, i) => {
    out[i] += Math.floor(r);
  });
  const order = raw.map((r, i) => [r - Math.floor(r), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0, left = n - out.reduce((a, b) => a + b, 0); k < left; k++) out[order[k][1]]++;
  return out;
}

/** A trading day in [from, to] (a weekday before the calendar table starts). */
function dayIn(rng: Rng, from: number, to: number): number {
  if (from >= CALENDAR_FIRST) {
    const days = tradingDaysBetween(from, Math.max(to, from));
    return days.length > 0 ? rng.pick(days) : tradingDaysBetween(from, addDays(from, 30))[0];
  }
  let d = daysToDate(rng.int(dateToDays(from), Math.max(dateToDays(from), dateToDays(to))));
  while (weekday(d) > 5) d = addDays(d, -1);
  return d;
}

const lognormal = (rng: Rng, median: number, sigma: number) => median * Math.exp(sigma * rng.normal());
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export interface UniverseInput {
  n: number;
  start: number;
  end: number;
  days: number[];
}

/** Builds the equities, sorted by id. */
export function buildUniverse(rng: Rng, input: UniverseInput): EquitySpec[] {
  const { n, start, days } = input;
  const counts = allocate(
    n,
    SEGMENT_IDS.map((s) => SEGMENTS[s].share),
    2,
  );
  const nNew = Math.max(4, Math.round(n * 0.06));
  const newSegs: Segment[] = [];
  for (let k = 0; k < nNew; k++) newSegs.push(NEW_ORDER[k % NEW_ORDER.length]);
  const codes = new Set<string>(WELL_KNOWN.map((w) => w.code));
  // No fictional name may read like a real one (长江 + 电力).
  const brands = new Set<string>(WELL_KNOWN.map((w) => w.name.slice(0, 2)));
  // Listing window for new listings: late enough to be inside the range, early enough to trade.
  const lo = Math.min(days.length - 1, 15),
    hi = Math.max(lo, days.length - 30);
  const out: EquitySpec[] = [];

  SEGMENT_IDS.forEach((seg, si) => {
    const def = SEGMENTS[seg];
    const fresh = newSegs.filter((s) => s === seg).length;
    const known = WELL_KNOWN.filter((w) => segmentOf(w) === seg).slice(0, Math.max(0, counts[si] - fresh));
    for (let k = 0; k < counts[si]; k++) {
      const r = rng.fork(`${seg}/${k}`);
      if (k < known.length) {
        out.push(knownSpec(r, known[k]));
        continue;
      }
      const isNew = k >= counts[si] - fresh;
      let listDate: number, prefix: string;
      if (isNew) {
        const opened = Math.min(...def.old.map((p) => p[1]));
        const window = days.slice(lo, hi + 1).filter((d) => d >= opened);
        const registered = window.filter((d) => d >= MAIN_REGISTRATION);
        listDate =
          window.length === 0
            ? Math.max(opened, days[days.length - 1])
            : r.pick((seg === 'sh_main' || seg === 'sz_main') && registered.length > 0 ? registered : window);
        // The newest code range in use on the listing date (BJ moved new listings to 920 in 2024).
        const inUse = def.fresh.filter((f) => f[1] <= listDate);
        const newest = Math.max(...inUse.map((f) => f[1]));
        prefix = inUse.length === 0 ? def.fresh[0][0] : r.pick(inUse.filter((f) => f[1] === newest))[0];
      } else {
        const p = def.old[r.weighted(def.old.map((x) => x[3]))];
        prefix = p[0];
        const latest = addDays(start, -45);
        listDate = dayIn(r, p[1], Math.max(p[1], Math.min(p[2], latest)));
      }
      let code: string;
      do code = prefix + String(r.int(0, 10 ** (6 - prefix.length) - 1)).padStart(6 - prefix.length, '0');
      while (codes.has(code) || code.endsWith('000'));
      codes.add(code);
      const board: BoardId = boardOf(code, def.market);
      const industry = INDUSTRIES[r.weighted(INDUSTRIES.map((i) => i.weight[board]))];
      const nm = companyName(r, industry, brands);
      out.push(makeSpec(r, { code, market: def.market, board, listDate, isNew: listDate >= start, industry, ...nm }));
    }
  });
  markHighPriced(rng.fork('high-priced'), out, n >= 100 ? 3 : 1);
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

const segmentOf = (w: { board: BoardId; market: MarketId }): Segment =>
  w.board !== 'main' ? w.board : w.market === 'SH' ? 'sh_main' : 'sz_main';

/** A well-known equity: its real code, name, listing and shares; the rest drawn like any other. */
function knownSpec(r: Rng, w: (typeof WELL_KNOWN)[number]): EquitySpec {
  const industry = INDUSTRIES.find((i) => i.key === w.industry)!;
  const spec = makeSpec(r, {
    code: w.code,
    market: w.market,
    board: w.board,
    listDate: w.listDate,
    isNew: false,
    industry,
    brand: w.name,
    name: w.name,
    nameEn: w.nameEn,
  });
  return {
    ...spec,
    wellKnown: true,
    price0: Math.round(w.price * 100) * 10,
    totalShares: w.totalShares,
    floatShares: Math.floor(w.floatShares / 100) * 100,
  };
}

function makeSpec(
  r: Rng,
  b: Pick<EquitySpec, 'code' | 'market' | 'board' | 'listDate' | 'isNew' | 'industry' | 'brand' | 'name' | 'nameEn'>,
): EquitySpec {
  const growth = b.board === 'main' ? 1 : b.board === 'bse' ? 0.8 : 1.6;
  const bank = b.industry.key === 'banks';
  const price = bank ? lognormal(r, 6, 0.3) : clamp(lognormal(r, 13 * growth, 0.7), 2.6, 180);
  const price0 = b.isNew ? Math.round(clamp(lognormal(r, 18 * growth, 0.5), 5, 90) * 100) * 10 : Math.round(price * 100) * 10;
  const capMedian = bank ? 8e10 : b.board === 'bse' ? 2.2e9 : b.board === 'main' ? 9e9 : 7e9;
  const cap = lognormal(r, b.isNew ? capMedian / 2 : capMedian, bank ? 0.8 : 0.9);
  const totalShares = Math.max(30_000_000, Math.round(cap / (price0 / 1000) / 10_000) * 10_000);
  const floatShares = Math.round((totalShares * (b.isNew ? r.uniform(0.08, 0.25) : r.uniform(0.4, 1))) / 100) * 100;
  const region = REGIONS[r.weighted(REGIONS.map((x) => x[2]))][0];
  const nConcepts = r.weighted([0.25, 0.4, 0.25, 0.1]);
  const concepts: string[] = [];
  for (let t = 0; concepts.length < nConcepts && t < 20; t++) {
    const c = b.industry.concepts.length > 0 && r.chance(0.8) ? r.pick(b.industry.concepts) : r.pick(CONCEPTS)[0];
    if (!concepts.includes(c)) concepts.push(c);
  }
  const vol = b.board === 'main' ? 0.014 : b.board === 'bse' ? 0.024 : 0.02;
  const turnover = (b.board === 'main' ? 0.012 : 0.028) * Math.exp(0.5 * r.normal()) * (bank ? 0.3 : 1);
  return {
    ...b,
    id: `${b.code}.${b.market}`,
    price0,
    totalShares,
    floatShares,
    region,
    concepts: concepts.sort(),
    beta: r.uniform(0.7, 1.3) * (bank ? 0.7 : 1),
    sigma: vol * r.uniform(0.75, 1.3) * (bank ? 0.6 : 1),
    turnover: clamp(turnover, 0.002, 0.08),
    dividendYield: bank ? r.uniform(0.04, 0.06) : r.uniform(0.003, 0.03),
    st: [],
    suspended: new Set(),
    actions: [],
    wellKnown: false,
  };
}

/** A few blue chips priced above 1000 CNY (like Kweichow Moutai), the largest caps of the demo. */
function markHighPriced(r: Rng, specs: EquitySpec[], count: number): void {
  const wanted: [BoardId, string][] = [
    ['main', 'food_beverage'],
    ['star', 'electronics'],
    ['main', 'pharma'],
  ];
  for (let k = 0; k < count; k++) {
    const [board, industry] = wanted[k];
    if (specs.some((s) => s.board === board && s.price0 >= 1e6)) continue;
    const pool = specs.filter((s) => !s.isNew && !s.wellKnown && s.board === board && s.industry.key !== 'banks' && s.price0 < 1e6);
    if (pool.length === 0) continue;
    const preferred = pool.filter((s) => s.industry.key === industry);
    const s = r.pick(preferred.length > 0 ? preferred : pool);
    s.price0 = Math.round(r.uniform(1300, 1900)) * 1000;
    // A market leader, but scaled to the small demo market so it does not swamp the indices.
    s.totalShares = Math.round(r.uniform(8e7, 1.5e8) / 10_000) * 10_000;
    s.floatShares = Math.round((s.totalShares * r.uniform(0.9, 1)) / 100) * 100;
    s.turnover = 0.003;
    s.sigma = 0.011;
  }
}
