/**
 * Daily price paths of the demo equities: a market factor plus board factors plus idiosyncratic
 * noise, bounded by each day's price limits around the ex-rights reference price (CONTRACT.md §6),
 * with limit-up runs, broken limit-ups, limit-downs and unlimited first days of new listings.
 */
import type { BoardId } from '../market/types.js';
import { limitPrices, limitRounding, limitRule, listingKind } from '../market/limits.js';
import { divRoundHalfUp } from '../lib/decimal.js';
import type { Rng } from './random.js';
import type { DayBar, EquitySpec, Span } from './model.js';
import { isSt } from './events.js';
import { sharesAfter } from './share-counts.js';

/** A corporate_actions row (minus inst); units as in schema.ts. */
export interface ActionRow {
  exDate: number;
  recordDate: number;
  payDate: number;
  announceDate: number;
  cash: number;
  bonus: number;
  transfer: number;
  rightsRatio: number;
  rightsPrice: number;
}

export interface Factors {
  market: number[];
  board: Record<BoardId, number[]>;
}

export interface EquityPath {
  /** Indexed like span.days; null before listing and on suspended days. */
  bars: (DayBar | null)[];
  actions: ActionRow[];
  totalShares: number;
  floatShares: number;
  /** The counts at the start (listing, or the data's first day) and after each action that changed them. */
  shares: ShareCount[];
}

export interface ShareCount {
  date: number;
  total: number;
  float: number;
  action: ActionRow | null;
}

const TICK = 10;
export const tick = (x: number, t = TICK) => Math.max(t, Math.round(x / t) * t);
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Ex-rights reference price (CONTRACT.md §6), rounded half-up to 0.01 CNY. */
export function exRightsRef(prevClose: number, a: Pick<ActionRow, 'cash' | 'bonus' | 'transfer' | 'rightsRatio' | 'rightsPrice'>): number {
  const num = (BigInt(prevClose) * 100n - BigInt(a.cash)) * 1_000_000n + BigInt(a.rightsPrice) * 100n * BigInt(a.rightsRatio);
  const den = (1_000_000n + BigInt(a.bonus + a.transfer + a.rightsRatio)) * 1000n;
  return Number(divRoundHalfUp(num, den)) * 10;
}

/** Common daily return factors: the market (with volatility clustering) and each board. */
export function marketFactors(rng: Rng, n: number): Factors {
  const market: number[] = [];
  let h = 0;
  for (let i = 0; i < n; i++) {
    h = 0.97 * h + 0.2 * rng.normal();
    market.push(0.0003 + 0.0105 * Math.exp(0.35 * h) * rng.normal());
  }
  const board = {} as Record<BoardId, number[]>;
  const sd: Record<BoardId, number> = { main: 0.003, chinext: 0.006, star: 0.007, bse: 0.008 };
  for (const b of Object.keys(sd) as BoardId[]) board[b] = Array.from({ length: n }, () => sd[b] * rng.normal());
  return { market, board };
}

type Mode = 'normal' | 'limitUp' | 'oneWordUp' | 'broken' | 'limitDown';

interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
  volMult: number;
}

function limitedDay(r: Rng, mode: Mode, ref: number, up: number, down: number, ret: number, sigma: number): Ohlc {
  const ext = () => Math.abs(r.normal()) * 0.5 * sigma;
  let open: number,
    close: number,
    high: number,
    low: number,
    volMult = 1;
  switch (mode) {
    case 'oneWordUp':
      return { open: up, high: up, low: up, close: up, volMult: 0.1 };
    case 'limitUp':
      close = up;
      open = clamp(tick(ref * (1 + 0.005 + 0.02 * Math.abs(r.normal()))), down, up);
      high = up;
      low = tick(Math.min(open, close) * (1 - ext()));
      volMult = 1.5;
      break;
    case 'broken':
      high = up;
      close = Math.min(up - TICK, clamp(tick(up * (1 - r.uniform(0.01, 0.06))), down, up));
      open = clamp(tick(ref * (1 + r.uniform(0, 0.04))), down, up - TICK);
      low = tick(Math.min(open, close) * (1 - ext()));
      volMult = 2;
      break;
    case 'limitDown':
      close = down;
      low = down;
      open = clamp(tick(ref * (1 - r.uniform(0, 0.03))), down, up);
      high = tick(Math.max(open, close) * (1 + ext() * 0.6));
      volMult = 0.8;
      break;
    default:
      close = clamp(tick(ref * (1 + ret)), down, up);
      open = clamp(tick(ref * (1 + 0.25 * ret + 0.4 * sigma * r.normal())), down, up);
      high = tick(Math.max(open, close) * (1 + ext()));
      low = tick(Math.min(open, close) * (1 - ext()));
  }
  high = Math.max(clamp(high, down, up), open, close);
  low = Math.min(clamp(low, down, up), open, close);
  return { open, high, low, close, volMult };
}

/** First days of a new listing, without price limits. */
function unlimitedDay(r: Rng, s: EquitySpec, since: number, ref: number, rule: string): Ohlc {
  if (since === 0) {
    const jump = r.chance(0.08) ? r.uniform(-0.15, -0.02) : s.board === 'bse' ? r.uniform(0.2, 1.5) : r.uniform(0.3, 2);
    // Before the registration reforms a first day was held within +44% / -36% of the issue price.
    const band = rule === 'ipo_first_day_band' ? (x: number) => clamp(x, tick(ref * 0.64), tick(ref * 1.44)) : (x: number) => x;
    const close = band(tick(ref * (1 + jump))),
      open = band(tick(ref * (1 + jump * r.uniform(0.3, 1.1))));
    return {
      open,
      close,
      high: band(tick(Math.max(open, close) * (1 + r.uniform(0.01, 0.15)))),
      low: band(tick(Math.min(open, close) * (1 - r.uniform(0.01, 0.1)))),
      volMult: 0,
    };
  }
  const ret = clamp(0.07 * r.normal() - 0.01, -0.3, 0.35);
  const close = tick(ref * (1 + ret)),
    open = tick(ref * (1 + 0.03 * r.normal()));
  return {
    open,
    close,
    high: tick(Math.max(open, close) * (1 + r.uniform(0.005, 0.08))),
    low: tick(Math.min(open, close) * (1 - r.uniform(0.005, 0.08))),
    volMult: 0,
  };
}

export interface PathContext {
  span: Span;
  factors: Factors;
  calPos: Map<number, number>;
}

/** Trading days from listing to `date` (0 on the listing day); large when listed before the table. */
function sinceListing(ctx: PathContext, listDate: number, date: number): number {
  const a = ctx.calPos.get(listDate),
    b = ctx.calPos.get(date)!;
  return a === undefined ? 100_000 : b - a;
}

export function simulateEquity(r: Rng, s: EquitySpec, ctx: PathContext): EquityPath {
  const { days } = ctx.span;
  const bars: (DayBar | null)[] = new Array(days.length).fill(null);
  const actions: ActionRow[] = [];
  const planned = new Map(s.actions.map((a) => [a.exDate, a]));
  let prev = s.price0,
    anchor = s.price0,
    prevMode: Mode | null = null;
  let total = s.totalShares,
    float = s.floatShares;
  const shares: ShareCount[] = [{ date: s.listDate, total, float, action: null }];
  for (let i = 0; i < days.length; i++) {
    const date = days[i];
    if (date < s.listDate || s.suspended.has(date)) continue;
    let ref = prev;
    const p = planned.get(date);
    if (p) {
      const row: ActionRow = {
        exDate: date,
        recordDate: p.recordDate,
        payDate: date,
        announceDate: p.announceDate,
        cash: p.cashYield > 0 ? Math.max(100, Math.round((prev * 100 * p.cashYield) / 100) * 100) : 0,
        bonus: p.bonusRatio,
        transfer: p.transferRatio,
        rightsRatio: p.rightsRatio,
        rightsPrice: p.rightsRatio > 0 ? tick(prev * p.rightsDiscount) : 0,
      };
      actions.push(row);
      ref = exRightsRef(prev, row);
      anchor *= ref / prev;
      const added = row.bonus + row.transfer + row.rightsRatio;
      if (added > 0) {
        ({ total, float } = sharesAfter(total, float, added));
        shares.push({ date, total, float, action: row });
      }
    }
    const since = sinceListing(ctx, s.listDate, date);
    const rule = limitRule({
      board: s.board,
      market: s.market,
      st: isSt(s, date),
      date,
      listDate: s.listDate,
      tradingDayIndexSinceListing: since,
      listingKind: listingKind(s.market, s.listDate, null),
    });
    let bar: Ohlc,
      up: number | null = null,
      down: number | null = null;
    if (rule.ratioPct === null) {
      bar = unlimitedDay(r, s, since, ref, rule.reason);
      anchor = bar.close;
    } else {
      ({ up, down } = limitPrices(ref, rule.ratioPct, TICK, limitRounding(s.market, date)));
      let mode: Mode = 'normal';
      const x = r.next() / (s.price0 >= 500_000 || s.industry.key === 'banks' ? 0.1 : 1); // blue chips rarely hit limits
      if ((prevMode === 'limitUp' || prevMode === 'oneWordUp') && x < 0.4) mode = r.chance(0.45) ? 'oneWordUp' : 'limitUp';
      else if (prevMode === 'limitDown' && x < 0.3) mode = 'limitDown';
      else if (x < 0.0028) mode = 'limitUp';
      else if (x < 0.0048) mode = 'broken';
      else if (x < 0.006) mode = 'limitDown';
      const ret =
        s.beta * (ctx.factors.market[i] + ctx.factors.board[s.board][i]) +
        s.sigma * r.normal() -
        0.005 * Math.log(ref / anchor) +
        (ref < 1800 ? 0.004 : 0); // keep clear of the 1-CNY delisting line
      bar = limitedDay(r, mode, ref, up!, down!, ret, s.sigma);
      prevMode = bar.close === up ? (bar.low === up ? 'oneWordUp' : 'limitUp') : bar.close === down ? 'limitDown' : 'normal';
    }
    const turn =
      bar.volMult === 0
        ? since === 0
          ? r.uniform(0.55, 0.85)
          : r.uniform(0.2, 0.45)
        : s.turnover * Math.exp(0.35 * r.normal()) * (1 + 8 * Math.abs(bar.close / ref - 1)) * bar.volMult;
    const volume = Math.max(200_000, Math.floor((float * turn) / 100) * 100);
    const vwap = (bar.open + bar.high + bar.low + 2 * bar.close) / 5;
    bars[i] = {
      date,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume,
      amount: Math.round((vwap * volume) / 10),
      ref,
      up,
      down,
    };
    prev = bar.close;
  }
  return { bars, actions, totalShares: total, floatShares: float, shares };
}
