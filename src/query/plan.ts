import { RowSlices, type Slices } from '../render/slices.js';
import type { JsonBytes } from '../render/json-bytes.js';
import type { PageRequest } from '../store/readers/page.js';

/**
 * One page of an operation's records as fetched: the records (written by the HTTP layer inside
 * the collection envelope) and the cursor key of the record at an index. The key comes with the
 * page, not the plan, because it may hold what the fetch learnt (an adjustment basis).
 */
export interface FetchedPage<K extends unknown[]> {
  readonly records: Slices<unknown>;
  /** The cursor key of record `i` (asked for the last record served, when another page follows). */
  key(i: number): K;
}

/**
 * How an operation reads a page, decided before anything is read: `fetch` reads up to
 * `page.limit` records after the cursor key `page.after`. Made per request by a planner
 * (plan-bars.ts, plan-indicator.ts) or by a route from its reader (http/collection.ts, rowPlan).
 *
 * @example
 * const plan = planBars(svc, { inst, interval: '1d', adjustment: 'none', window });
 * const page = await plan.fetch({ after: null, limit: 101 }); // plan.path === 'daily-packs'
 * page.key(99); // [ts, basis] of the 100th bar: the next page's cursor
 */
export interface PagePlan<K extends unknown[]> {
  fetch(page: PageRequest<K>): Promise<FetchedPage<K>>;
}

/** Rows already read as a page: written by `write`, keyed by `key`. */
export function rowPage<Row, K extends unknown[]>(
  rows: readonly Row[],
  key: (row: Row) => K,
  write: (w: JsonBytes, row: Row) => void,
): FetchedPage<K> {
  return { records: new RowSlices(rows, write), key: (i) => key(rows[i]) };
}
