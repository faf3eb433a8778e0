/**
 * Table types of the company, fundamentals and flow datasets (migration 0002), as their
 * declarations (datasets/fundamentals.ts) give them: a column's stored type is its column
 * type's, nullable when the column is optional. Conventions as in schema.ts: dates YYYYMMDD
 * integers, money in fen (MONEY_SCALE), shares as integers; per-share values in 1/10000 CNY,
 * cash dividends in 1/100000 CNY, share ratios in millionths, percentages and ratios in
 * hundredths (1234 = "12.34"). test/declarations.test.ts holds each to the migrated table.
 */
import type { TableOf } from '../datasets/dataset.js';
import type { marginTrading } from '../datasets/margin-trading.js';
import type { suspensions } from '../datasets/suspensions.js';
import type { shareCapital } from '../datasets/share-capital.js';
import type { indexWeights } from '../datasets/index-weights.js';
import type {
  balanceSheets,
  businessScope,
  capitalFlows,
  cashFlowStatements,
  companyProfiles,
  dividends,
  earningsForecasts,
  financialIndicators,
  incomeStatements,
  institutionalHoldings,
  management,
  REPORT_TYPES,
} from '../datasets/fundamentals.js';

/** q1, h1, q3, annual: A-share statements are cumulative from January 1 (3, 6, 9, 12 months). */
export type ReportType = (typeof REPORT_TYPES)[number];

export type IncomeStatementTable = TableOf<typeof incomeStatements>;
export type BalanceSheetTable = TableOf<typeof balanceSheets>;
export type CashFlowStatementTable = TableOf<typeof cashFlowStatements>;
export type FinancialIndicatorTable = TableOf<typeof financialIndicators>;
export type DividendTable = TableOf<typeof dividends>;
export type EarningsForecastTable = TableOf<typeof earningsForecasts>;
export type InstitutionalHoldingTable = TableOf<typeof institutionalHoldings>;
export type ManagementTable = TableOf<typeof management>;
export type CompanyProfileTable = TableOf<typeof companyProfiles>;
export type BusinessScopeTable = TableOf<typeof businessScope>;
export type CapitalFlowTable = TableOf<typeof capitalFlows>;
export type MarginTradingTable = TableOf<typeof marginTrading>;
export type SuspensionTable = TableOf<typeof suspensions>;
export type ShareCapitalTable = TableOf<typeof shareCapital>;
export type IndexWeightTable = TableOf<typeof indexWeights>;

export interface FundamentalsDatabase {
  income_statements: IncomeStatementTable;
  balance_sheets: BalanceSheetTable;
  cash_flow_statements: CashFlowStatementTable;
  financial_indicators: FinancialIndicatorTable;
  dividends: DividendTable;
  earnings_forecasts: EarningsForecastTable;
  institutional_holdings: InstitutionalHoldingTable;
  management: ManagementTable;
  company_profiles: CompanyProfileTable;
  business_scope: BusinessScopeTable;
  capital_flows: CapitalFlowTable;
  margin_trading: MarginTradingTable;
  suspensions: SuspensionTable;
  share_capital: ShareCapitalTable;
  index_weights: IndexWeightTable;
}
