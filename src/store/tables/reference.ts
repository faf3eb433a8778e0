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

/** The id of every market. */
export async function marketIds(s: BulkSession): Promise<string[]> {
  return (await s.query<{ id: string }>('select id from markets')).map((r) => r.id);
}

/** The id of every classification. */
export async function classificationIds(s: BulkSession): Promise<string[]> {
  return (await s.query<{ id: string }>('select id from classifications')).map((r) => r.id);
}

/** Every instrument's classifications (id, name, type), by inst and classification id. */
export function instrumentClassifications(s: BulkSession): Promise<{ inst: number; id: string; name: string; type: string }[]> {
  return s.query(
    'select ic.inst, c.id, c.name, c.type from instrument_classifications ic join classifications c on c.id = ic.classification_id order by ic.inst, c.id',
  );
}
