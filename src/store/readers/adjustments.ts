import type { ReadDb } from '../types.js';
import { literalLimit } from './limit.js';

/** What price adjustment reads (query/analytics.ts): published factors and corporate actions. */
export class AdjustmentReader {
  constructor(private readonly db: ReadDb) {}

  /** An instrument's published adjustment factors (adj_factors), by date. */
  publishedFactors(inst: number) {
    return this.db.selectFrom('adj_factors').select(['date', 'adj_factor as factor']).where('inst', '=', inst).orderBy('date').execute();
  }

  /**
   * An instrument's corporate actions by ex-date, each with `prev_close`, the close of its last
   * daily bar before the ex-date (null when it has none), in one query.
   */
  actionsWithPrevClose(inst: number) {
    return this.db
      .selectFrom('corporate_actions as a')
      .select(['a.ex_date', 'a.cash_per_share', 'a.bonus_ratio', 'a.transfer_ratio', 'a.rights_ratio', 'a.rights_price'])
      .select((eb) =>
        eb
          .selectFrom('bars_1d as b')
          .select('b.close')
          .whereRef('b.inst', '=', 'a.inst')
          .whereRef('b.date', '<', 'a.ex_date')
          .orderBy('b.date', 'desc')
          .limit(literalLimit(1))
          .as('prev_close'),
      )
      .where('a.inst', '=', inst)
      .orderBy('a.ex_date')
      .execute();
  }
}
