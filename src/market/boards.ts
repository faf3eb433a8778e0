/**
 * Boards (CONTRACT.md §2): membership follows the exchanges' code ranges for A shares:
 * boardOf('688981', 'SH') -> 'star'. Per-kind facts (ticks, price decimals) are in kinds.ts.
 */
import type { BoardId, MarketId } from './types.js';

/**
 * The board of an A-share equity: SH 688/689 STAR, other SH 60x main; SZ 300/301 ChiNext,
 * SZ 000–003 main; every BJ code the Beijing Stock Exchange. Throws RangeError for a code that
 * is not an A-share equity code of that market (indices, funds, B shares, malformed codes).
 */
export function boardOf(code: string, market: MarketId): BoardId {
  if (!/^\d{6}$/.test(code)) throw new RangeError(`not a 6-digit code: ${code}`);
  const p3 = code.slice(0, 3);
  switch (market) {
    case 'SH':
      if (p3 === '688' || p3 === '689') return 'star';
      if (code.startsWith('60')) return 'main';
      break;
    case 'SZ':
      if (p3 === '300' || p3 === '301') return 'chinext';
      if (p3 === '000' || p3 === '001' || p3 === '002' || p3 === '003') return 'main';
      break;
    case 'BJ':
      return 'bse';
  }
  throw new RangeError(`${code}.${market} is not an A-share equity code`);
}
