/**
 * Statements on `indicator_pages`, the precomputed indicator pages (derived/indicator-pages.ts):
 * one row per instrument, indicator and month. The request path's reads are
 * store/readers/market-data.ts.
 */
import type { BulkSession } from '../types.js';
import { list } from './lists.js';

/** Pages per insert. */
const WRITE_ROWS = 64;

/** Replaces the pages of indicators `ids` of instrument `inst` from month `from` on with `rows` (`[inst, indicator, month, text]`). */
export async function replaceIndicatorPages(
  s: BulkSession,
  inst: number,
  ids: readonly string[],
  from: number,
  rows: unknown[][],
): Promise<void> {
  await s.query(`delete from indicator_pages where inst = ? and month >= ? and indicator in (${list(ids.length)})`, [inst, from, ...ids]);
  for (let i = 0; i < rows.length; i += WRITE_ROWS) {
    const part = rows.slice(i, i + WRITE_ROWS);
    await s.query(`insert into indicator_pages (inst, indicator, month, data) values ${list(part.length, '(?, ?, ?, ?)')}`, part.flat());
  }
}

/** Deletes every page of indicators `ids` (at least one). */
export async function deleteIndicatorPages(s: BulkSession, ids: readonly string[]): Promise<void> {
  await s.query(`delete from indicator_pages where indicator in (${list(ids.length)})`, [...ids]);
}

/** Deletes every page. */
export async function deleteAllIndicatorPages(s: BulkSession): Promise<void> {
  await s.query('delete from indicator_pages');
}

/** The pages of instrument `inst`, `[indicator, month, text]`, in no order. */
export async function indicatorPagesOf(s: BulkSession, inst: number): Promise<[string, number, string][]> {
  return (await s.queryRows('select indicator, month, data from indicator_pages where inst = ?', [inst])).map((r) => [
    String(r[0]),
    Number(r[1]),
    String(r[2]),
  ]);
}

/** How many pages are stored. */
export async function countIndicatorPages(s: BulkSession): Promise<number> {
  const [[total]] = await s.queryRows('select count(*) from indicator_pages');
  return Number(total);
}
