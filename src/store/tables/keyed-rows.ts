/**
 * Reads of any table by its natural key, for what ingest and export load and write by dataset
 * (ingest/dataset.ts: a table, its columns and key): the stored rows of given keys, and the rows
 * in key order a page at a time. Tables and columns are the schema's (store/schema.ts), as an
 * upsert's (`UpsertTarget`) are.
 */
import type { Database } from '../schema.js';
import type { BulkSession } from '../types.js';
import { list } from './lists.js';

type Table = keyof Database & string;

/** Keys read back per statement (an OR of key equalities: SQLite's expression depth stays far below 1000). */
const KEYS_PER_READ = 200;

/**
 * The stored rows of `table` whose `key` columns equal one of `keys` (values in `key` order),
 * as rows of the key's values then the `columns`', in no order.
 */
export async function rowsOfKeys(
  s: BulkSession,
  table: Table,
  key: readonly string[],
  columns: readonly string[],
  keys: readonly unknown[][],
): Promise<unknown[][]> {
  const select = `select ${[...key, ...columns].join(', ')} from ${table} where `;
  const match = `(${key.map((c) => `${c} = ?`).join(' and ')})`;
  const out: unknown[][] = [];
  for (let at = 0; at < keys.length; at += KEYS_PER_READ) {
    const part = keys.slice(at, at + KEYS_PER_READ);
    out.push(...(await s.queryRows(select + part.map(() => match).join(' or '), part.flat())));
  }
  return out;
}

/** Rows of a table in key order: its `columns`, ordered by `order` (its key), those meeting `where` (a condition on the table's rows) if given. */
export interface KeyOrder {
  table: Table;
  columns: readonly string[];
  order: readonly string[];
  where?: string;
}

/** The next `limit` rows of `rows` after key `after` (values in `order`'s order; null: from the first), as objects by column. */
export function rowsAfter(
  s: BulkSession,
  rows: KeyOrder,
  after: readonly unknown[] | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const order = rows.order.join(', ');
  const head = `select ${rows.columns.join(', ')} from ${rows.table}` + (rows.where ? ` where ${rows.where}` : '');
  const next = ` ${rows.where ? 'and' : 'where'} (${order}) > (${list(rows.order.length)})`;
  return s.query(head + (after ? next : '') + ` order by ${order} limit ${limit}`, after ? [...after] : []);
}
