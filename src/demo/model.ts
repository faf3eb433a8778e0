/** Shapes shared by the demo generator's stages. Prices in 1/1000 CNY, volume in shares. */
import type { BoardId, MarketId } from '../market/types.js';
import type { Industry } from './catalog.js';

export interface DemoOptions {
  seed: number;
  /** Number of equities (at least 20). */
  equities: number;
  /** First and last date of the daily data (YYYYMMDD, clipped to trading days). */
  start: number;
  end: number;
  /** Trading days up to `end` that also get 1m bars. */
  minuteDays: number;
  /** Trading days up to `end` that also get trades and quotes (at most minuteDays). */
  tickDays: number;
}

export const DEFAULT_OPTIONS: DemoOptions = {
  seed: 1,
  equities: 220,
  start: 20230103,
  end: 20261120,
  minuteDays: 10,
  tickDays: 2,
};

/** The trading days the demo covers. */
export interface Span {
  days: number[];
  minuteDays: Set<number>;
  tickDays: Set<number>;
}

export interface PlannedAction {
  exDate: number;
  recordDate: number;
  announceDate: number;
  /** Cash yield on the previous close; the cash per share is fixed when the path reaches exDate. */
  cashYield: number;
  bonusRatio: number;
  transferRatio: number;
  rightsRatio: number;
  /** Rights price as a fraction of the previous close (0 when no rights issue). */
  rightsDiscount: number;
}

export interface EquitySpec {
  id: string;
  code: string;
  market: MarketId;
  board: BoardId;
  brand: string;
  name: string;
  nameEn: string;
  listDate: number;
  /** Listed inside the data range (its first bar is its listing day). */
  isNew: boolean;
  /** Issue price (new listings) or the close before the first simulated day. */
  price0: number;
  totalShares: number;
  floatShares: number;
  industry: Industry;
  region: string;
  concepts: string[];
  beta: number;
  sigma: number;
  turnover: number;
  dividendYield: number;
  st: { start: number; end: number | null }[];
  suspended: Set<number>;
  actions: PlannedAction[];
  /** One of well-known.ts: never ST, suspended or given a rights issue. */
  wellKnown: boolean;
}

/** One day of an equity or fund as simulated, before intraday detail. */
export interface DayBar {
  date: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number;
  /** Reference (ex-rights previous close) and that day's limits (null: no limit). */
  ref: number;
  up: number | null;
  down: number | null;
}

/** A stored bar row in the shape of MinuteBarTable (minus inst). */
export interface MinuteBar {
  ts: number;
  label: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number;
}

export interface Trade {
  ts: number;
  price: number;
  volume: number;
  amount: number;
  side: 'buy' | 'sell' | 'neutral';
}
