import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { PageRequest } from '../../http/collection.js';
import { literalLimit } from './limit.js';

/** Reference-data reads: markets, trading days, classifications, instruments. */
export class ReferenceReader {
  constructor(private readonly db: Kysely<Database>) {}

  markets(page: PageRequest) {
    let q = this.db.selectFrom('markets').selectAll();
    if (page.after) q = q.where('id', '>', String(page.after[0]));
    return q.orderBy('id').limit(literalLimit(page.limit)).execute();
  }

  market(id: string) {
    return this.db.selectFrom('markets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  tradingDays(market: string, from: number, to: number, page: PageRequest) {
    let q = this.db.selectFrom('trading_days').select(['market', 'date'])
      .where('market', '=', market).where('date', '>=', from).where('date', '<=', to);
    if (page.after) q = q.where('date', '>', Number(page.after[0]));
    return q.orderBy('date').limit(literalLimit(page.limit)).execute();
  }

  classifications(types: string[], page: PageRequest) {
    let q = this.db.selectFrom('classifications').selectAll().where('type', 'in', types);
    if (page.after) q = q.where('id', '>', String(page.after[0]));
    return q.orderBy('id').limit(literalLimit(page.limit)).execute();
  }
}
