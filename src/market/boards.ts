/**
 * Boards (CONTRACT.md §2): membership follows the exchanges' code ranges for A shares
 * (codes.ts, CODE_RANGES): boardOf('688981', 'SH') -> 'star'. A vendor that labels the board
 * itself (Tushare's `market` column) is believed over the ranges; BOARD_MARKETS says which
 * markets a board exists on. Per-kind facts (ticks, price decimals) are in kinds.ts.
 */
import { securityOf } from './codes.js';
import type { BoardId, MarketId } from './types.js';

/** The markets each board is a board of: the main board of SH and SZ, ChiNext SZ, STAR SH, the BSE BJ. */
export const BOARD_MARKETS: Readonly<Record<BoardId, readonly MarketId[]>> = {
  main: ['SH', 'SZ'],
  chinext: ['SZ'],
  star: ['SH'],
  bse: ['BJ'],
};

/**
 * The board of an A-share equity by its code range: SH 600/601/603/605 main, 688/689 STAR; SZ
 * 00xxxx main, 30xxxx ChiNext (300, 301, 302, …); BJ 43/83/87/920 the Beijing Stock Exchange.
 * Throws RangeError for a code that is not an A-share equity code of that market (indices,
 * funds, B shares, codes in no range, malformed codes).
 */
export function boardOf(code: string, market: MarketId): BoardId {
  const s = securityOf(code, market);
  if (s.kind === 'equity') return s.board;
  throw new RangeError(/^\d{6}$/.test(code) ? `${code}.${market} is not an A-share equity code` : `not a 6-digit code: ${code}`);
}
