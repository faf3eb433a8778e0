/**
 * 分时 arithmetic, exact on the API's strings: the average-price line (均价线) is each day's
 * running amount over its running volume, as Tongdaxin draws it; the days of a 5-day view.
 */
import { divide, sum } from './decimal.js';

export interface MinuteBar {
  timestamp: string;
  trade_date: string;
  close: string;
  volume: number;
  amount: string | null;
}

/**
 * The average price at each minute: the day's amount so far over its volume so far, to
 * `places` decimals (half away from zero); null where the volume so far is 0 or an amount is
 * unknown. Each trading day starts again.
 */
export function averageLine(bars: MinuteBar[], places: number): (string | null)[] {
  let day = '';
  let amount = '0';
  let volume = 0;
  let unknown = false;
  return bars.map((b) => {
    if (b.trade_date !== day) [day, amount, volume, unknown] = [b.trade_date, '0', 0, false];
    if (b.amount === null) unknown = true;
    else amount = sum([amount, b.amount]);
    volume += b.volume;
    return unknown || volume === 0 ? null : divide(amount, String(volume), places);
  });
}

/** The bars of the last `days` trading days among `bars` (oldest first). */
export function lastDays<T extends { trade_date: string }>(bars: T[], days: number): T[] {
  const dates = [...new Set(bars.map((b) => b.trade_date))].sort().slice(-days);
  return bars.filter((b) => dates.includes(b.trade_date));
}

/** The autoscale of a 分时 price pane: symmetric around the previous close, as Tongdaxin's. */
export function symmetricRange(prices: number[], preClose: number): { minValue: number; maxValue: number } {
  const d = Math.max(preClose * 0.002, ...prices.map((p) => Math.abs(p - preClose)));
  return { minValue: preClose - d, maxValue: preClose + d };
}
