/** What a 分时 view loads: the day's (or five days') minute bars, the previous close, the limits. */
import type { Client, Page } from './api.js';
import type { Limit } from './chart-data.js';
import { kindPath, type Instrument } from './instruments.js';
import { lastDays, type MinuteBar } from './minute-data.js';

export interface MinuteDays {
  bars: MinuteBar[];
  /** The close the first day's change is measured from (an equity's reference price, else the previous daily close). */
  preClose: string | null;
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
  if (!bars.length) return { bars, preClose: null, limit: null, days: dates };
  const [first, last] = [dates[0], dates[dates.length - 1]];
  if (inst.kind === 'equity') {
    const limits = await client.all<Limit>(`${base}/price-limits`, { from: first, to: last });
    const byDay = new Map(limits.map((l) => [l.trade_date, l]));
    return { bars, preClose: byDay.get(first)?.pre_close ?? null, limit: byDay.get(last) ?? null, days: dates };
  }
  const daily = await client.get<Page<{ trade_date: string; close: string }>>(`${base}/bars`, {
    interval: '1d',
    to: first,
    order: 'desc',
    'page[size]': 2,
  });
  const before = daily.data.find((d) => d.trade_date < first);
  return { bars, preClose: before?.close ?? null, limit: null, days: dates };
}
