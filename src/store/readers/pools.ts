import type { ReadDb } from '../types.js';
import { literalLimit } from './limit.js';

/** What the pools of a trading day (query/pools.ts) read besides the stored days: a member's closing quote. */
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
}
