/** What a 分时 view loads: the day's (or five days') minute bars, the previous close, the limits. */
import type { Client, Page } from './api.js';
import type { Limit } from './chart-data.js';
import { kindPath, type Instrument } from './instruments.js';
import { lastDays, type MinuteBar } from './minute-data.js';

export interface MinuteDays {
  bars: MinuteBar[];
  /** The close the first day's change is measured from (an equity's reference price, else the previous daily close): the zero line. */
  preClose: string | null;
  /** Each day's own previous close (five days: a minute's change is against its day's, as the legend says it). */
  preCloses: Map<string, string>;
  /** The last day's limits (equities). */
  limit: Limit | null;
  days: string[];
}

/** The minute bars of the `days` trading days ending at `date` (default: the latest day with minute bars). */
export async function loadMinutes(client: Client, inst: Instrument, date: string | undefined, days: number): Promise<MinuteDays> {
  const base = `${kindPath(inst.kind)}/${inst.id}`;
  const rows = await client.all<MinuteBar>(`${base}/bars`, { interval: '1m', order: 'desc', to: date, 'page[size]': 1000 }, 245 * days);
  const bars = lastDays(rows.reverse(), days);
  const dates = [...new Set(bars.map((b) => b.trade_date))];
  if (!bars.length) return { bars, preClose: null, preCloses: new Map(), limit: null, days: dates };
  const [first, last] = [dates[0], dates[dates.length - 1]];
  if (inst.kind === 'equity') {
    const limits = await client.all<Limit>(`${base}/price-limits`, { from: first, to: last });
    const byDay = new Map(limits.map((l) => [l.trade_date, l]));
    const preCloses = new Map(limits.map((l) => [l.trade_date, l.pre_close]));
    return { bars, preClose: byDay.get(first)?.pre_close ?? null, preCloses, limit: byDay.get(last) ?? null, days: dates };
  }
  // Each day's previous daily close: the daily bars up to the last day, one more than the days shown.
  const daily = await client.get<Page<{ trade_date: string; close: string }>>(`${base}/bars`, {
    interval: '1d',
    to: last,
    order: 'desc',
    'page[size]': dates.length + 1,
  });
  const closes = daily.data.slice().reverse();
  const preCloses = new Map<string, string>();
  for (const d of dates) {
    const before = closes.filter((c) => c.trade_date < d).pop();
    if (before) preCloses.set(d, before.close);
  }
  return { bars, preClose: preCloses.get(first) ?? null, preCloses, limit: null, days: dates };
}
