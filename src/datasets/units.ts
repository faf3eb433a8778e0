/** Column types shared by the datasets, named by unit (store/schema.ts conventions). */
import { MONEY_SCALE, PRICE_SCALE } from '../lib/decimal.js';
import { decimal, int } from './columns.js';
/** The stored `amount` of a bar whose turnover is unknown (store/schema.ts re-exports it). */
export const UNKNOWN_AMOUNT = -1;

/** CNY, stored in 1/1000 (funds tick at 0.001); written with at least 2 decimals. */
export const PRICE = decimal(PRICE_SCALE, 2, { min: 1, unit: 'CNY' });
/** A price that may be 0 (a rights price of a plain dividend). */
export const PRICE0 = decimal(PRICE_SCALE, 2, { min: 0, unit: 'CNY' });
/** CNY, stored in fen; negative values allowed (profits, flows). */
export const MONEY = decimal(MONEY_SCALE, 2, { unit: 'CNY' });
/** CNY in fen, never negative (turnover). */
export const AMOUNT = decimal(MONEY_SCALE, 2, { min: 0, unit: 'CNY' });
/** A bar's turnover: AMOUNT, or empty when unknown (stored as UNKNOWN_AMOUNT, store/schema.ts). */
export const BAR_AMOUNT = { ...AMOUNT, empty: UNKNOWN_AMOUNT };
/** Per-share values, CNY with 4 decimals (EPS, BPS). */
export const PER_SHARE = decimal(4, 4, { unit: 'CNY per share' });
/** Cash per share, CNY with 5 decimals (the corporate-action unit). */
export const CASH_PER_SHARE = decimal(5, 5, { min: 0, unit: 'CNY per share, pre-tax' });
/** Shares per share held, 6 decimals. */
export const SHARE_RATIO = decimal(6, 6, { min: 0, unit: 'shares per share held' });
/** Percent with 2 decimals (12.34 = 12.34%). */
export const PERCENT = decimal(2, 2, { unit: 'percent' });
export const PERCENT0 = decimal(2, 2, { min: 0, unit: 'percent' });
/** A plain ratio with 2 decimals. */
export const RATIO = decimal(2, 2, { unit: 'ratio' });
/** Shares (not lots). */
export const SHARES = int(0, 'shares');
export const COUNT = int(0);
/** Any integer (a change of a holding may be negative). */
export const SIGNED = int(-Number.MAX_SAFE_INTEGER, 'shares');
