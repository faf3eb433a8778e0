/**
 * Margin trading of the demo's eligible equities, made to obey the exchanges' identities to the
 * fen and the share: financing_balance(t) = financing_balance(t−1) + bought − repaid;
 * short_shares(t) = short_shares(t−1) + sold − repaid; short_balance = short_shares × close;
 * total_balance = financing_balance + short_balance. Eligible, as the exchanges' rules for margin
 * securities have it: never ST in the data, from the 60th trading day on (new listings join the
 * list later), with at least 100 million float shares or a float market value of at least
 * 500 million CNY that day; a record per day with a bar. Financing is bought at a few
 * percent of the day's turnover and repaid so that the balance drifts around 2–6% of the float
 * market value; short selling stays a thousandth of the float or so, as in the A-share market.
 */
import type { Rng } from '../random.js';
import type { MarginTradingTable } from '../../store/schema-fundamentals.js';
import type { DayIn } from './inputs.js';
import { clamp } from './util.js';

export type MarginRow = Omit<MarginTradingTable, 'inst'>;

/** Trading days an equity trades before it may be eligible. */
export const MARGIN_SEASONING = 60;
/** Float shares, or float market value in fen, that make an equity eligible. */
const MIN_FLOAT_SHARES = 100_000_000,
  MIN_FLOAT_VALUE = 500_000_000 * 100;

/** The rows of one equity (`floatShares` its float, `everSt` whether it is ST at any time in the data). */
export function marginRows(r: Rng, bars: DayIn[], floatShares: number, everSt: boolean): MarginRow[] {
  if (everSt || bars.length <= MARGIN_SEASONING || floatShares <= 0) return [];
  const level = r.uniform(0.02, 0.06),
    shortLevel = r.uniform(0.0003, 0.002);
  const out: MarginRow[] = [];
  // Balances before the first record (its own identity has no previous day): near the targets.
  let financing = -1,
    shorts = -1;
  for (const b of bars.slice(MARGIN_SEASONING)) {
    // An equity's close is a whole number of fen (stored in 1/1000 CNY): short balances are exact.
    if (b.close % 10 !== 0) throw new Error(`margin trading: close ${b.close} is not a whole fen`);
    const fen = b.close / 10;
    if (out.length === 0 && floatShares < MIN_FLOAT_SHARES && floatShares * fen < MIN_FLOAT_VALUE) continue;
    const target = floatShares * fen * level,
      shortTarget = floatShares * shortLevel;
    if (financing < 0) [financing, shorts] = [Math.round(target), Math.round(shortTarget)];
    // Bought at a few percent of the turnover; repaid about as much, more when over the target.
    const bought = Math.round(b.amount * clamp(r.uniform(0.04, 0.12) + 0.02 * r.normal(), 0.01, 0.25));
    const pull = clamp(1 + 0.5 * (financing / target - 1) + 0.1 * r.normal(), 0, 3);
    const repaid = clamp(Math.round(bought * pull), 0, financing + bought);
    financing += bought - repaid;
    const traded = Math.floor(b.amount / fen);
    const sold = Math.round(traded * r.uniform(0.001, 0.01));
    const back = clamp(1 + 0.5 * (shorts / Math.max(shortTarget, 1) - 1) + 0.1 * r.normal(), 0, 3);
    const returned = clamp(Math.round(sold * back), 0, shorts + sold);
    shorts += sold - returned;
    const shortBalance = shorts * fen;
    out.push({
      date: b.date,
      financing_balance: financing,
      financing_bought: bought,
      financing_repaid: repaid,
      short_balance: shortBalance,
      short_shares: shorts,
      short_sold: sold,
      short_repaid: returned,
      total_balance: financing + shortBalance,
    });
  }
  return out;
}
