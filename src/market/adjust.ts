import { divRoundHalfUp } from '../lib/decimal.js';
import type { AdjustmentId, Bar } from './types.js';

/**
 * Price adjustment (复权) from corporate actions, CONTRACT.md §6. Exact integer arithmetic
 * throughout: prices in price units (1/1000 CNY), factors as reduced BigInt rationals.
 *
 *   ref = (P − cash + rightsPrice·rightsRatio) / (1 + bonus + transfer + rightsRatio)
 *
 * with P the raw close of the last bar before the ex-date. Each event multiplies the backward
 * factor of the bars on and after its ex-date by P/ref (ratio factors, as Sina and Tushare).
 */

/** A corporate action in the store's units (CorporateActionTable, src/store/schema.ts). */
export interface CorporateAction {
  /** YYYYMMDD, the first trading day at ex-rights prices. */
  ex_date: number;
  /** Cash dividend per share, 1/100000 CNY (pre-tax). */
  cash_per_share: number;
  /** Bonus (送), transfer (转增) and rights (配) shares per share, in millionths. */
  bonus_ratio: number;
  transfer_ratio: number;
  rights_ratio: number;
  /** Rights issue price, 1/1000 CNY. */
  rights_price: number;
}

/** Cumulative backward factor num/den for bars dated on or after `ex_date` (until the next). */
export interface Factor {
  ex_date: number;
  num: bigint;
  den: bigint;
}

export interface Rational {
  num: bigint;
  den: bigint;
}

const RATIO = 1_000_000n; // ratios in millionths
const ONE: Rational = { num: 1n, den: 1n };
const CASH_PER_PRICE_UNIT = 100n; // cash in 1/100000 CNY, prices in 1/1000 CNY

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a,
    y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x;
}

function reduce(num: bigint, den: bigint): Rational {
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}

/** The unrounded reference price, in price units, as an exact rational. */
export function exactReferencePrice(prevClose: number, a: CorporateAction): Rational {
  const num =
    (BigInt(prevClose) * CASH_PER_PRICE_UNIT - BigInt(a.cash_per_share)) * RATIO +
    BigInt(a.rights_price) * CASH_PER_PRICE_UNIT * BigInt(a.rights_ratio);
  const den = (RATIO + BigInt(a.bonus_ratio) + BigInt(a.transfer_ratio) + BigInt(a.rights_ratio)) * CASH_PER_PRICE_UNIT;
  return reduce(num, den);
}

/**
 * The ex-rights reference price in price units, rounded half-up to `tick` price units
 * (10 = 0.01 CNY, the exchanges' rounding for stocks). referencePrice(10000, 10派3) === 9700.
 */
export function referencePrice(prevClose: number, a: CorporateAction, tick = 10): number {
  const r = exactReferencePrice(prevClose, a);
  return Number(divRoundHalfUp(r.num, r.den * BigInt(tick))) * tick;
}

export interface FactorOptions {
  /**
   * Use the reference price rounded to 0.01 CNY (the exchange's published pre-close, as
   * Tushare's adj_factor does) instead of the exact one (as Sina's factors do; the default,
   * checked against Sina's Vanke factors in adjust.test.ts).
   */
  roundRef?: boolean;
}

/**
 * Cumulative backward factors, ordered by ex_date. The factor before the first event is 1;
 * each event multiplies it by prevClose/ref. An event is skipped (no factor row) when
 * `prevCloseOf` knows no close before it (nothing to adjust), when its reference price equals
 * the previous close (e.g. a placement recorded with a price but no rights ratio), or when the
 * data are impossible (reference price ≤ 0). `prevCloseOf(exDate)` returns the raw close of the
 * last bar before `exDate`, in price units (see `prevCloseLookup`).
 */
export function buildFactors(
  actions: readonly CorporateAction[],
  prevCloseOf: (exDate: number) => number | undefined,
  options: FactorOptions = {},
): Factor[] {
  const out: Factor[] = [];
  let cum: Rational = { num: 1n, den: 1n };
  for (const a of [...actions].sort((x, y) => x.ex_date - y.ex_date)) {
    const p = prevCloseOf(a.ex_date);
    if (p === undefined || p <= 0) continue;
    const ref = options.roundRef ? { num: BigInt(referencePrice(p, a)), den: 1n } : exactReferencePrice(p, a);
    if (ref.num <= 0n || ref.num === BigInt(p) * ref.den) continue;
    cum = reduce(cum.num * BigInt(p) * ref.den, cum.den * ref.num);
    out.push({ ex_date: a.ex_date, ...cum });
  }
  return out;
}

/** `prevCloseOf` for `buildFactors` from raw bars sorted by date (daily or finer). */
export function prevCloseLookup(bars: readonly Bar[]): (exDate: number) => number | undefined {
  return (exDate) => {
    let lo = 0,
      hi = bars.length; // first bar dated >= exDate
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bars[mid].date < exDate) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? bars[lo - 1].close : undefined;
  };
}

/** The cumulative factor in force on `date` (1 before the first event). */
export function factorAt(factors: readonly Factor[], date: number): Rational {
  let lo = 0,
    hi = factors.length; // first factor dated > date
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (factors[mid].ex_date <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? factors[lo - 1] : { num: 1n, den: 1n };
}

/**
 * Adjusted copies of `bars`. backward: raw × the factor in force on the bar's date (`initial`,
 * 1 by default, before the first row); forward: backward / the latest factor (the last row of
 * `factors`), so bars after the latest event are unchanged.
 * OHLC are rounded half-up to `tick` price units (10 = 0.01 CNY; 1 for funds at 0.001).
 * Volume is scaled inversely (× den/num: a backward-adjusted day shows fewer, dearer shares),
 * rounded half-up to a whole share; amount (money) is unchanged.
 *
 * Ordering is preserved: x ↦ x·num/den is increasing for num/den > 0 and
 * divRoundHalfUp(·, b) = floor((2a + b)/2b) is non-decreasing, so raw low ≤ open, close ≤ high
 * still hold after adjustment and rounding (property-tested).
 */
export function adjustBars(
  bars: readonly Bar[],
  factors: readonly Factor[],
  mode: AdjustmentId,
  tick = 10,
  initial: Rational = ONE,
): Bar[] {
  if (mode === 'none' || factors.length === 0) return bars.slice();
  const last = factors[factors.length - 1];
  // The factor of each segment, computed once: [before the first row (`initial`), ...factors].
  const segs: Factor[] = [{ ex_date: -Infinity, num: initial.num, den: initial.den }, ...factors].map((f) =>
    mode === 'forward' ? { ex_date: f.ex_date, ...ratio(f, last) } : f,
  );
  const t = BigInt(tick);
  return bars.map((b) => {
    const { num, den } = factorAt(segs, b.date);
    if (num === den) return { ...b };
    const px = (v: number) => Number(divRoundHalfUp(BigInt(v) * num, den * t) * t);
    return {
      ...b,
      open: px(b.open),
      high: px(b.high),
      low: px(b.low),
      close: px(b.close),
      volume: Number(divRoundHalfUp(BigInt(b.volume) * den, num)),
    };
  });
}

/**
 * What adjusted prices of an instrument follow (docs/analytics.md, "Adjustment basis"): backward
 * factors by first date, and `initial`, the factor before the first row.
 * - `corporate_actions`: buildFactors' cumulative factors; `initial` is 1 (backward prices
 *   accumulate from listing).
 * - `vendor`: published backward factors (dataset adj_factors) as vendorFactors gives them;
 *   `initial` is the first row's factor, so backward = raw × the vendor's factor on every day
 *   (Sina hfq, Tushare raw × adj_factor) and days before the first row are on its basis.
 */
export interface FactorBasis {
  source: 'corporate_actions' | 'vendor';
  factors: Factor[];
  initial: Rational;
}

/** The basis of buildFactors' factors (1 before the first event). */
export const actionsBasis = (factors: Factor[]): FactorBasis => ({ source: 'corporate_actions', factors, initial: ONE });

/** A positive decimal string (`169.1453113717332000`, `1.208`, `3`) as an exact reduced rational. */
export function decimalRational(s: string): Rational {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = m[2] ?? '';
  return reduce(BigInt(m[1] + frac), 10n ** BigInt(frac.length));
}

/**
 * The basis of published backward factors, rows `{ date, factor }` (decimal text) ordered by
 * date: each row's factor applies from its date until the next row's. Only the rows where the
 * factor changes are kept (Tushare publishes one per trading day, Sina one per event), so each
 * Factor marks a change and the last one's date is the latest event's, as with corporate actions.
 */
export function vendorBasis(rows: readonly { date: number; factor: string }[]): FactorBasis {
  const factors: Factor[] = [];
  for (const r of rows) {
    const f = decimalRational(r.factor),
      prev = factors.at(-1);
    if (prev && prev.ex_date >= r.date) throw new Error(`factor rows out of order at ${r.date}`);
    if (!prev || prev.num !== f.num || prev.den !== f.den) factors.push({ ex_date: r.date, ...f });
  }
  return { source: 'vendor', factors, initial: factors.length ? { num: factors[0].num, den: factors[0].den } : ONE };
}

/**
 * A factor as a decimal string, rounded half-up to `digits` decimals (16, Sina's precision)
 * with trailing zeros dropped: exact for published factors, which have at most 16.
 */
export function formatFactor(f: Rational, digits = 16): string {
  const v = divRoundHalfUp(f.num * 10n ** BigInt(digits), f.den)
    .toString()
    .padStart(digits + 1, '0');
  const frac = v.slice(-digits).replace(/0+$/, '');
  return frac ? `${v.slice(0, -digits)}.${frac}` : v.slice(0, -digits);
}

/** `f` divided by `by`, reduced (a forward factor: backward / the latest backward). */
export function ratio(f: Rational, by: Rational): Rational {
  return reduce(f.num * by.den, f.den * by.num);
}
