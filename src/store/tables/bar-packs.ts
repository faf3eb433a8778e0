/**
 * Statements on the bar packs (store/packs.ts, the format): `bars_1d_packs` (an instrument's
 * month of daily bars) and `bars_1m_packs` (its day of 1m bars), as their merges
 * (derived/bar-packs.ts), their check and the derivations made from the daily packs read and
 * write them. The request path's reads are store/readers/market-data.ts.
 */
import type { BulkSession } from '../types.js';
import { list } from './lists.js';

/** A table of bar packs. */
export type PackTable = 'bars_1d_packs' | 'bars_1m_packs';
/** The daily packs, keyed by inst and month (YYYYMM). */
export const DAILY_PACKS = 'bars_1d_packs';
/** The key column of a table's packs besides inst. */
const KEY = { bars_1d_packs: 'month', bars_1m_packs: 'date' } as const;

/** Writes packs `rows` (`[inst, key, n, data]`) to `table` in one statement, replacing those stored under their keys. */
export async function writePacks(s: BulkSession, table: PackTable, rows: unknown[][]): Promise<void> {
  const key = KEY[table];
  await s.query(
    `insert into ${table} (inst, ${key}, n, data) values ${list(rows.length, '(?, ?, ?, ?)')}` +
      ` on conflict (inst, ${key}) do update set n = excluded.n, data = excluded.data`,
    rows.flat(),
  );
}

/** The stored packs of instrument `inst` under `keys` (one statement), `[n, data]` by key. */
export async function storedPacks(
  s: BulkSession,
  table: PackTable,
  inst: number,
  keys: readonly number[],
): Promise<Map<number, [number, Uint8Array]>> {
  const key = KEY[table];
  const rows = await s.queryRows(`select ${key}, n, data from ${table} where inst = ? and ${key} in (${list(keys.length)})`, [
    inst,
    ...keys,
  ]);
  return new Map((rows as [number, number, Uint8Array][]).map(([k, n, data]) => [k, [n, data]]));
}

/** The packs of `table` after position `after` (`[inst, key]`; null: from the first) in key order, at most `limit`. */
export function packsAfter(
  s: BulkSession,
  table: PackTable,
  after: [number, number] | null,
  limit: number,
): Promise<{ inst: number; k: number; n: number; data: Uint8Array }[]> {
  const key = KEY[table];
  return s.query(
    `select inst, ${key} as k, n, data from ${table} ${after === null ? '' : `where (inst, ${key}) > (?, ?)`} order by inst, ${key} limit ?`,
    [...(after ?? []), limit],
  );
}

/** The daily packs `[inst, month, n, data]` in key order, 500 at a time. */
export async function* dailyPackBatches(s: BulkSession): AsyncGenerator<unknown[][]> {
  let pos: unknown[] = [];
  for (;;) {
    const rows = await s.queryRows(
      `select inst, month, n, data from ${DAILY_PACKS}${pos.length ? ' where (inst, month) > (?, ?)' : ''}` +
        ' order by inst, month limit ?',
      [...pos, 500],
    );
    if (rows.length === 0) return;
    yield rows;
    pos = rows[rows.length - 1].slice(0, 2);
  }
}

/** Every daily pack of instrument `inst`, `[month, n, data]` by month. */
export async function dailyPacksOf(s: BulkSession, inst: number): Promise<[number, number, Uint8Array][]> {
  return (await s.queryRows(`select month, n, data from ${DAILY_PACKS} where inst = ? order by month`, [inst])) as [
    number,
    number,
    Uint8Array,
  ][];
}

/** The daily packs of month `month`, `[inst, n, data]`, in no order. */
export async function dailyPacksOfMonth(s: BulkSession, month: number): Promise<[number, number, Uint8Array][]> {
  return (await s.queryRows(`select inst, n, data from ${DAILY_PACKS} where month = ?`, [month])) as [number, number, Uint8Array][];
}

/** Each instrument's first and last month with daily bars, by inst. */
export async function dailyPackSpans(s: BulkSession): Promise<Map<number, [number, number]>> {
  return new Map(
    (await s.queryRows(`select inst, min(month), max(month) from ${DAILY_PACKS} group by inst`)).map((r) => [
      Number(r[0]),
      [Number(r[1]), Number(r[2])],
    ]),
  );
}
