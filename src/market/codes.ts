/**
 * What a six-digit exchange code is, from the exchanges' code ranges (docs/ingest.md, "Code
 * ranges", cites the allocation rules): an A-share equity and its board, an index, an ETF or a
 * LOF; or something the service does not serve (bonds, repos, B shares, REITs, Tongdaxin's own
 * sector indices), with the reason it is skipped.
 * securityOf('510300', 'SH') -> { kind: 'fund', fundType: 'etf' }.
 */
import type { BoardId, MarketId } from './types.js';

export type Security =
  { kind: 'equity'; board: BoardId } | { kind: 'index' } | { kind: 'fund'; fundType: 'etf' | 'lof' } | { kind: null; skip: string };

interface Range {
  prefixes: string[];
  what: Security;
}

const skip = (reason: string): Security => ({ kind: null, skip: reason });
const INDEX: Security = { kind: 'index' };
const ETF: Security = { kind: 'fund', fundType: 'etf' };
const LOF: Security = { kind: 'fund', fundType: 'lof' };
const range = (prefixes: string, what: Security): Range => ({ prefixes: prefixes.split(' '), what });
const equity = (board: BoardId): Security => ({ kind: 'equity', board });

/**
 * Per market, the ranges by code prefix; the longest matching prefix wins. The SSE allocates by
 * the first three digits, the SZSE by the first two (00 A shares of the main board, 30 ChiNext,
 * whatever four digits follow: 302132 is ChiNext as 300750 is).
 */
export const CODE_RANGES: Readonly<Record<MarketId, readonly Range[]>> = {
  SH: [
    range('600 601 603 605', equity('main')),
    range('688 689', equity('star')),
    range('000', INDEX),
    range('009 010 018 019 020 090 091 099', skip('bonds')),
    range('510 511 512 513 515 516 517 518 530 560 561 562 563 588', ETF),
    range('501 502 506', LOF),
    range('500 505', skip('closed-end funds')),
    range('508', skip('infrastructure REITs')),
    range('900', skip('B shares')),
    range('1', skip('bonds')),
    range('2', skip('bonds and repos')),
    range('3', skip('preferred shares')),
    range('880 881', skip('Tongdaxin sector indices')),
    range('999', skip('Tongdaxin index aliases')),
  ],
  SZ: [
    range('00', equity('main')),
    range('30', equity('chinext')),
    range('399', INDEX),
    range('159', ETF),
    range('16', LOF),
    range('18', skip('closed-end funds')),
    range('180', skip('infrastructure REITs')),
    range('20', skip('B shares')),
    range('10 11 12', skip('bonds')),
    range('13', skip('repos')),
    range('14', skip('preferred shares')),
  ],
  BJ: [range('43 83 87 920', equity('bse')), range('899', INDEX)],
};

/** What `code` is on `market` (see CODE_RANGES); a code in no range is skipped as "not an A-share equity, index or fund code". */
export function securityOf(code: string, market: MarketId): Security {
  if (!/^\d{6}$/.test(code)) return skip('not a 6-digit code');
  let best: Range | null = null,
    len = 0;
  for (const r of CODE_RANGES[market]) {
    for (const p of r.prefixes)
      if (p.length > len && code.startsWith(p)) {
        best = r;
        len = p.length;
      }
  }
  return best ? best.what : skip('codes outside the served ranges');
}
