/**
 * Statements on the reference tables outside the request path (whose reads are
 * store/readers/reference.ts): markets, classifications and loaded trading days, as ingest's
 * validation, the market days and the demo read them.
 */
import type { LoadedDay } from '../../market/calendar.js';
import type { BulkSession } from '../types.js';

/** Every loaded trading day (open, closed, or null: as the shipped calendar has it). */
export function tradingDays(s: BulkSession): Promise<LoadedDay[]> {
  return s.query('select market, date, is_open from trading_days');
}
