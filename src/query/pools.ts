import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import { decodedAmount } from '../store/schema.js';
import type { Catalog } from '../store/catalog.js';
import type { Bar, BoardId, MarketId } from '../market/types.js';
import type { CorporateAction } from '../market/adjust.js';
import { dayLimits, sinceListing, stOn, type DayLimit } from '../market/day-limits.js';
import { intradayLimitStats, memberships, STRONG_HIGH_DAYS, type PoolTypeId } from '../market/pools.js';
import { marketEpoch } from '../lib/time.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { PoolReader } from '../store/readers/pools.js';
import type { Calendars } from './calendars.js';

export interface PoolMember {
  inst: number; id: string; name: string; date: number; day: DayLimit; floatShares: number | null;
  streak: number; previousStreak: number; strongReason: string | null;
  firstLimit: number | null; lastLimit: number | null; broken: number | null; sealedAmount: number | null;
}

/**
 * The six pools of one trading day, computed together for every equity from daily bars, limits
 * and (for limit-up details) that day's 1m bars and closing quote; cached per data version and date.
 */
export class Pools {
  private cache = new CountedCache<string, Map<PoolTypeId, PoolMember[]>>('pools', { max: 64 });

  /** The caches, counted (CacheCounts), for the metrics. */
  readonly caches: readonly CacheCounts[] = [this.cache];

  constructor(private readonly pools: PoolReader, private readonly catalog: Catalog, private readonly reader: MarketDataReader,
    private readonly calendars: Calendars) {}

  async members(type: PoolTypeId, date: number): Promise<PoolMember[]> {
    const key = `${await this.catalog.dataVersion()}|${date}`;
    let all = this.cache.get(key);
    if (!all) { all = await this.compute(date); this.cache.set(key, all); }
    return all.get(type) ?? [];
  }

  private async compute(date: number): Promise<Map<PoolTypeId, PoolMember[]>> {
    // The window of each market's calendar ending at `date` (markets share holidays, but loaded
    // days may differ); bars are read from the earliest window start.
    const cals = await this.calendars.all();
    const windows = new Map<string, number[]>();
    for (const [market, cal] of Object.entries(cals)) {
      const idx = cal.ordinal(date);
      if (idx !== undefined) windows.set(market, cal.days.slice(Math.max(0, idx - STRONG_HIGH_DAYS), idx + 1));
    }
    if (!windows.size) return new Map();
    const w0 = Math.min(...[...windows.values()].map((d) => d[0]));
    const equities = await this.pools.listedEquities(date);
    const { bars, prevs, st, actions } = await this.pools.window(w0, date);
    const group = <T extends { inst: number }>(rows: T[]) => {
      const m = new Map<number, T[]>();
      for (const r of rows) { const a = m.get(r.inst); if (a) a.push(r); else m.set(r.inst, [r]); }
      return m;
    };
    const barsBy = group(bars), stBy = group(st), actBy = group(actions);
    const prevBy = new Map(prevs.map((p) => [p.inst, p]));
    const out = new Map<PoolTypeId, PoolMember[]>();
    const limitUps: PoolMember[] = [];
    for (const e of equities) {
      const days = windows.get(e.market);
      if (!days) continue;
      // An unknown listing date (null) is before the first stored bar: every day of the window counts.
      const own = e.list_date === null ? days : days.filter((d) => d >= e.list_date!);
      if (!own.length) continue;
      const p = prevBy.get(e.inst);
      const states = dayLimits({
        days: own, board: e.board as BoardId, market: e.market as MarketId, listDate: e.list_date,
        sinceListing: sinceListing(cals[e.market as MarketId], e.list_date),
        isSt: stOn(stBy.get(e.inst) ?? []),
        actions: new Map((actBy.get(e.inst) ?? []).map((a) => [a.ex_date, a as CorporateAction])),
        prevBar: p ? { ts: 0, ...decodedAmount(p) } : null,
        bars: new Map((barsBy.get(e.inst) ?? []).map((b) => [b.date, { ts: 0, ...decodedAmount(b) } as Bar])),
      });
      const m = memberships(states);
      const member: PoolMember = {
        inst: e.inst, id: e.id, name: e.name, date, day: states[states.length - 1], floatShares: e.float_shares,
        streak: m.streak, previousStreak: m.previousStreak, strongReason: m.strongReason,
        firstLimit: null, lastLimit: null, broken: null, sealedAmount: null,
      };
      for (const t of m.pools) (out.get(t) ?? out.set(t, []).get(t)!).push(member);
      if (m.pools.includes('limit_up') || m.pools.includes('broken_limit_up')) limitUps.push(member);
    }
    await this.intraday(limitUps, date);
    return out;
  }

  /** Limit-up timing from the day's 1m bars and the sealed bid from its last quote, where stored. */
  private async intraday(members: PoolMember[], date: number): Promise<void> {
    const from = marketEpoch(date, 0), to = marketEpoch(date, 1440);
    for (const mb of members) {
      const inst = mb.inst;
      const up = mb.day.up!;
      const minutes = await this.reader.minuteBars(inst, from, to - 1, null, 1_000);
      if (minutes.length) {
        const s = intradayLimitStats(minutes, up);
        mb.firstLimit = s.first; mb.lastLimit = s.last; mb.broken = s.broken;
      }
      const q = await this.pools.lastQuote(inst, from, to);
      if (q && mb.day.bar!.close === up && q.ask_p1 === null && q.bid_p1 === up && q.bid_v1 !== null) {
        mb.sealedAmount = Math.round((up * q.bid_v1) / 10); // fen
      }
    }
  }
}
