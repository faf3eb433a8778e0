import type { ReadDb } from '../types.js';
import type { IndexWeightTable } from '../schema-fundamentals.js';
import { literalLimit } from './limit.js';
import { after } from './keyset.js';
import type { PageRequest } from './page.js';

/** A weight row as read (counts as numbers on both stores). */
const row = (r: IndexWeightTable): IndexWeightTable => ({
  index_inst: Number(r.index_inst),
  inst: Number(r.inst),
  trade_date: Number(r.trade_date),
  weight: Number(r.weight),
});

/**
 * Index members and weights over time (datasets/index-weights.ts). The members in force on a day
 * are the rows of the index's latest weight date on or before it: found by one descending probe
 * of the primary key (index, date, member), never a scan of the index's history; an equity's
 * indices by the (member, date) index.
 */
export class IndexWeightReader {
  constructor(private readonly db: ReadDb) {}

  /** The weight date of `index` in force on `day` (its latest on or before it; null: the latest of all), or null when none. */
  async weightDate(index: number, day: number | null): Promise<number | null> {
    let q = this.db.selectFrom('index_weights').select('trade_date').where('index_inst', '=', index);
    if (day !== null) q = q.where('trade_date', '<=', day);
    const r = await q.orderBy('trade_date', 'desc').limit(literalLimit(1)).executeTakeFirst();
    return r ? Number(r.trade_date) : null;
  }

  /** Rows of `index` dated from..to, in (date, member) order after `page.after`. */
  rows(index: number, from: number, to: number, page: PageRequest<unknown[]>): Promise<IndexWeightTable[]> {
    return this.dated('index_inst', index, 'inst', from, to, page);
  }

  /** Rows whose `by` is `value`, dated from..to, in (date, `then`) order after `page.after`. */
  private async dated(
    by: 'index_inst' | 'inst',
    value: number,
    then: 'index_inst' | 'inst',
    from: number,
    to: number,
    page: PageRequest<unknown[]>,
  ): Promise<IndexWeightTable[]> {
    let q = this.db
      .selectFrom('index_weights')
      .selectAll()
      .where(by, '=', value)
      .where('trade_date', '>=', from)
      .where('trade_date', '<=', to);
    const k = page.after;
    if (k) q = q.where((eb) => after(eb, [eb.ref('trade_date'), eb.ref(then)], k));
    const rows = await q.orderBy('trade_date').orderBy(then).limit(literalLimit(page.limit)).execute();
    return rows.map(row);
  }

  /** The members of `index` in force on `day` (null: the latest): the rows of its weight date then (none before its first). */
  async membersOn(index: number, day: number | null): Promise<IndexWeightTable[]> {
    const d = await this.weightDate(index, day);
    return d === null ? [] : this.rows(index, d, d, { after: null, limit: 100_000 });
  }

  /** Rows of equity `inst` dated from..to, in (date, index) order after `page.after`. */
  ofMember(inst: number, from: number, to: number, page: PageRequest<unknown[]>): Promise<IndexWeightTable[]> {
    return this.dated('inst', inst, 'index_inst', from, to, page);
  }

  /**
   * The indices equity `inst` was a member of on `day` (null: the latest weight dates), in index
   * order: of each index it was ever in, the weight date in force then, and its row of that date.
   */
  async membershipsOn(inst: number, day: number | null): Promise<IndexWeightTable[]> {
    const indices = await this.db.selectFrom('index_weights').select('index_inst').distinct().where('inst', '=', inst).execute();
    const out: IndexWeightTable[] = [];
    for (const index of indices.map((r) => Number(r.index_inst)).sort((a, b) => a - b)) {
      const d = await this.weightDate(index, day);
      if (d === null) continue;
      const r = await this.db
        .selectFrom('index_weights')
        .selectAll()
        .where('index_inst', '=', index)
        .where('trade_date', '=', d)
        .where('inst', '=', inst)
        .executeTakeFirst();
      if (r) out.push(row(r));
    }
    return out;
  }
}
