/** Statements on `st_periods` (an equity's special-treatment periods) outside the request path. */
import type { BulkSession } from '../types.js';

/** Every ST period as stored: `[inst, start_date, end_date]`. */
export function allStPeriods(s: BulkSession): Promise<unknown[][]> {
  return s.queryRows('select inst, start_date, end_date from st_periods');
}
