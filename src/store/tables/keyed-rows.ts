/**
 * Reads of any table by its natural key, for what ingest and export load and write by dataset
 * (ingest/dataset.ts: a table, its columns and key): the stored rows of given keys, and the rows
 * in key order a page at a time. Tables and columns are the schema's (store/schema.ts), as an
 * upsert's (`UpsertTarget`) are.
 */
import type { BulkSession } from '../types.js';
import { list } from './lists.js';

/** A dataset's table (datasets/: declared, and held to the migrated tables by test/declarations.test.ts). */
type Table = string;

/** Rows a table holds that were derived rather than loaded, by table: export leaves them out. */
const DERIVED_ROWS: Readonly<Record<string, string>> = {
  // Daily bars made from 1m bars (derived/derived-daily.ts) are marked in bars_1d_derived.
  bars_1d: 'not exists (select 1 from bars_1d_derived d where d.inst = bars_1d.inst and d.date = bars_1d.date)',
};

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

/** Rows of a table in key order: its `columns`, ordered by `order` (its key); `loadedOnly`: without the rows the store derived. */
export interface KeyOrder {
  table: Table;
  columns: readonly string[];
  order: readonly string[];
  loadedOnly?: boolean;
}

/** The next `limit` rows of `rows` after key `after` (values in `order`'s order; null: from the first), as objects by column. */
export function rowsAfter(
  s: BulkSession,
  rows: KeyOrder,
  after: readonly unknown[] | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const order = rows.order.join(', ');
  const where = rows.loadedOnly ? DERIVED_ROWS[rows.table] : undefined;
  const head = `select ${rows.columns.join(', ')} from ${rows.table}` + (where ? ` where ${where}` : '');
  const next = ` ${where ? 'and' : 'where'} (${order}) > (${list(rows.order.length)})`;
  return s.query(head + (after ? next : '') + ` order by ${order} limit ${limit}`, after ? [...after] : []);
}
