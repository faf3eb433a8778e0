import type { Kysely, Selectable } from 'kysely';
import type { Database, QuoteTable, TradeTable } from '../schema.js';
import type { Bar } from '../../market/types.js';

const BAR_COLS = ['open', 'high', 'low', 'close', 'volume', 'amount'] as const;

/** Time-series reads. Every method is one keyset range scan on a clustered primary key. */
export class MarketDataReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** Daily bars with from <= date <= to and date > after, ascending. */
  async dailyBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    const rows = await this.db.selectFrom('bars_1d').select(['date', ...BAR_COLS])
      .where('inst', '=', inst).where('date', '>=', lo).where('date', '<=', to)
      .orderBy('date').limit(limit).execute();
    return rows.map((r) => ({ ts: 0, ...r }));
  }

  /** 1m bars with from <= ts <= to (epoch seconds) and ts > after, ascending. */
  minuteBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    return this.db.selectFrom('bars_1m').select(['ts', 'date', ...BAR_COLS])
      .where('inst', '=', inst).where('ts', '>=', lo).where('ts', '<=', to)
      .orderBy('ts').limit(limit).execute();
  }

  quotes(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Selectable<QuoteTable>[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    return this.db.selectFrom('quotes').selectAll()
      .where('inst', '=', inst).where('ts', '>=', lo).where('ts', '<=', to)
      .orderBy('ts').limit(limit).execute();
  }

  /** Trades in [from, to] (epoch seconds) within [fromDate, toDate], after (date, seq). */
  trades(inst: number, win: { from: number; to: number; fromDate: number; toDate: number },
    after: [number, number] | null, limit: number): Promise<Selectable<TradeTable>[]> {
    let q = this.db.selectFrom('trades').selectAll()
      .where('inst', '=', inst).where('date', '>=', win.fromDate).where('date', '<=', win.toDate)
      .where('ts', '>=', win.from).where('ts', '<=', win.to);
    if (after) {
      const [d, s] = after;
      q = q.where((eb) => eb.or([eb('date', '>', d), eb.and([eb('date', '=', d), eb('seq', '>', s)])]));
    }
    return q.orderBy('date').orderBy('seq').limit(limit).execute();
  }
}
