/**
 * The demo's share capital changes: the counts an equity lists with (the simulation's start
 * counts; the demo's world records no change between a listing and its data's first day), then
 * each bonus, transfer or rights issue, on its ex-date, with the counts it made (prices.ts), so
 * the latest row is the instrument's total and float shares (share-counts.ts: the float rounded
 * down to a share). Restricted shares are the A shares not in the float: total − float − other
 * classes, and the demo has no other classes (B or H shares).
 */
import type { InstrumentOut } from './simulate.js';

/** Rows [change_date, announce_date, reason, total, float, restricted] of one equity. */
export function shareCapitalRows(x: InstrumentOut): unknown[][] {
  if (x.kind !== 'equity') return [];
  return x.shares.map((c) => {
    const a = c.action;
    const reason = a === null ? 'ipo' : a.bonus > 0 ? 'bonus' : a.transfer > 0 ? 'transfer' : 'rights';
    return [c.date, a === null ? null : a.announceDate, reason, c.total, c.float, c.total - c.float];
  });
}
