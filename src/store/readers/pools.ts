import type { ReadDb } from '../types.js';
import { literalLimit } from './limit.js';

/** What the pools of a trading day (query/pools.ts) read besides the stored days: a member's closing quote, the float in force. */
export class PoolReader {
  constructor(private readonly db: ReadDb) {}

  /** The best bid and ask of the last quote of `inst` with from <= ts < to, if any. */
  lastQuote(inst: number, from: number, to: number) {
    return this.db
      .selectFrom('quotes')
      .select(['bid_p1', 'bid_v1', 'ask_p1'])
      .where('inst', '=', inst)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts', 'desc')
      .limit(literalLimit(1))
      .executeTakeFirst();
  }

  /** Each equity's float shares in force on `date` (its latest share capital change on or before it), where it has any. */
  async floatSharesOn(date: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('share_capital as s')
      .select(['s.inst', 's.float_shares'])
      .where('s.change_date', '<=', date)
      .where((eb) =>
        eb(
          's.change_date',
          '=',
          eb
            .selectFrom('share_capital as t')
            .select((t) => t.fn.max('t.change_date').as('d'))
            .whereRef('t.inst', '=', 's.inst')
            .where('t.change_date', '<=', date),
        ),
      )
      .execute();
    return new Map(rows.map((r) => [Number(r.inst), Number(r.float_shares)]));
  }
}
