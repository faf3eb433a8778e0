/** Statements on `suspensions` (the intervals loaded from exchange announcements) outside the request path. */
import type { BulkSession } from '../types.js';

/**
 * Each equity's suspension still in force as loaded: `[inst, start_date, last_bar]`, the first day
 * of its first whole-day interval without an end (an intraday halt always has one) and the date
 * of its last daily bar (null: none), for the market days (derived/market-days.ts): such an
 * equity is suspended up to the latest stored day (market/day-limits.ts suspendedToEnd).
 */
export function openSuspensions(s: BulkSession): Promise<unknown[][]> {
  return s.queryRows(
    'select s.inst, min(s.start_date), (select max(b.date) from bars_1d b where b.inst = s.inst) from suspensions s ' +
      'where s.end_date is null and s.halt_from is null group by s.inst',
  );
}
