import type { Selectable } from 'kysely';
import type { QuoteTable, TradeTable } from '../schema.js';
import type { Store } from '../store.js';
import type { Bar } from '../../market/types.js';
import { epochToMarketDate, windowSeconds } from '../../lib/time.js';
import { decodeBars } from '../bar-packs.js';

const DAILY_PACKS = 'select month, n, data from bars_1d_packs where inst = ? and month >= ? and month <= ? order by month limit ?';
const MINUTE_PACKS = 'select date, n, data from bars_1m_packs where inst = ? and date >= ? and date <= ? order by date limit ?';

/**
 * Time-series reads on the request path: each is one keyset range scan on a primary key,
 * through a cached prepared statement. Bars come from the bar packs (store/bar-packs.ts): a
 * page of 100 daily bars reads about 8 monthly packs, a page of 1m bars one or two days.
 */
export class MarketDataReader {
  constructor(private readonly store: Store) {}

  /** Daily bars with from <= date <= to and date > after, ascending (ts left 0 for the caller). */
  dailyBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    // A month holds at least 15 trading days; the first one may hold fewer after `lo`.
    return this.packed(DAILY_PACKS, true, inst, Math.floor(lo / 100), Math.floor(to / 100), lo, to, limit, 15);
  }

  /** 1m bars with from <= ts <= to (epoch seconds) and ts > after, ascending. */
  minuteBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    // A 1m pack is the trading day (market date) of its bars' ts; a day holds up to 241 bars.
    const days = windowSeconds({ fromMs: lo * 1000, toMs: to * 1000 });
    return this.packed(MINUTE_PACKS, false, inst, epochToMarketDate(days.from), epochToMarketDate(days.to), lo, to, limit, 241);
  }

  /**
   * Bars with lo <= key <= hi from the packs first..last, at most `limit`: reads enough packs for
   * `limit` bars at `perPack` bars each (plus one), then more, twice as many each time, while
   * suspensions or the window's edges left the page short.
   */
  private async packed(sql: string, daily: boolean, inst: number, first: number, last: number,
    lo: number, hi: number, limit: number, perPack: number): Promise<Bar[]> {
    const out: Bar[] = [];
    let packs = Math.ceil(limit / perPack) + 1;
    while (out.length < limit && first <= last) {
      const rows = await this.store.selectRows(sql, [inst, first, last, packs]);
      for (const r of rows) decodeBars(out, r[2] as Uint8Array, r[1] as number, daily ? null : r[0] as number, lo, hi, limit);
      if (rows.length < packs) break;
      first = (rows[rows.length - 1][0] as number) + 1;
      packs = Math.max(2 * packs, Math.ceil((limit - out.length) / perPack) + 1);
    }
    return out;
  }

  quotes(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Selectable<QuoteTable>[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    return this.store.select(
      'select * from quotes where inst = ? and ts >= ? and ts <= ? order by ts limit ?', [inst, lo, to, limit]);
  }

  /** Trades in [from, to] (epoch seconds) within [fromDate, toDate], after (date, seq). */
  trades(inst: number, win: { from: number; to: number; fromDate: number; toDate: number },
    after: [number, number] | null, limit: number): Promise<Selectable<TradeTable>[]> {
    const [d, s] = after ?? [0, 0];
    return this.store.select(
      `select * from trades where inst = ? and date >= ? and date <= ? and ts >= ? and ts <= ?
         and (date > ? or (date = ? and seq > ?)) order by date, seq limit ?`,
      [inst, win.fromDate, win.toDate, win.from, win.to, d, d, s, limit]);
  }
}
