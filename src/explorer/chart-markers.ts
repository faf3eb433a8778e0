/** Ex-rights days as markers under the bar that holds them, in Tongdaxin's words (`除权 10派191.16`). */
import type { SeriesMarker, Time } from 'lightweight-charts';
import type { ChartData, Dividend } from './chart-data.js';
import { timesTen } from './decimal.js';
import { chartTime, timeKey } from './time.js';

/** Tongdaxin's words for a dividend, per ten shares: `10派191.16 10送3 10转2`. */
export function dividendWords(d: Dividend): string {
  const per10 = (v: string | null, word: string) => (v !== null && /[1-9]/.test(v) ? `10${word}${timesTen(v)}` : '');
  return [per10(d.cash_per_share, '派'), per10(d.bonus_per_share, '送'), per10(d.transfer_per_share, '转')].filter(Boolean).join(' ');
}

/** The markers of the ex-rights days within the loaded bars, and those days (sorted). */
export function exRights(data: ChartData, colour: string): { markers: SeriesMarker<Time>[]; days: string[] } {
  const bars = data.bars;
  if (!bars.length) return { markers: [], days: [] };
  const words = new Map(data.dividends.filter((d) => d.ex_date).map((d) => [d.ex_date!, dividendWords(d)]));
  const days = [...new Set([...data.exDates, ...words.keys()])]
    .filter((d) => d >= bars[0].trade_date && d <= bars[bars.length - 1].trade_date)
    .sort();
  const markers: SeriesMarker<Time>[] = days.map((day) => ({
    // The bar that holds the day: its own, or the period's (1w..1y).
    time: chartTime(
      bars.find((b) => b.trade_date >= day)!,
      data.state.interval,
    ),
    position: 'belowBar',
    shape: 'arrowUp',
    color: colour,
    text: `除权 ${words.get(day) ?? ''}`.trim(),
    id: day,
  }));
  return { markers: markers.sort((a, b) => (timeKey(a.time) < timeKey(b.time) ? -1 : 1)), days };
}
