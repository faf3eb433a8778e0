/**
 * Numbers and times as a Tongdaxin user reads them: volumes in 手 (lots of 100 shares), large
 * numbers in 万 (10^4) and 亿 (10^8), times in market time (`14:39:00`). Exact: each is made
 * from the API's decimal string by moving the decimal point and rounding half away from zero,
 * never through a float; the exact value goes into the element's tooltip (`exact`).
 */
import { divide, round, shiftLeft } from './decimal.js';

const ABS = /^-/;
/** The digits before the point of a decimal's absolute value. */
const intDigits = (v: string): number => v.replace(ABS, '').split('.')[0].replace(/^0+/, '').length;

/**
 * A decimal in 万 or 亿 from 10^4 and 10^8 up (`17595387364.00` → `175.95亿`, `12157900` →
 * `1215.79万`), `places` decimals; below 10^4 the value rounded to `smallPlaces`.
 */
export function wanYi(v: string, places = 2, smallPlaces = places): string {
  const digits = intDigits(v);
  if (digits > 8) return `${round(shiftLeft(v, 8), places)}亿`;
  if (digits > 4) return `${round(shiftLeft(v, 4), places)}万`;
  return round(v, smallPlaces);
}

/** Shares as lots of 100 (手), exact: `12157900` → `121579`, `150` → `1.5`. */
export function lots(shares: number | string): string {
  const s = round(shiftLeft(String(shares), 2), 2);
  return s.replace(/\.?0+$/, '') || '0';
}

/** A volume in shares as the legend says it: lots in 万/亿 (`12157900` → `12.16万手`; `45600` → `456手`). */
export const volumeText = (shares: number | string): string => `${wanYi(lots(shares), 2, 0)}手`;

/** The exact volume, for a tooltip: `12157900 股 = 121579 手`. */
export const volumeExact = (shares: number | string): string => `${shares} 股 = ${lots(shares)} 手`;

/** An amount in CNY (or any money) in 万/亿: `17595387364.00` → `175.95亿`; null as a dash. */
export const moneyText = (v: string | null): string => (v === null ? '—' : wanYi(v));

/** Turnover rate in % of the float, two decimals, exact (`12157900` of `1256197800` → `0.97`). */
export const turnoverRate = (volume: number | string, floatShares: number | string): string | null =>
  divide(`${volume}00`, String(floatShares), 2);

/**
 * An RFC 3339 instant's clock in market time (UTC+8): `2026-11-20T14:39:00+08:00` → `14:39:00`.
 * A time written with another offset is moved to +08:00 first.
 */
export function marketClock(ts: string): string {
  if (/[+]08:00$/.test(ts)) return ts.slice(11, 19);
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return ts;
  return new Date(t + 8 * 3_600_000).toISOString().slice(11, 19);
}

/** An RFC 3339 instant as a market date and time: `2026-11-20 14:39:00`. */
export function marketDateTime(ts: string): string {
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return ts;
  return new Date(t + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** An axis label (a float, not exact: the axis is a guide): `175950000` → `1.76亿`, `35000` → `3.5万`. */
export function axisWanYi(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e8) return `${+(n / 1e8).toFixed(2)}亿`;
  if (a >= 1e4) return `${+(n / 1e4).toFixed(1)}万`;
  return String(+n.toFixed(2));
}
