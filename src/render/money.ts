import { formatScaled, MONEY_SCALE } from '../lib/decimal.js';

/** An amount in fen (1/100 CNY) as a decimal string with 2 decimals: "1234.56". */
export const money = (v: number) => formatScaled(v, MONEY_SCALE, 2);

/** fen integer, or a BigInt past 2^53 → "1234.56". */
export function money2(v: number | bigint): string {
  if (typeof v !== 'bigint') return money(v);
  const digits = (v < 0n ? -v : v).toString().padStart(3, '0');
  return (v < 0n ? '-' : '') + digits.slice(0, -2) + '.' + digits.slice(-2);
}
