import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { ReadDb } from '../types.js';
import type { Compiled, DatasetDef, TableOf } from '../../datasets/dataset.js';
import type { PageRequest } from './page.js';
import { literalLimit } from './limit.js';

/** (k1, k2, ...) > (v1, v2, ...) lexicographically, spelled out so both stores plan it alike. */
export function after(eb: ExpressionBuilder<any, any>, keys: Expression<unknown>[], values: unknown[]): Expression<SqlBool> {
  const ors = keys.map((k, i) => eb.and([...keys.slice(0, i).map((p, j) => eb(p, '=', values[j])), eb(k, '>', values[i])]));
  return eb.or(ors);
}

/** from <= column <= to, on a table column. */
export interface KeyRange {
  column: string;
  from: number;
  to: number;
}

/**
 * The keyset reads of a declared dataset keyed by instrument (datasets/dataset.ts): an
 * instrument's rows in natural-key order after a cursor, one range of the table's clustered
 * primary key. The key's first column is the instrument; the rest are the page's sort key.
 * @example new KeysetReader(db).rows(dataset('balance_sheets')!, inst, { column: 'report_date', from, to }, { after: null, limit: 101 })
 */
export class KeysetReader {
  private readonly db: Pick<Kysely<any>, 'selectFrom'>;
  constructor(db: ReadDb) {
    this.db = db as unknown as Pick<Kysely<any>, 'selectFrom'>;
  }

  /** Rows of `inst` in key order after `page.after` (the sort key: the key columns after the instrument), within `range`. */
  rows<D extends DatasetDef>(d: Compiled<D>, inst: number, range: KeyRange | null, page: PageRequest<unknown[]>): Promise<TableOf<D>[]> {
    const [instColumn, ...order] = d.orderColumns;
    let q = this.db.selectFrom(d.table).selectAll().where(instColumn, '=', inst);
    if (range) q = q.where(range.column, '>=', range.from).where(range.column, '<=', range.to);
    const k = page.after;
    if (k)
      q = q.where((eb) =>
        after(
          eb,
          order.map((c) => eb.ref(c)),
          k,
        ),
      );
    for (const c of order) q = q.orderBy(c);
    return q.limit(literalLimit(page.limit)).execute() as Promise<TableOf<D>[]>;
  }
}
