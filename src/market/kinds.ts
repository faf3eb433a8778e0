/**
 * The instrument kinds (CONTRACT.md §2, §5) and what differs between them, one row each: the
 * price tick and the decimals a price is written with, how prices are adjusted, and whether
 * technical indicators are served. Every layer reads these facts here: the bar and record
 * writers (render/, http/serialize.ts), adjustment (query/analytics.ts), the bars and indicator
 * routes, the precomputed indicator pages and the demo market.
 * KINDS.fund -> { digits: 3, tick: 1, adjustable: true, actionFactors: false, indicators: true, board: false }.
 */
import { PRICE_SCALE } from '../lib/decimal.js';

export type InstrumentKind = 'equity' | 'index' | 'fund';

export interface KindSpec {
  /** Decimals of a price on the wire: 2 (0.01 CNY), funds 3. */
  digits: 2 | 3;
  /** Minimum price step in price units (1/1000 CNY): 10^(PRICE_SCALE - digits). */
  tick: number;
  /** Prices can be adjusted (forward, backward): published factors, else corporate actions. Indices never are. */
  adjustable: boolean;
  /** Without published factors, adjustment follows its corporate actions (equities); else none applies. */
  actionFactors: boolean;
  /** Technical indicators are served and precomputed for it (equities, indices and funds alike). */
  indicators: boolean;
  /** Listed on a board (main, STAR, ChiNext, BSE: market/boards.ts): equities only. */
  board: boolean;
}

const kind = (digits: 2 | 3, rest: Omit<KindSpec, 'digits' | 'tick'>): KindSpec => ({
  digits,
  tick: 10 ** (PRICE_SCALE - digits),
  ...rest,
});

/** Every kind, in the order the API lists them. */
export const KINDS: Readonly<Record<InstrumentKind, KindSpec>> = {
  equity: kind(2, { adjustable: true, actionFactors: true, indicators: true, board: true }),
  index: kind(2, { adjustable: false, actionFactors: false, indicators: true, board: false }),
  fund: kind(3, { adjustable: true, actionFactors: false, indicators: true, board: false }),
};

/** The kinds, in KINDS order. */
export const INSTRUMENT_KINDS = Object.keys(KINDS) as InstrumentKind[];
