/**
 * Trades and quote snapshots of tick days. Each one-minute bar is decomposed into trades (the
 * 09:30 bar into the single 09:25 auction trade) that start at its open, end at its close and
 * touch its high and low; the bar's amount becomes the exact sum of the trades'. Quotes are one
 * snapshot per bar label with cumulative day totals and a five-level book one tick apart.
 */
import { marketEpoch } from '../lib/time.js';
import type { Rng } from './random.js';
import type { MinuteBar, Trade } from './model.js';
import { splitLots } from './intraday.js';

/** Auction trades print at 09:25:00. */
const AUCTION_MINUTE = 9 * 60 + 25;

export interface DayLimits {
  up: number | null;
  down: number | null;
}

/** Key prices of a bar in time order: open, the extreme on the way, the other extreme, close. */
function keyPrices(b: MinuteBar): number[] {
  const seq = [b.open, ...(b.close >= b.open ? [b.low, b.high] : [b.high, b.low]), b.close];
  return seq.filter((p, i) => i === 0 || p !== seq[i - 1]);
}

/** Trades of a day from its 241 bars; sets each bar's amount to the sum of its trades. */
export function dayTrades(r: Rng, date: number, bars: MinuteBar[], tick: number, lim: DayLimits): Trade[] {
  const out: Trade[] = [];
  let last = bars[0].open,
    side: Trade['side'] = 'buy';
  bars.forEach((b, k) => {
    if (k === 0) {
      out.push({
        ts: marketEpoch(date, AUCTION_MINUTE),
        price: b.open,
        volume: b.volume,
        amount: (b.open * b.volume) / 10,
        side: 'neutral',
      });
      b.amount = (b.open * b.volume) / 10;
      return;
    }
    const keys = keyPrices(b);
    const lots = b.volume / 100;
    const n = Math.min(lots, keys.length + r.int(0, 5));
    const prices = fill(r, keys, n, tick);
    const vols = splitLots(
      lots,
      prices.map(() => 0.2 + r.next()),
      1,
    );
    const secs = prices.map(() => r.int(-59, 0)).sort((x, y) => x - y);
    let amount = 0;
    prices.forEach((p, j) => {
      if (p > last) side = 'buy';
      else if (p < last) side = 'sell';
      else if (p === lim.up)
        side = 'sell'; // sealed limit-up: sellers fill the bid queue
      else if (p === lim.down) side = 'buy';
      else if (r.chance(0.3)) side = side === 'buy' ? 'sell' : 'buy';
      const volume = vols[j] * 100,
        a = (p * volume) / 10;
      out.push({ ts: b.ts + secs[j], price: p, volume, amount: a, side });
      amount += a;
      last = p;
    });
    b.amount = amount;
  });
  return out;
}

/** n prices: keys at increasing positions (first and last fixed), others between their neighbours. */
function fill(r: Rng, keys: number[], n: number, tick: number): number[] {
  if (keys.length === 1) return new Array(n).fill(keys[0]);
  const inner = r
    .shuffle(Array.from({ length: n - 2 }, (_, i) => i + 1))
    .slice(0, keys.length - 2)
    .sort((a, b) => a - b);
  const pos = [0, ...inner, n - 1];
  const out = new Array<number>(n);
  for (let s = 0; s < pos.length - 1; s++) {
    const a = keys[s],
      b = keys[s + 1];
    out[pos[s]] = a;
    for (let j = pos[s] + 1; j < pos[s + 1]; j++) {
      const lo = Math.min(a, b),
        hi = Math.max(a, b);
      out[j] = lo + Math.floor(r.next() * ((hi - lo) / tick + 1)) * tick;
    }
  }
  out[n - 1] = keys[keys.length - 1];
  return out;
}

export interface QuoteInput {
  date: number;
  preClose: number;
  tick: number;
  lim: DayLimits;
  /** null for indices (no book); otherwise the typical queue size in lots and the queue at a limit. */
  book: { lots: number; limitQueue: number } | null;
}

/** Quote rows in `quotes` column order after inst: ts, date, last, open, high, low, pre_close, volume, amount, 20 book columns. */
export function dayQuotes(r: Rng, bars: MinuteBar[], q: QuoteInput): (number | null)[][] {
  const rows: (number | null)[][] = [];
  let hi = -Infinity,
    lo = Infinity,
    vol = 0,
    amt = 0;
  const open = bars[0].open;
  for (const b of bars) {
    hi = Math.max(hi, b.high);
    lo = Math.min(lo, b.low);
    vol += b.volume;
    amt += b.amount;
    rows.push([b.ts, q.date, b.close, open, hi, lo, q.preClose, vol, amt, ...book(r, b.close, q)]);
  }
  return rows;
}

function book(r: Rng, last: number, q: QuoteInput): (number | null)[] {
  const none = new Array<null>(5).fill(null);
  if (q.book === null) return [...none, ...none, ...none, ...none];
  const { tick, lim } = q;
  const size = () => r.int(1, q.book!.lots) * 100;
  const level = (p1: number, dir: number) =>
    [0, 1, 2, 3, 4].map((j) => {
      const p = p1 + dir * j * tick;
      return (lim.up !== null && p > lim.up) || (lim.down !== null && p < lim.down) || p < tick ? null : p;
    });
  let bid: (number | null)[], ask: (number | null)[];
  if (last === lim.up) {
    bid = level(last, -1);
    ask = none;
  } else if (last === lim.down) {
    bid = none;
    ask = level(last, 1);
  } else if (r.chance(0.5)) {
    bid = level(last, -1);
    ask = level(last + tick, 1);
  } else {
    bid = level(last - tick, -1);
    ask = level(last, 1);
  }
  const vols = (ps: (number | null)[], atLimit: boolean) =>
    ps.map((p, j) => (p === null ? null : atLimit && j === 0 ? q.book!.limitQueue * 100 : size()));
  return [...bid, ...vols(bid, last === lim.up), ...ask, ...vols(ask, last === lim.down)];
}
