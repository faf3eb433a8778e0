import { PRICE_SCALE } from '../lib/decimal.js';
import type { Bar } from '../market/types.js';
import type { Series } from './types.js';

const UNIT = 10 ** PRICE_SCALE;

/**
 * Bars (prices in 1/1000 CNY, oldest first) as an indicator Series in plain CNY numbers.
 * Indicators are computed on the bars the client asked for, i.e. after adjustment
 * (`adjustBars`) when an adjustment is requested.
 */
export function seriesFromBars(bars: readonly Bar[]): Series {
  return {
    open: bars.map((b) => b.open / UNIT),
    high: bars.map((b) => b.high / UNIT),
    low: bars.map((b) => b.low / UNIT),
    close: bars.map((b) => b.close / UNIT),
    volume: bars.map((b) => b.volume),
  };
}
