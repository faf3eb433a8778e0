import { percentOf } from '../lib/decimal.js';

/**
 * Fields the API derives from stored values, computed here once for every operation that shows
 * them (routes only format): a day's change against its reference price, the change in percent,
 * turnover against the float, and whether an equity traded at all.
 */

/** A day's change against its reference price (both in the stores' price units); null without a reference. */
export const dayChange = (close: number, preClose: number | null): number | null => (preClose === null ? null : close - preClose);

/** The change in percent of the reference price, 2 decimals half away from zero; null without a (non-zero) reference. */
export const pctChange = (close: number, preClose: number | null): string | null =>
  preClose === null || preClose === 0 ? null : percentOf(close - preClose, preClose);

/** Volume in percent of the float shares (both in shares), 2 decimals; null when the float is unknown or zero. */
export const turnoverRate = (volume: number, floatShares: number | null): string | null =>
  floatShares === null || floatShares === 0 ? null : percentOf(volume, floatShares);

/** An equity is suspended on a trading day it has no bar for. */
export const suspended = (bar: unknown): boolean => bar === null;
