/**
 * Daily capital flows by order size (Eastmoney's classes, by the size of the order behind each
 * side of a trade): extra large ≥ 500,000 shares or ≥ 1,000,000 CNY; large 200,000–500,000
 * shares or 300,000–1,000,000 CNY; medium 40,000–200,000 shares or 50,000–300,000 CNY; small
 * below. Every trade has a buyer and a seller, so the buy turnover of the four classes sums
 * to the day's amount and so does the sell turnover (hence the four net flows sum to 0).
 * Large orders lean with the day's move; large caps see more large-order turnover.
 */
import type { Rng } from '../random.js';
import type { CapitalFlowTable } from '../../store/schema-fundamentals.js';
import type { DayIn } from './inputs.js';
import { clamp } from './util.js';

export type FlowRow = Omit<CapitalFlowTable, 'inst'>;

/** Splits `total` into integer parts proportional to `weights` (largest remainder, ties to the first), summing exactly. */
export function apportion(total: number, weights: number[]): number[] {
  let sum = 0;
  for (const w of weights) sum += w;
  const out = new Array<number>(weights.length),
    frac = new Array<number>(weights.length);
  let left = total;
  for (let i = 0; i < weights.length; i++) {
    const x = (total * weights[i]) / sum;
    out[i] = Math.floor(x);
    frac[i] = x - out[i];
    left -= out[i];
  }
  for (; left > 0; left--) {
    let best = 0;
    for (let i = 1; i < frac.length; i++) if (frac[i] > frac[best]) best = i;
    out[best]++;
    frac[best] = -1;
  }
  return out;
}

/** One row per daily bar; `value` is the market value in fen that sets the large-order share. */
export function flowRows(r: Rng, bars: DayIn[], value: number): FlowRow[] {
  const xl = clamp(0.1 + 0.06 * Math.log10(value / 1e11), 0.04, 0.4);
  const base = [xl, 0.22, 0.28, 0.5 - xl];
  const out: FlowRow[] = [];
  let prev = 0;
  for (const b of bars) {
    const ret = prev > 0 ? b.close / prev - 1 : 0;
    prev = b.close;
    const lean = clamp(8 * ret + 0.12 * r.normal(), -0.6, 0.6);
    const tilt = [lean, 0.7 * lean, -0.2 * lean, -0.6 * lean].map((t) => t + 0.05 * r.normal());
    const buy = apportion(
      b.amount,
      base.map((w, i) => w * Math.max(0.05, 1 + tilt[i])),
    );
    const sell = apportion(
      b.amount,
      base.map((w, i) => w * Math.max(0.05, 1 - tilt[i])),
    );
    out.push({
      date: b.date,
      amount: b.amount,
      xl_buy: buy[0],
      xl_sell: sell[0],
      l_buy: buy[1],
      l_sell: sell[1],
      m_buy: buy[2],
      m_sell: sell[2],
      s_buy: buy[3],
      s_sell: sell[3],
    });
  }
  return out;
}
