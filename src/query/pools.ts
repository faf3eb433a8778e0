import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { CatalogSnapshot } from '../store/catalog.js';
import { DAY_FLAGS, POOL_FLAGS, type DayRecords } from '../store/day-records.js';
import { amountOf } from '../store/schema.js';
import type { Bar } from '../market/types.js';
import { intradayLimitStats, type PoolTypeId } from '../market/pools.js';
import { marketEpoch } from '../lib/time.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { MarketDayReader } from '../store/readers/market-days.js';
import type { PoolReader } from '../store/readers/pools.js';
import { MARKET_IDS } from '../market/types.js';

/** An equity's day as a pool lists it (prices in 1/1000 CNY). */
export interface PoolDay {
  preClose: number | null;
  up: number | null;
  down: number | null;
  bar: Bar;
}

export interface PoolMember {
  inst: number;
  id: string;
  name: string;
  date: number;
  day: PoolDay;
  floatShares: number | null;
  streak: number;
  previousStreak: number;
  strongReason: string | null;
  firstLimit: number | null;
  lastLimit: number | null;
  broken: number | null;
  sealedAmount: number | null;
}

/** The pools of the latest data versions and dates, kept across requests. */
export class PoolCaches {
  readonly pools = new CountedCache<string, Promise<Map<PoolTypeId, PoolMember[]>>>('pools', { max: 64 });
  /** The caches, counted (CacheCounts), for the metrics. */
  readonly all: readonly CacheCounts[] = [this.pools];
}

/**
 * The six pools of one trading day, read from the stored days of the markets
 * (derived/market-days.ts: the pool rules applied to every equity at ingest), with the limit-up
 * timing of members from that day's 1m bars and closing quote; cached per data version and date.
 */
export class Pools {
  private readonly cache: PoolCaches['pools'];

  constructor(
    private readonly pools: PoolReader,
    private readonly days: MarketDayReader,
    private readonly catalog: CatalogSnapshot,
    private readonly reader: MarketDataReader,
    caches: PoolCaches,
    /** The last version that changed what the markets' days up to a date hold (their entries are keyed by it). */
    private readonly versionOf: (date: number) => number,
  ) {
    this.cache = caches.pools;
  }

  async members(type: PoolTypeId, date: number): Promise<PoolMember[]> {
    const key = `${this.versionOf(date)}|${date}`;
    let all = this.cache.get(key);
    if (!all) {
      all = this.compute(date);
      all.catch(() => this.cache.delete(key));
      this.cache.set(key, all);
    }
    return (await all).get(type) ?? [];
  }

  private async compute(date: number): Promise<Map<PoolTypeId, PoolMember[]>> {
    const snap = this.catalog;
    const out = new Map<PoolTypeId, PoolMember[]>();
    const limitUps: PoolMember[] = [];
    const [days, floats] = await Promise.all([Promise.all(MARKET_IDS.map((m) => this.days.day(m, date))), this.pools.floatSharesOn(date)]);
    const members: (PoolMember & { flags: number })[] = [];
    for (const day of days) {
      if (!day) continue;
      for (let i = 0; i < day.n; i++) {
        if (!day.has(i, DAY_FLAGS.equity) || !day.has(i, DAY_FLAGS.bar) || (day.flags[i] & ALL_POOLS) === 0) continue;
        const row = snap.byInst.get(day.inst[i]);
        // Turnover against the float in force that day (share capital), else the instrument's current float.
        if (row) members.push(member(day, i, row.id, row.name, floats.get(row.inst) ?? row.float_shares, date));
      }
    }
    // Ids in order across markets (each market's records are in id order).
    members.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const m of members) {
      const flags = m.flags;
      for (const t of Object.keys(POOL_FLAGS) as PoolTypeId[]) if (flags & POOL_FLAGS[t]) (out.get(t) ?? out.set(t, []).get(t)!).push(m);
      if (flags & (DAY_FLAGS.limitUp | DAY_FLAGS.brokenLimitUp)) limitUps.push(m);
    }
    await this.intraday(limitUps, date);
    return out;
  }

  /** Limit-up timing from the day's 1m bars and the sealed bid from its last quote, where stored. */
  private async intraday(members: PoolMember[], date: number): Promise<void> {
    const from = marketEpoch(date, 0),
      to = marketEpoch(date, 1440);
    for (const mb of members) {
      const inst = mb.inst;
      const up = mb.day.up!;
      const minutes = await this.reader.minuteBars(inst, from, to - 1, null, 1_000);
      if (minutes.length) {
        const s = intradayLimitStats(minutes, up);
        mb.firstLimit = s.first;
        mb.lastLimit = s.last;
        mb.broken = s.broken;
      }
      const q = await this.pools.lastQuote(inst, from, to);
      if (q && mb.day.bar.close === up && q.ask_p1 === null && q.bid_p1 === up && q.bid_v1 !== null) {
        mb.sealedAmount = Math.round((up * q.bid_v1) / 10); // fen
      }
    }
  }
}

const ALL_POOLS = Object.values(POOL_FLAGS).reduce((a, b) => a | b, 0);

/** The member of record `i` of a stored day (with its flags, for sorting it into pools). */
function member(
  day: DayRecords,
  i: number,
  id: string,
  name: string,
  floatShares: number | null,
  date: number,
): PoolMember & { flags: number } {
  return {
    inst: day.inst[i],
    id,
    name,
    date,
    floatShares,
    flags: day.flags[i],
    day: {
      preClose: day.preClose(i),
      up: day.up(i),
      down: day.down(i),
      bar: {
        ts: 0,
        date,
        open: day.open[i],
        high: day.high[i],
        low: day.low[i],
        close: day.close[i],
        volume: day.volume[i],
        amount: amountOf(day.amount[i]),
      },
    },
    streak: day.streak[i],
    previousStreak: day.previousStreak[i],
    strongReason: day.has(i, DAY_FLAGS.strong) ? (day.has(i, DAY_FLAGS.newHigh) ? 'new_high' : 'repeated_limit_up') : null,
    firstLimit: null,
    lastLimit: null,
    broken: null,
    sealedAmount: null,
  };
}
