import type { Selectable } from 'kysely';
import type { QuoteTable, TradeTable } from '../schema.js';
import type { Store } from '../store.js';
import type { Bar } from '../../market/types.js';

const BARS = 'open, high, low, close, volume, amount';

/**
 * Time-series reads on the request path: each is one keyset range scan on a clustered primary
 * key, through a cached prepared statement.
 */
export class MarketDataReader {
  constructor(private readonly store: Store) {}

  /** Daily bars with from <= date <= to and date > after, ascending (ts left 0 for the caller). */
  async dailyBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    const rows = await this.store.selectRows(
      `select date, ${BARS} from bars_1d where inst = ? and date >= ? and date <= ? order by date limit ?`, [inst, lo, to, limit]);
    const out = new Array<Bar>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] as number[];
      out[i] = { ts: 0, date: r[0], open: r[1], high: r[2], low: r[3], close: r[4], volume: r[5], amount: r[6] };
    }
    return out;
  }

  /** 1m bars with from <= ts <= to (epoch seconds) and ts > after, ascending. */
  minuteBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    return this.store.selectRows(
      `select ts, date, ${BARS} from bars_1m where inst = ? and ts >= ? and ts <= ? order by ts limit ?`, [inst, lo, to, limit])
      .then((rows) => rows.map((x) => {
        const r = x as number[];
        return { ts: r[0], date: r[1], open: r[2], high: r[3], low: r[4], close: r[5], volume: r[6], amount: r[7] };
      }));
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
