export type MarketId = 'SH' | 'SZ' | 'BJ';
export type BoardId = 'main' | 'chinext' | 'star' | 'bse';
export type IntervalId = '1m' | '5m' | '15m' | '30m' | '60m' | '1d' | '1w' | '1mo' | '1q' | '1y';
export const MARKET_IDS: MarketId[] = ['SH', 'SZ', 'BJ'];
export const BOARD_IDS: BoardId[] = ['main', 'chinext', 'star', 'bse'];
export const ADJUSTMENT_IDS = ['none', 'forward', 'backward'] as const;
export type AdjustmentId = (typeof ADJUSTMENT_IDS)[number];

/** One OHLCV bar; prices in 1/1000 CNY, volume in shares, amount in fen (null: unknown, the vendor published none). */
export interface Bar {
  /** Bar end, epoch seconds. */
  ts: number;
  /** Trading day (YYYYMMDD) the bar belongs to; for 1w..1y the period's last trading day. */
  date: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number | null;
  /** Exact amount of an aggregated bar whose sum passed 2^53 fen (a year of an index); `amount` is then approximate. */
  amountExact?: bigint;
}

/**
 * An instrument's daily limits as its exchange published them (Tushare's stk_limit, which
 * `mds ingest --tushare` reads and query/limit-compare.ts holds against the service's), a column
 * each: prices in 1/1000 CNY, -1 where none is given; `file` indexes the files read, `line` is
 * the row's line there.
 */
export interface ExchangeLimitRows {
  date: number[];
  pre: number[];
  up: number[];
  down: number[];
  file: number[];
  line: number[];
}
