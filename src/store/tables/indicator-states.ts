/**
 * Statements on the indicator states of the daily packs (derived/indicator-states.ts): the
 * `states` column of `bars_1d_packs`, JSON or null.
 */
import type { BulkSession } from '../types.js';
import { DAILY_PACKS as PACKS } from './bar-packs.js';

/** Sets the states of packs (rows `[inst, month, json or null]`) in one statement (none for no rows). */
export async function setPackStates(s: BulkSession, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map(() => '(cast(? as integer), cast(? as integer), cast(? as text))').join(', ');
  await s.query(
    `with v (inst, month, states) as (values ${values}) update ${PACKS} set states = v.states from v` +
      ` where ${PACKS}.inst = v.inst and ${PACKS}.month = v.month`,
    rows.flat(),
  );
}

/** The last pack of `inst` at or before `month` that holds states: `[month, states]`, or undefined. */
export async function statesAtOrBefore(s: BulkSession, inst: number, month: number): Promise<[number, string] | undefined> {
  const [start] = await s.queryRows(
    `select month, states from ${PACKS} where inst = ? and month <= ? and states is not null` + ' order by month desc limit 1',
    [inst, month],
  );
  return start ? [Number(start[0]), String(start[1])] : undefined;
}

/** The daily packs of `inst` from month `from` on, by month: `[month, n, data, whether it holds states]` as stored. */
export function packsWithStates(s: BulkSession, inst: number, from: number): Promise<unknown[][]> {
  return s.queryRows(`select month, n, data, states is not null from ${PACKS} where inst = ? and month >= ? order by month`, [inst, from]);
}

/** Clears the states of every pack. */
export async function clearPackStates(s: BulkSession): Promise<void> {
  await s.query(`update ${PACKS} set states = null`);
}

/** The states of the packs from key `first` to key `last` (`[inst, month]`, inclusive), by `inst/month`. */
export async function packStatesBetween(
  s: BulkSession,
  first: readonly unknown[],
  last: readonly unknown[],
): Promise<Map<string, unknown>> {
  const stored = await s.queryRows(`select inst, month, states from ${PACKS} where (inst, month) >= (?, ?) and (inst, month) <= (?, ?)`, [
    first[0],
    first[1],
    last[0],
    last[1],
  ]);
  return new Map(stored.map((r) => [`${String(r[0])}/${String(r[1])}`, r[2]]));
}
