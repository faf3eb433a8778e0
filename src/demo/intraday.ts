/**
 * One-minute bars of a day whose daily bar is already known: a Brownian bridge from the open to
 * the close, stretched to touch the day's high and low exactly, sealed at the limit once a
 * limit-up (limit-down) close reaches it, with a U-shaped volume profile. The 09:30 bar is the
 * opening auction (one price). The bars aggregate exactly to the daily O/H/L/C and volume.
 */
import { MINUTE_LABELS } from '../market/sessions.js';
import { marketEpoch } from '../lib/time.js';
import type { Rng } from './random.js';
import type { MinuteBar } from './model.js';

const N = MINUTE_LABELS.length - 1; // continuous-trading bars after the auction bar
/** Minimum lots (100 shares) per continuous bar, so every bar can be split into a few trades. */
export const MIN_LOTS = 6;
/** Smallest daily volume the generator produces (shares): MIN_LOTS per bar plus the auction. */
export const MIN_DAILY_VOLUME = 200_000;

export interface DayShape {
  date: number;
  tick: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  up: number | null;
  down: number | null;
}

/** Splits `lots` into `weights.length` parts of at least `min` each, in proportion to weights. */
export function splitLots(lots: number, weights: number[], min: number): number[] {
  const n = weights.length;
  const extra = lots - min * n;
  if (extra < 0) throw new RangeError(`splitLots: ${lots} lots cannot give ${n} parts of ${min}`);
  let total = 0;
  for (const w of weights) total += w;
  const out = weights.map((w) => min + Math.floor((extra * w) / total));
  let left = lots - out.reduce((a, b) => a + b, 0);
  for (let i = n - 1; left > 0; i = (i - 1 + n) % n, left--) out[i]++;
  return out;
}

/** Intraday volume weights of the 240 continuous bars: heavy after the open, lunch and into the close. */
function volumeWeights(r: Rng): number[] {
  const w: number[] = [];
  for (let k = 1; k <= N; k++) {
    const lunch = k > 120 ? 0.6 * Math.exp(-(k - 121) / 8) : 0;
    w.push((1 + 2.5 * Math.exp(-(k - 1) / 12) + 1.2 * Math.exp(-(N - k) / 10) + lunch) * Math.exp(0.4 * r.normal()));
  }
  return w;
}

/** Closes of the 240 continuous bars (index 0 = the auction price, index N = the day's close). */
function pricePath(r: Rng, d: DayShape): number[] {
  const { open: o, close: c, high: h, low: l, tick } = d;
  const x: number[] = [0];
  for (let k = 1; k <= N; k++) x.push(x[k - 1] + r.normal() * (k < 30 ? 1.5 : 1));
  const end = x[N];
  const hiBase = Math.max(o, c),
    loBase = Math.min(o, c);
  let mx = -Infinity,
    mn = Infinity;
  const scale = (h - l) / 12 + tick;
  for (let k = 0; k <= N; k++) {
    x[k] = o + ((c - o) * k) / N + scale * (x[k] - (end * k) / N);
    if (x[k] > mx) mx = x[k];
    if (x[k] < mn) mn = x[k];
  }
  const path = x.map((v) => {
    if (v > hiBase && mx > hiBase) v = hiBase + ((v - hiBase) * (h - hiBase)) / (mx - hiBase);
    else if (v < loBase && mn < loBase) v = loBase - ((loBase - v) * (loBase - l)) / (loBase - mn);
    return Math.min(h, Math.max(l, Math.round(v / tick) * tick));
  });
  path[0] = o;
  path[N] = c;
  // Once a limit close is reached the stock stays sealed there.
  for (const lim of [d.up, d.down]) {
    if (lim === null || c !== lim) continue;
    const k = path.indexOf(lim);
    for (let j = k; j <= N; j++) path[j] = lim;
  }
  return path;
}

/** The 241 one-minute bars of the day (amount from a VWAP inside each bar). */
export function minuteBars(r: Rng, d: DayShape): MinuteBar[] {
  const { date, tick, high: h, low: l } = d;
  const lots = d.volume / 100;
  const auction = Math.max(1, Math.min(lots - MIN_LOTS * N, Math.round(lots * r.uniform(0.005, 0.03))));
  const path = h === l ? new Array(N + 1).fill(h) : pricePath(r, d);
  const sealed = (k: number) => path[k - 1] === path[k] && (path[k] === d.up || path[k] === d.down);
  // Once sealed at a limit, trading thins out to the odd seller hitting the queue.
  const vols = splitLots(
    lots - auction,
    volumeWeights(r).map((w, i) => (sealed(i + 1) ? w * 0.3 : w)),
    MIN_LOTS,
  );
  const bars: MinuteBar[] = [bar(date, MINUTE_LABELS[0], d.open, d.open, d.open, d.open, auction * 100)];
  let hiK = 1,
    loK = 1;
  for (let k = 1; k <= N; k++) {
    const o = path[k - 1],
      c = path[k];
    const wick = () => (r.chance(sealed(k) ? 0.05 : 0.35) ? tick * r.int(1, 3) : 0);
    const b = bar(
      date,
      MINUTE_LABELS[k],
      o,
      Math.min(h, Math.max(o, c) + wick()),
      Math.max(l, Math.min(o, c) - wick()),
      c,
      vols[k - 1] * 100,
    );
    bars.push(b);
    if (b.high > bars[hiK].high) hiK = k;
    if (b.low < bars[loK].low) loK = k;
  }
  // Make sure the day's extremes are reached (as a wick when the path fell short of them).
  if (Math.max(bars[0].high, bars[hiK].high) < h) bars[hiK].high = h;
  if (Math.min(bars[0].low, bars[loK].low) > l) bars[loK].low = l;
  for (const b of bars) b.amount = Math.round((((b.open + b.high + b.low + b.close) / 4) * b.volume) / 10);
  return bars;
}

function bar(date: number, label: number, open: number, high: number, low: number, close: number, volume: number): MinuteBar {
  return { ts: marketEpoch(date, label), label, open, high, low, close, volume, amount: 0 };
}
