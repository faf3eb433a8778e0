/**
 * Index levels computed from their constituents, capitalisation-weighted with free-float share
 * counts q fixed for each period between reviews (index-members.ts: the members and q of each
 * period; the last period's are `index_constituents.shares`). The level is chained day by day,
 * which is the divisor method with the divisor adjusted whenever the constituent set or prices
 * change for reasons other than trading:
 *
 *   level(t) = level(t-1) * Σ q·P(t) / Σ q·R(t)
 *
 * where the sums run over the members of the period in force on day t (a review's new members
 * count from its first day), R is a constituent's reference price (ex-rights previous close, so dividends and bonus
 * shares do not move the index), a suspended constituent counts with P = R = its last close and a
 * constituent on its listing day is left out (it joins the next day). The unrounded level is
 * carried forward; stored prices are rounded half-up to 0.01 point.
 *
 * Open and close use the constituents' opens and closes. High and low: with E_h the level at all
 * constituents' highs (an upper bound of the true intraday high) and E_l at all lows,
 *   high = max(open, close) + WICK · (E_h − max(open, close)),
 *   low  = min(open, close) − WICK · (min(open, close) − E_l),   WICK = 0.4,
 * applied to daily bars and, on minute days, to each one-minute bar (the daily bar is then the
 * aggregate of the minute bars). Volume and amount are the constituents' sums.
 */
import type { DayBar, MinuteBar } from './model.js';

export const INDEX_WICK = 0.4;

export interface Member {
  q: number;
  /** The days it is a member with this q: day indices from..to−1 (a period between reviews). */
  from: number;
  to: number;
  listDate: number;
  daily: (DayBar | null)[];
  minutes: Map<number, MinuteBar[]>;
}

export interface IndexSeries {
  daily: (DayBar | null)[];
  minutes: Map<number, MinuteBar[]>;
}

const r10 = (x: number) => Math.round(x / 10) * 10;

interface Sums {
  o: number;
  h: number;
  l: number;
  c: number;
  vol: number;
  amt: number;
}

function bar(level: number, den: number, s: Sums, ts: number, label: number): MinuteBar {
  const o = (level * s.o) / den,
    c = (level * s.c) / den;
  const top = Math.max(o, c),
    bottom = Math.min(o, c);
  const h = top + INDEX_WICK * ((level * s.h) / den - top),
    l = bottom - INDEX_WICK * (bottom - (level * s.l) / den);
  return { ts, label, open: r10(o), high: r10(h), low: r10(l), close: r10(c), volume: s.vol, amount: s.amt };
}

/**
 * Index series over `days` (only on `open` days of the index's market); `level0` is the level
 * before the first day, in price units.
 */
export function computeIndex(
  members: Member[],
  days: number[],
  minuteDays: Set<number>,
  level0: number,
  open: (d: number) => boolean,
): IndexSeries {
  const daily: (DayBar | null)[] = new Array(days.length).fill(null);
  const minutes = new Map<number, MinuteBar[]>();
  const last: (number | null)[] = members.map(() => null);
  let level = level0;
  let prevClose = r10(level0);
  for (let i = 0; i < days.length; i++) {
    const date = days[i];
    if (!open(date)) continue;
    let den = 0;
    const d: Sums = { o: 0, h: 0, l: 0, c: 0, vol: 0, amt: 0 };
    let stale = 0;
    members.forEach((m, j) => {
      const b = m.daily[i];
      if (i < m.from || i >= m.to) {
        // Not a member that day: its last close is kept for the day it joins while suspended.
        if (b) last[j] = b.close;
        return;
      }
      if (b) {
        d.vol += b.volume;
        d.amt += b.amount;
        if (b.date !== m.listDate) {
          den += m.q * b.ref;
          d.o += m.q * b.open;
          d.h += m.q * b.high;
          d.l += m.q * b.low;
          d.c += m.q * b.close;
        }
        last[j] = b.close;
      } else if (last[j] !== null) {
        const v = m.q * last[j]!;
        den += v;
        d.o += v;
        d.h += v;
        d.l += v;
        d.c += v;
        stale += v;
      }
    });
    if (den === 0) continue;
    const pre = prevClose;
    // A day on which no constituent has 1m bars (all suspended) gets no index 1m bars either.
    const active = members.filter((m) => i >= m.from && i < m.to);
    if (minuteDays.has(date) && active.some((m) => m.minutes.has(date))) {
      const mins = minuteSeries(active, date, level, den, stale);
      minutes.set(date, mins);
      daily[i] = {
        date,
        open: mins[0].open,
        high: Math.max(...mins.map((x) => x.high)),
        low: Math.min(...mins.map((x) => x.low)),
        close: mins[mins.length - 1].close,
        volume: d.vol,
        amount: d.amt,
        ref: pre,
        up: null,
        down: null,
      };
    } else {
      const b = bar(level, den, d, 0, 0);
      daily[i] = {
        date,
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        volume: d.vol,
        amount: d.amt,
        ref: pre,
        up: null,
        down: null,
      };
    }
    level = (level * d.c) / den;
    prevClose = daily[i]!.close;
  }
  return { daily, minutes };
}

/** One-minute index bars; `stale` is Σ q·last close of the suspended constituents. */
function minuteSeries(members: Member[], date: number, level: number, den: number, stale: number): MinuteBar[] {
  const lists = members.map((m) => m.minutes.get(date) ?? null);
  const ref = lists.find((x) => x !== null)!;
  const out: MinuteBar[] = [];
  for (let k = 0; k < ref.length; k++) {
    const s: Sums = { o: stale, h: stale, l: stale, c: stale, vol: 0, amt: 0 };
    lists.forEach((bars, j) => {
      if (bars === null) return;
      const b = bars[k];
      s.vol += b.volume;
      s.amt += b.amount;
      if (date === members[j].listDate) return;
      const q = members[j].q;
      s.o += q * b.open;
      s.h += q * b.high;
      s.l += q * b.low;
      s.c += q * b.close;
    });
    out.push(bar(level, den, s, ref[k].ts, ref[k].label));
  }
  return out;
}
