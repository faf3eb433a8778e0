/**
 * Table types of the company, fundamentals and flow datasets (migration 0002), as their
 * declarations (datasets/fundamentals.ts) give them: a column's stored type is its column
 * type's, nullable when the column is optional. Conventions as in schema.ts: dates YYYYMMDD
 * integers, money in fen (MONEY_SCALE), shares as integers; per-share values in 1/10000 CNY,
 * cash dividends in 1/100000 CNY, share ratios in millionths, percentages and ratios in
 * hundredths (1234 = "12.34"). test/declarations.test.ts holds each to the migrated table.
 */
import type { TableOf } from '../datasets/dataset.js';
import type { DECLARED } from '../datasets/registry.js';
import type { REPORT_TYPES } from '../datasets/fundamentals.js';

/** q1, h1, q3, annual: A-share statements are cumulative from January 1 (3, 6, 9, 12 months). */
export type ReportType = (typeof REPORT_TYPES)[number];

/** The tables of the datasets stored as declared (datasets/registry.ts DECLARED), each its declaration's TableOf. */
export type FundamentalsDatabase = { [D in (typeof DECLARED)[number] as D['table']]: TableOf<D> };

/** Shorthands of some of them. */
export type IncomeStatementTable = FundamentalsDatabase['income_statements'];
export type BalanceSheetTable = FundamentalsDatabase['balance_sheets'];
export type CashFlowStatementTable = FundamentalsDatabase['cash_flow_statements'];
export type FinancialIndicatorTable = FundamentalsDatabase['financial_indicators'];
export type DividendTable = FundamentalsDatabase['dividends'];
export type EarningsForecastTable = FundamentalsDatabase['earnings_forecasts'];
export type InstitutionalHoldingTable = FundamentalsDatabase['institutional_holdings'];
export type ManagementTable = FundamentalsDatabase['management'];
export type CompanyProfileTable = FundamentalsDatabase['company_profiles'];
export type BusinessScopeTable = FundamentalsDatabase['business_scope'];
export type CapitalFlowTable = FundamentalsDatabase['capital_flows'];
export type MarginTradingTable = FundamentalsDatabase['margin_trading'];
export type SuspensionTable = FundamentalsDatabase['suspensions'];
export type ShareCapitalTable = FundamentalsDatabase['share_capital'];
export type IndexWeightTable = FundamentalsDatabase['index_weights'];
