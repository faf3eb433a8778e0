/**
 * Statements on `bars_1d_derived`, the marks of daily bars derived from 1m bars
 * (derived/derived-daily.ts): a marked day's bar was derived, an unmarked one loaded. Marks are
 * written by `BulkSession.upsert`.
 */
import type { BulkSession } from '../types.js';
import { list } from './lists.js';

/** Whether any day is marked derived. */
export async function anyDerivedMark(s: BulkSession): Promise<boolean> {
  return (await s.queryRows('select 1 from bars_1d_derived limit 1')).length > 0;
}

/** Removes the marks of instrument `inst` on `dates` (their bars are loaded now). */
export async function unmarkDerived(s: BulkSession, inst: number, dates: readonly number[]): Promise<void> {
  await s.query(`delete from bars_1d_derived where inst = ? and date in (${list(dates.length)})`, [inst, ...dates]);
}

/** Of `dates`, those on which instrument `inst` has a loaded daily bar (one stored and not marked derived). */
export async function loadedDays(s: BulkSession, inst: number, dates: readonly number[]): Promise<Set<number>> {
  const rows = await s.queryRows(
    `select date from bars_1d b where inst = ? and date in (${list(dates.length)})` +
      ' and not exists (select 1 from bars_1d_derived d where d.inst = b.inst and d.date = b.date)',
    [inst, ...dates],
  );
  return new Set(rows.map((r) => Number(r[0])));
}

/** The instruments with a day marked derived, ascending. */
export async function markedInstruments(s: BulkSession): Promise<number[]> {
  return (await s.queryRows('select distinct inst from bars_1d_derived order by inst')).map((r) => Number(r[0]));
}

/** The days of instrument `inst` marked derived, ascending. */
export async function markedDaysOf(s: BulkSession, inst: number): Promise<number[]> {
  return (await s.queryRows('select date from bars_1d_derived where inst = ? order by date', [inst])).map((r) => Number(r[0]));
}
