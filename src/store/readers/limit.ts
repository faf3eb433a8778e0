import { sql, type RawBuilder } from 'kysely';

/**
 * A query's LIMIT as a literal, never a bound parameter: SQLite (3.47+) plans with the value
 * of a bound LIMIT, so binding one expires the prepared statement and every execution is
 * parsed and planned again (measured: a fifth of the time of a bar-page read). Limits are page
 * sizes plus one or small constants, so the distinct statements stay few.
 * @example db.selectFrom('instruments').selectAll().limit(literalLimit(page.limit))
 */
export function literalLimit(n: number): RawBuilder<number> {
  return sql.lit(rowCount(n));
}

/** As literalLimit, for SQL text that ends in `limit `: the statement with its LIMIT written in. */
export function withLimit(text: string, n: number): string {
  return text + rowCount(n);
}

function rowCount(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a row count: ${n}`);
  return n;
}
