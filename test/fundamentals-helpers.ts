/** Shared pieces of the fundamentals tests: exact decimals and the operations. */
/** Decimal string -> BigInt scaled by 10^digits (the string must have exactly `digits` decimals). */
export function scaled(s: string, digits: number): bigint {
  const m = /^(-?)(\d+)\.(\d+)$/.exec(s);
  if (!m || m[3].length !== digits) throw new Error(`${s} is not a decimal with ${digits} decimals`);
  const v = BigInt(m[2] + m[3]);
  return m[1] ? -v : v;
}
export const cents = (s: string) => scaled(s, 2);

/** round(a × mult / b) half away from zero, or null when b is 0. */
export function divide(a: bigint, b: bigint, mult: bigint): bigint | null {
  if (b === 0n) return null;
  const n = a * mult;
  const an = n < 0n ? -n : n,
    ab = b < 0n ? -b : b;
  const q = (2n * an + ab) / (2n * ab);
  return n < 0n !== b < 0n ? -q : q;
}

/** Scaled BigInt -> decimal string with `digits` decimals. */
export function render(v: bigint | null, digits: number): string | null {
  if (v === null) return null;
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(digits + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
}

/** The operations of issue 3: [operationId, path segment, natural date field for from/to or null]. */
export const OPS: [string, string, string | null][] = [
  ['listBusinessScope', 'business-scope', null],
  ['listCapitalFlows', 'capital-flows', 'trade_date'],
  ['listDividends', 'dividends', 'ex_date'],
  ['listEarningsForecasts', 'earnings-forecasts', 'announce_date'],
  ['listFinancialIndicators', 'financial-indicators', 'report_date'],
  ['listBalanceSheets', 'balance-sheets', 'report_date'],
  ['listCashFlowStatements', 'cash-flow-statements', 'report_date'],
  ['listIncomeStatements', 'income-statements', 'report_date'],
  ['listInstitutionalHoldings', 'institutional-holdings', null],
  ['listManagementHistory', 'management-history', null],
  ['listSectorMemberships', 'sector-memberships', null],
];
