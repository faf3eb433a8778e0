/**
 * The API's twelve indicators as the chart draws them: overlays on the price pane (MA, EMA,
 * BOLL) or a pane of their own, one line per key of the API's `values` (MACD's bar as a
 * histogram). The chart draws the API's own points, never computing one.
 */
export interface IndicatorLook {
  id: string;
  title: string;
  overlay: boolean;
  /** The keys of `values`, in drawing order. */
  keys: string[];
  /** Keys drawn as a histogram around zero. */
  histogram?: string[];
}

export const INDICATORS: IndicatorLook[] = [
  { id: 'ma', title: 'MA', overlay: true, keys: ['ma5', 'ma10', 'ma20', 'ma60'] },
  { id: 'ema', title: 'EMA', overlay: true, keys: ['ema12', 'ema26'] },
  { id: 'boll', title: 'BOLL', overlay: true, keys: ['mid', 'upper', 'lower'] },
  { id: 'macd', title: 'MACD', overlay: false, keys: ['dif', 'dea', 'macd'], histogram: ['macd'] },
  { id: 'kdj', title: 'KDJ', overlay: false, keys: ['k', 'd', 'j'] },
  { id: 'rsi', title: 'RSI', overlay: false, keys: ['rsi6', 'rsi12', 'rsi24'] },
  { id: 'wr', title: 'WR', overlay: false, keys: ['wr6', 'wr10'] },
  { id: 'cci', title: 'CCI', overlay: false, keys: ['cci'] },
  { id: 'bias', title: 'BIAS', overlay: false, keys: ['bias6', 'bias12', 'bias24'] },
  { id: 'obv', title: 'OBV', overlay: false, keys: ['obv'] },
  { id: 'atr', title: 'ATR', overlay: false, keys: ['tr', 'atr'] },
  { id: 'dmi', title: 'DMI', overlay: false, keys: ['pdi', 'mdi', 'adx', 'adxr'] },
];

/** Indicators on a chart whose URL names none: Tongdaxin's MA5/10/20/60. */
export const DEFAULT_INDICATORS = ['ma'];

export const indicatorById = (id: string): IndicatorLook | undefined => INDICATORS.find((i) => i.id === id);
