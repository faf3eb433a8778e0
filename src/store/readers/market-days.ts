import type { MarketBreadthTable } from '../schema.js';
import type { Reads } from '../types.js';
import { decodeDay, type DayRecords } from '../day-records.js';
import { withLimit } from './limit.js';

const DAY = 'select data from market_days where market = ? and date = ?';
const BREADTH =
  'select market, date, listed, advancers, decliners, unchanged, limit_up, limit_down, suspended, volume, amount, unknown_amounts' +
  ' from market_breadth where market = ? and date >= ? and date <= ? and date > ? order by date limit ';

/**
 * What is stored of each market's trading days (derived/market-days.ts): a day's records, its
 * breadth; one primary-key read each.
 */
export class MarketDayReader {
  constructor(private readonly store: Reads) {}

  /** The records of `market` on `date`, or null when the store holds no day there. */
  async day(market: string, date: number): Promise<DayRecords | null> {
    const [row] = await this.store.selectRows(DAY, [market, date]);
    return row ? decodeDay(row[0] as Uint8Array) : null;
  }

  /** Breadth rows of `market` with from <= date <= to and date > after, ascending, at most `limit`. */
  async breadth(market: string, from: number, to: number, after: number | null, limit: number): Promise<MarketBreadthTable[]> {
    const rows = await this.store.select<MarketBreadthTable>(withLimit(BREADTH, limit), [market, from, to, after ?? 0]);
    return rows.map((r) => ({ ...r, date: Number(r.date), volume: Number(r.volume), amount: Number(r.amount) }));
  }
}
