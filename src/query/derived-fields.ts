import { formatScaled, percentOf } from '../lib/decimal.js';

/**
 * Fields the API derives from stored values, computed here once for every operation that shows
 * them (routes only format): a day's change against its reference price, the change in percent,
 * turnover against the float, whether an equity traded at all, and a net inflow's share of the
 * day's amount.
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

/** A net inflow (buy − sell) in percent of the day's amount, 2 decimals half away from zero, exactly; null for a day without turnover. */
export function netInflowRatio(net: number, amount: number): string | null {
  if (amount === 0) return null;
  const n = BigInt(Math.abs(net)) * 10000n,
    a = BigInt(amount);
  const q = Number((n * 2n + a) / (a * 2n));
  return formatScaled(net < 0 ? -q : q, 2, 2);
}
