import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { literalLimit } from './limit.js';

const BAR_COLS = ['inst', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount'] as const;

/** What the pools of a trading day (query/pools.ts) read: every equity's window of daily data at once. */
export class PoolReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** Equities listed on or before `date`, and those whose listing date is unknown (null: listed before their first stored bar), by id. */
  listedEquities(date: number) {
    return this.db.selectFrom('instruments').select(['inst', 'id', 'name', 'board', 'market', 'list_date', 'float_shares'])
      .where('kind', '=', 'equity').where((w) => w.or([w('list_date', '<=', date), w('list_date', 'is', null)])).orderBy('id').execute();
  }

  /**
   * For dates `from`..`to`: every instrument's daily bars, each instrument's last bar before
   * `from`, every ST period, and the corporate actions with ex-dates in the window (amounts as stored).
   */
  async window(from: number, to: number) {
    const [bars, prevs, st, actions] = await Promise.all([
      this.db.selectFrom('bars_1d').select(BAR_COLS).where('date', '>=', from).where('date', '<=', to).execute(),
      this.db.selectFrom('bars_1d as b').select(BAR_COLS.map((c) => `b.${c}` as const))
        .innerJoin(this.db.selectFrom('bars_1d').select(['inst', sql<number>`max(date)`.as('d')]).where('date', '<', from).groupBy('inst').as('p'),
          (j) => j.onRef('p.inst', '=', 'b.inst').onRef('p.d', '=', 'b.date')).execute(),
      this.db.selectFrom('st_periods').selectAll().execute(),
      this.db.selectFrom('corporate_actions').select(['inst', 'ex_date', 'cash_per_share', 'bonus_ratio', 'transfer_ratio', 'rights_ratio', 'rights_price'])
        .where('ex_date', '>=', from).where('ex_date', '<=', to).execute(),
    ]);
    return { bars, prevs, st, actions };
  }

  /** The best bid and ask of the last quote of `inst` with from <= ts < to, if any. */
  lastQuote(inst: number, from: number, to: number) {
    return this.db.selectFrom('quotes').select(['bid_p1', 'bid_v1', 'ask_p1'])
      .where('inst', '=', inst).where('ts', '>=', from).where('ts', '<', to).orderBy('ts', 'desc').limit(literalLimit(1)).executeTakeFirst();
  }
}
