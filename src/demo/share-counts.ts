/**
 * The demo's share counts after a bonus, transfer or rights issue of `added` new shares per share
 * held (in millionths), exactly: the total grows by the ratio, rounded half up to a share; the
 * float (tradable A shares) by the ratio too, rounded down, since no holding gains part of a
 * share; what the rounding leaves out of the float is restricted, which is total − float (the
 * demo has no other share classes). sharesAfter(1_000_000_001, 500_000_001, 300_000) →
 * { total: 1_300_000_001, float: 650_000_001 } (1,300,000,001.3 and 650,000,001.3 shares).
 */
import { divRoundHalfUp } from '../lib/decimal.js';

const MILLION = 1_000_000n;

export interface ShareCounts {
  total: number;
  float: number;
}

/** The counts after the action (see the module). */
export function sharesAfter(total: number, float: number, added: number): ShareCounts {
  const g = MILLION + BigInt(added);
  return { total: Number(divRoundHalfUp(BigInt(total) * g, MILLION)), float: Number((BigInt(float) * g) / MILLION) };
}

/**
 * The counts before the action, from those after it: sharesAfter inverted exactly for a ratio
 * above 1 (a total rounded half up is the one whose ratio rounds to it; a float rounded down the
 * smallest whose ratio reaches it).
 */
export function sharesBefore(total: number, float: number, added: number): ShareCounts {
  const g = MILLION + BigInt(added);
  return { total: Number(divRoundHalfUp(BigInt(total) * MILLION, g)), float: Number((BigInt(float) * MILLION + g - 1n) / g) };
}
