/** Statements on `corporate_actions` outside the request path (whose reads are store/readers/adjustments.ts). */
import type { BulkSession } from '../types.js';
import type { CorporateActionTable } from '../schema.js';

/** The columns of an action that adjustment and price limits use (market/adjust.ts CorporateAction). */
const TERMS = 'cash_per_share, bonus_ratio, transfer_ratio, rights_ratio, rights_price';

/** Every corporate action's terms, as stored (numbers, or numeric text on PostgreSQL). */
export function allCorporateActions(s: BulkSession): Promise<Record<string, unknown>[]> {
  return s.query(`select inst, ex_date, ${TERMS} from corporate_actions`);
}

/** The corporate actions of instrument `inst` (ex_date and terms), as stored. */
export function corporateActionsOf(s: BulkSession, inst: number): Promise<Record<string, unknown>[]> {
  return s.query(`select ex_date, ${TERMS} from corporate_actions where inst = ?`, [inst]);
}

/** Every corporate action, whole, by inst and ex-date. */
export function corporateActionRows(s: BulkSession): Promise<CorporateActionTable[]> {
  return s.query('select * from corporate_actions order by inst, ex_date');
}
