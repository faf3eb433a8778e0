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

  /**
   * Of a versioned dataset (`versions`: the key's last column, a statement's announce_date), the
   * latest version of each record of `inst` announced on or before `asOf` (null: the latest of
   * all), in key order after `page.after` (the sort key: the key columns between the instrument
   * and the version), within `range`. A record with no version by `asOf` is absent.
   */
  latest<D extends DatasetDef>(
    d: Compiled<D>,
    inst: number,
    range: KeyRange | null,
    asOf: number | null,
    page: PageRequest<unknown[]>,
  ): Promise<TableOf<D>[]> {
    const [instColumn, ...rest] = d.orderColumns;
    const version = rest.pop();
    if (version === undefined || d.versions === undefined) throw new Error(`dataset ${d.name} has no versions`);
    const r = (c: string) => `r.${c}`;
    let q = this.db.selectFrom(`${d.table} as r`).selectAll('r').where(r(instColumn), '=', inst);
    if (range) q = q.where(r(range.column), '>=', range.from).where(r(range.column), '<=', range.to);
    if (asOf !== null) q = q.where(r(version), '<=', asOf);
    // No later version of the same record (by asOf): one probe of the clustered key.
    q = q.where((eb) => {
      let later = eb
        .selectFrom(`${d.table} as v`)
        .select(eb.lit(1).as('one'))
        .where(`v.${instColumn}`, '=', eb.ref(r(instColumn)));
      for (const c of rest) later = later.where(`v.${c}`, '=', eb.ref(r(c)));
      later = later.where(`v.${version}`, '>', eb.ref(r(version)));
      if (asOf !== null) later = later.where(`v.${version}`, '<=', asOf);
      return eb.not(eb.exists(later));
    });
    const k = page.after;
    if (k)
      q = q.where((eb) =>
        after(
          eb,
          rest.map((c) => eb.ref(r(c))),
          k,
        ),
      );
    for (const c of rest) q = q.orderBy(r(c));
    return q.limit(literalLimit(page.limit)).execute() as Promise<TableOf<D>[]>;
  }
}
