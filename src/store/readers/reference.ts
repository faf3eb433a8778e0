import type { ReadDb } from '../types.js';
import type { PageRequest } from './page.js';
import { literalLimit } from './limit.js';

/** Reference-data reads: markets, trading days, classifications, instruments. */
export class ReferenceReader {
  constructor(private readonly db: ReadDb) {}

  markets(page: PageRequest<[string]>) {
    let q = this.db.selectFrom('markets').selectAll();
    if (page.after) q = q.where('id', '>', page.after[0]);
    return q.orderBy('id').limit(literalLimit(page.limit)).execute();
  }

  market(id: string) {
    return this.db.selectFrom('markets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every loaded trading day (open or closed): what overrides the shipped calendar. */
  loadedTradingDays() {
    return this.db.selectFrom('trading_days').select(['market', 'date', 'is_open']).execute();
  }

  classifications(types: string[], page: PageRequest<[string]>) {
    let q = this.db.selectFrom('classifications').selectAll().where('type', 'in', types);
    if (page.after) q = q.where('id', '>', page.after[0]);
    return q.orderBy('id').limit(literalLimit(page.limit)).execute();
  }
}
