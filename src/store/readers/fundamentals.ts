import { sql } from 'kysely';
import type { ReadDb } from '../types.js';
import type { PageRequest } from './page.js';
import { literalLimit } from './limit.js';
import { after } from './keyset.js';

/** Sort date of a dividend without an ex-date yet: pending plans sort last. */
export const NO_EX_DATE = 99991231;
const dividendOrder = sql<number>`coalesce(ex_date, ${sql.lit(NO_EX_DATE)})`;

/**
 * Reads of the company, fundamentals and flow datasets. Every list is one keyset range of a
 * clustered primary key (per instrument), ascending.
 * Lists read by natural key alone are KeysetReader's (keyset.ts).
 * @example new FundamentalsReader(db).dividends(inst, 20240101, 20241231, { after: null, limit: 101 })
 */
export class FundamentalsReader {
  constructor(private readonly db: ReadDb) {}

  /** Dividends by ex-date (pending plans, without one, last), then fiscal period and announcement. */
  dividends(inst: number, from: number, to: number, page: PageRequest<[number, number, number]>) {
    let q = this.db
      .selectFrom('dividends')
      .selectAll()
      .select(dividendOrder.as('sort_date'))
      .where('inst', '=', inst)
      .where(dividendOrder, '>=', from)
      .where(dividendOrder, '<=', to);
    if (page.after) {
      const [s, p, a] = page.after;
      q = q.where((eb) => after(eb, [dividendOrder, eb.ref('report_period'), eb.ref('announce_date')], [s, p, a]));
    }
    return q.orderBy(dividendOrder).orderBy('report_period').orderBy('announce_date').limit(literalLimit(page.limit)).execute();
  }

  companyProfile(inst: number) {
    return this.db.selectFrom('company_profiles').selectAll().where('inst', '=', inst).executeTakeFirst();
  }

  /** Every classification of the instrument (a handful), by classification id. */
  sectorMemberships(inst: number) {
    return this.db
      .selectFrom('instrument_classifications as ic')
      .innerJoin('classifications as c', 'c.id', 'ic.classification_id')
      .select(['c.id', 'c.name', 'c.type'])
      .where('ic.inst', '=', inst)
      .orderBy('c.id')
      .execute();
  }
}
