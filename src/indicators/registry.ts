import { atr } from './atr.js';
import { bias } from './bias.js';
import { boll } from './boll.js';
import { cci } from './cci.js';
import { dmi } from './dmi.js';
import { ema } from './ema.js';
import { kdj } from './kdj.js';
import { ma } from './ma.js';
import { macd } from './macd.js';
import { obv } from './obv.js';
import { rsi } from './rsi.js';
import type { Indicator } from './types.js';
import { wr } from './wr.js';

/**
 * The IndicatorId enumeration (CONTRACT.md §2) and its implementations; the HTTP layer takes
 * its `{indicator}` path enum and the documented keys from here.
 */
export const INDICATOR_IDS = ['ma', 'ema', 'macd', 'kdj', 'rsi', 'boll', 'wr', 'cci', 'bias', 'obv', 'atr', 'dmi'] as const;
export type IndicatorId = (typeof INDICATOR_IDS)[number];

export const INDICATORS: Record<IndicatorId, Indicator> = { ma, ema, macd, kdj, rsi, boll, wr, cci, bias, obv, atr, dmi };

export function isIndicatorId(s: string): s is IndicatorId {
  return (INDICATOR_IDS as readonly string[]).includes(s);
}

export { formatValue } from './format.js';
export { foldBars, foldEach, seriesFromBars, setPoint } from './series.js';
export type { Indicator, Point, Series, Stream, Values } from './types.js';
