/**
 * Valuation as known at a day's close (Tushare's `daily_basic`, made point-in-time): only
 * statements announced on or before the day count. Pure and exact: money in fen, prices in
 * 1/1000 CNY, ratios rounded half away from zero in integer arithmetic. docs/fundamentals.md,
 * "Valuations", gives each formula.
 */
import { formatScaled } from '../lib/decimal.js';

export type ReportType = 'q1' | 'h1' | 'q3' | 'annual';

/** A year-to-date figure of one reported period (fen), with the day it was announced: one version of the period (a restatement is another). */
export interface Reported {
  reportDate: number;
  type: string;
  announce: number;
  value: number;
}

/**
 * The periods known on `day`, latest report first: of each period, its latest version
 * announced on or before `day` (a restatement counts from its announcement; before it, the
 * version it restates).
 */
function known(periods: readonly Reported[], day: number): Reported[] {
  const byPeriod = new Map<string, Reported>();
  for (const p of periods) {
    if (p.announce > day) continue;
    const k = `${p.reportDate}${p.type}`;
    const held = byPeriod.get(k);
    if (held === undefined || p.announce > held.announce) byPeriod.set(k, p);
  }
  return [...byPeriod.values()].sort((a, b) => b.reportDate - a.reportDate);
}

/**
 * Trailing twelve months of a year-to-date figure known on `day`: the latest report if annual,
 * else latest + the previous annual − the same period a year before it; null without them.
 */
export function ttm(periods: readonly Reported[], day: number): number | null {
  const k = known(periods, day);
  const last = k[0];
  if (!last) return null;
  if (last.type === 'annual') return last.value;
  const year = Math.floor(last.reportDate / 10000);
  const annual = k.find((p) => p.type === 'annual' && p.reportDate === (year - 1) * 10000 + 1231);
  const before = k.find((p) => p.type === last.type && p.reportDate === last.reportDate - 10000);
  return annual && before ? last.value + annual.value - before.value : null;
}

/** The latest annual figure known on `day` (a static, "LYR" base). */
export function lastAnnual(periods: readonly Reported[], day: number): number | null {
  return known(periods, day).find((p) => p.type === 'annual')?.value ?? null;
}

/** The latest report's figure known on `day` (a balance: equity at the period end). */
export function latest(periods: readonly Reported[], day: number): number | null {
  return known(periods, day)[0]?.value ?? null;
}

/** num / den with `digits` decimals, half away from zero, exactly; null unless den > 0. */
export function quotient(num: bigint, den: bigint, digits: number): string | null {
  if (den <= 0n) return null;
  const scale = 10n ** BigInt(digits);
  const neg = num < 0n;
  const a = (neg ? -num : num) * scale;
  const q = (a * 2n + den) / (den * 2n);
  const v = Number(neg ? -q : q);
  return formatScaled(v, digits, digits);
}

/** Market value in fen of `shares` at `close` (1/1000 CNY), exactly when the close is whole fen. */
export const marketValue = (close: number, shares: number): bigint => (BigInt(close) * BigInt(shares)) / 10n;

/** A price-to-X ratio (4 decimals) of a market value and a base in fen; null for a base ≤ 0 (a loss: no PE). */
export const multiple = (mv: bigint, base: number | null): string | null =>
  base === null || base <= 0 ? null : quotient(mv, BigInt(base), 4);

/**
 * Dividend yield in percent (4 decimals): cash paid over the year to `day` (Σ cash per share in
 * 1/100000 CNY × the shares it was paid on) over the market value (close in 1/1000 CNY × total
 * shares): Σ cash·shares / (close·total) is exactly that ratio × 100.
 */
export function dividendYield(paid: readonly { cash: number; shares: number }[], close: number, total: number): string | null {
  const num = paid.reduce((s, p) => s + BigInt(p.cash) * BigInt(p.shares), 0n);
  return quotient(num, BigInt(close) * BigInt(total), 4);
}
