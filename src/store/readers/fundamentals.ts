import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { ReadDb } from '../types.js';
import type { PageRequest } from './page.js';
import { literalLimit } from './limit.js';

export type StatementTable = 'income_statements' | 'balance_sheets' | 'cash_flow_statements' | 'financial_indicators';

/** Sort date of a dividend without an ex-date yet: pending plans sort last. */
export const NO_EX_DATE = 99991231;
const dividendOrder = sql<number>`coalesce(ex_date, ${sql.lit(NO_EX_DATE)})`;

/** (k1, k2, ...) > (v1, v2, ...) lexicographically, spelled out so both stores plan it alike. */
function after(eb: ExpressionBuilder<any, any>, keys: Expression<unknown>[], values: unknown[]): Expression<SqlBool> {
  const ors = keys.map((k, i) => eb.and([...keys.slice(0, i).map((p, j) => eb(p, '=', values[j])), eb(k, '>', values[i])]));
  return eb.or(ors);
}

/**
 * Reads of the company, fundamentals and flow datasets. Every list is one keyset range of a
 * clustered primary key (per instrument), ascending.
 * @example new FundamentalsReader(db).statements('balance_sheets', inst, 20240101, 20241231, { after: null, limit: 101 })
 */
export class FundamentalsReader {
  private readonly any: Pick<Kysely<any>, 'selectFrom'>;
  constructor(private readonly db: ReadDb) {
    this.any = db as unknown as Pick<Kysely<any>, 'selectFrom'>;
  }

  /** Statements or indicators with from <= report_date <= to, by (report_date, report_type). */
  statements(
    table: StatementTable,
    inst: number,
    from: number,
    to: number,
    page: PageRequest<[number, string]>,
  ): Promise<Record<string, any>[]> {
    let q = this.any.selectFrom(table).selectAll().where('inst', '=', inst).where('report_date', '>=', from).where('report_date', '<=', to);
    if (page.after) {
      const [d, t] = page.after;
      q = q.where((eb) => after(eb, [eb.ref('report_date'), eb.ref('report_type')], [d, t]));
    }
    return q.orderBy('report_date').orderBy('report_type').limit(literalLimit(page.limit)).execute();
  }

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

  /** Earnings forecasts with from <= announce_date <= to, by (announce_date, report_date). */
  earningsForecasts(inst: number, from: number, to: number, page: PageRequest<[number, number]>) {
    let q = this.db
      .selectFrom('earnings_forecasts')
      .selectAll()
      .where('inst', '=', inst)
      .where('announce_date', '>=', from)
      .where('announce_date', '<=', to);
    if (page.after) {
      const [a, r] = page.after;
      q = q.where((eb) => after(eb, [eb.ref('announce_date'), eb.ref('report_date')], [a, r]));
    }
    return q.orderBy('announce_date').orderBy('report_date').limit(literalLimit(page.limit)).execute();
  }

  /** Institutional holders by (report_date, rank). */
  institutionalHoldings(inst: number, page: PageRequest<[number, number]>) {
    let q = this.db.selectFrom('institutional_holdings').selectAll().where('inst', '=', inst);
    if (page.after) {
      const [d, k] = page.after;
      q = q.where((eb) => after(eb, [eb.ref('report_date'), eb.ref('rank')], [d, k]));
    }
    return q.orderBy('report_date').orderBy('rank').limit(literalLimit(page.limit)).execute();
  }

  /** Management records by seq (start date, then title order). */
  management(inst: number, page: PageRequest<[number]>) {
    let q = this.db.selectFrom('management').selectAll().where('inst', '=', inst);
    if (page.after) q = q.where('seq', '>', page.after[0]);
    return q.orderBy('seq').limit(literalLimit(page.limit)).execute();
  }

  companyProfile(inst: number) {
    return this.db.selectFrom('company_profiles').selectAll().where('inst', '=', inst).executeTakeFirst();
  }

  businessScope(inst: number, page: PageRequest<[number]>) {
    let q = this.db.selectFrom('business_scope').selectAll().where('inst', '=', inst);
    if (page.after) q = q.where('seq', '>', page.after[0]);
    return q.orderBy('seq').limit(literalLimit(page.limit)).execute();
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

  /** Capital flows of trading days fromDate..toDate, by date. */
  capitalFlows(inst: number, fromDate: number, toDate: number, page: PageRequest<[number]>) {
    const lo = page.after ? Math.max(fromDate, page.after[0] + 1) : fromDate;
    return this.db
      .selectFrom('capital_flows')
      .selectAll()
      .where('inst', '=', inst)
      .where('date', '>=', lo)
      .where('date', '<=', toDate)
      .orderBy('date')
      .limit(literalLimit(page.limit))
      .execute();
  }
}
