/**
 * The demo's suspension announcements: every run of trading days an equity has no bar after its
 * first (the spells of events.ts), with a reason and the announcement the evening before; and a
 * few one-hour intraday halts (临时停牌 on abnormal volatility, 09:30–10:30) on days that keep
 * their bar, outside the days with 1m bars, among them the morning before an equity's first spell
 * (halted pending the announcement). An equity with either has all its intervals loaded,
 * so what the API serves agrees with its bars and price limits on every day.
 */
import { Rng } from './random.js';
import type { InstrumentOut } from './simulate.js';
import type { Span } from './model.js';

const REASONS = ['重大事项', '重大资产重组', '刊登重要公告', '股东大会', '拟筹划重大事项'];

/** Rows [start, end, resume, halt_from, halt_to, reason, announce] of one equity. */
export function suspensionRows(seed: number, x: InstrumentOut, span: Span): unknown[][] {
  const r = Rng.from(seed, `suspensions/${x.id}`);
  const { days } = span;
  const first = x.daily.findIndex((b) => b !== null);
  if (x.kind !== 'equity' || first < 0) return [];
  const out: unknown[][] = [];
  for (let i = first + 1; i < days.length; i++) {
    if (x.daily[i] !== null) continue;
    let j = i;
    while (j + 1 < days.length && x.daily[j + 1] === null) j++;
    const open = j === days.length - 1;
    out.push([days[i], open ? null : days[j], open ? null : days[j + 1], null, null, r.pick(REASONS), days[i - 1]]);
    // The first spell is announced the evening before, after trading was halted that morning pending the announcement.
    const eve = days[i - 1];
    if (out.length === 1 && i - 1 > first && !span.minuteDays.has(eve)) out.push([eve, eve, null, '09:30', '10:30', '拟披露重大事项', eve]);
    i = j;
  }
  // Now and then a one-hour halt on a day with a bar (not one with 1m bars, which would show it).
  if (r.chance(0.08)) {
    const candidates = days
      .map((d, i) => [d, i] as const)
      .filter(([d, i]) => i > first + 5 && x.daily[i] !== null && !span.minuteDays.has(d));
    if (candidates.length) {
      const [d] = r.pick(candidates);
      out.push([d, d, null, '09:30', '10:30', '股价异常波动', d]);
    }
  }
  return out.sort((a, b) => (a[0] as number) - (b[0] as number));
}
