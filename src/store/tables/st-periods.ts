/** Statements on `st_periods` (an equity's special-treatment periods) outside the request path. */
import type { BulkSession } from '../types.js';
import type { StPeriodTable } from '../schema.js';

/** Every ST period as stored: `[inst, start_date, end_date]`. */
export function allStPeriods(s: BulkSession): Promise<unknown[][]> {
  return s.queryRows('select inst, start_date, end_date from st_periods');
}

/** The ST periods of instrument `inst`, as stored. */
export function stPeriodsOf(s: BulkSession, inst: number): Promise<{ start_date: number; end_date: number | null }[]> {
  return s.query('select start_date, end_date from st_periods where inst = ?', [inst]);
}

/** Every ST period, by inst and start. */
export function stPeriodRows(s: BulkSession): Promise<StPeriodTable[]> {
  return s.query('select * from st_periods order by inst, start_date');
}
