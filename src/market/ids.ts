/**
 * Instrument ids as vendors and people write them, read as the service's `CODE.MARKET`.
 */

/** A market's name as written after a code (`.XSHG`, `.SSE`) or before it (`sh`), by our MarketId. */
export const MARKET_OF: Readonly<Record<string, string>> = {
  SH: 'SH',
  SZ: 'SZ',
  BJ: 'BJ',
  XSHG: 'SH',
  XSHE: 'SZ',
  SSE: 'SH',
  SZSE: 'SZ',
  BSE: 'BJ',
};

/** `000001.XSHG`, `000001.SH`, `000001.sh`, `sh000001` → `000001.SH`; null for anything else. */
export function normalId(s: string): string | null {
  let m = /^(\d{6})\.([A-Za-z]{2,4})$/.exec(s);
  if (m && MARKET_OF[m[2].toUpperCase()]) return `${m[1]}.${MARKET_OF[m[2].toUpperCase()]}`;
  m = /^(sh|sz|bj)(\d{6})$/i.exec(s);
  return m ? `${m[2]}.${m[1].toUpperCase()}` : null;
}
