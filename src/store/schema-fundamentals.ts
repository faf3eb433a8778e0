/**
 * Kysely table types of the company, fundamentals and flow datasets (migration 0002).
 * Conventions as in schema.ts: dates YYYYMMDD integers, money in fen (MONEY_SCALE), shares
 * as integers. Further scales are named per column: per-share values in 1/10000 CNY
 * (`EPS_SCALE`), cash dividends in 1/100000 CNY, share ratios in millionths, percentages and
 * ratios in hundredths (basis points of a percent: 1234 = "12.34").
 */

/** q1, h1, q3, annual: A-share statements are cumulative from January 1 (3, 6, 9, 12 months). */
export type ReportType = 'q1' | 'h1' | 'q3' | 'annual';

interface Period {
  inst: number;
  report_date: number;
  report_type: string;
  announce_date: number;
}

export interface IncomeStatementTable extends Period {
  revenue: number;
  operating_cost: number;
  operating_profit: number;
  total_profit: number;
  income_tax: number;
  net_profit: number;
  net_profit_attributable: number;
  /** 1/10000 CNY. */
  basic_eps: number;
}

export interface BalanceSheetTable extends Period {
  total_assets: number;
  current_assets: number;
  cash: number;
  receivables: number;
  inventory: number;
  fixed_assets: number;
  total_liabilities: number;
  current_liabilities: number;
  equity_attributable: number;
  minority_interest: number;
  total_equity: number;
  share_capital: number;
}

export interface CashFlowStatementTable extends Period {
  operating_cash_flow: number;
  investing_cash_flow: number;
  financing_cash_flow: number;
  capex: number;
  free_cash_flow: number;
  cash_begin: number;
  cash_end: number;
}

/** Derived from the statements of the same period; null where not computable. */
export interface FinancialIndicatorTable extends Period {
  /** 1/10000 CNY. */
  eps: number | null;
  bps: number | null;
  /** Hundredths of a percent. */
  roe: number | null;
  roa: number | null;
  gross_margin: number | null;
  net_margin: number | null;
  debt_to_assets: number | null;
  revenue_yoy: number | null;
  net_profit_yoy: number | null;
  /** Hundredths (a plain ratio, not a percent). */
  current_ratio: number | null;
  quick_ratio: number | null;
}

export interface DividendTable {
  inst: number;
  report_period: number;
  announce_date: number;
  record_date: number | null;
  ex_date: number | null;
  pay_date: number | null;
  /** Pre-tax cash per share in 1/100000 CNY (the unit of corporate_actions). */
  cash_per_share: number;
  /** Shares per share held, in millionths. */
  bonus_ratio: number;
  transfer_ratio: number;
  progress: 'proposed' | 'approved' | 'implemented';
}

export interface EarningsForecastTable {
  inst: number;
  report_date: number;
  report_type: string;
  announce_date: number;
  type: string;
  net_profit_min: number;
  net_profit_max: number;
  previous_net_profit: number | null;
  /** Hundredths of a percent. */
  change_min: number | null;
  change_max: number | null;
  summary: string;
}

export interface InstitutionalHoldingTable {
  inst: number;
  report_date: number;
  rank: number;
  announce_date: number;
  holder_name: string;
  holder_type: string;
  shares: number;
  /** Hundredths of a percent of the float shares at report_date. */
  percent_of_float: number;
  change: number | null;
}

export interface ManagementTable {
  inst: number;
  seq: number;
  name: string;
  title: string;
  gender: string;
  birth_year: number;
  education: string;
  start_date: number;
  end_date: number | null;
}

export interface CompanyProfileTable {
  inst: number;
  full_name: string;
  english_name: string;
  established_date: number;
  legal_representative: string;
  registered_capital: number;
  address: string;
  province: string;
  website: string;
  employees: number;
  main_business: string;
  introduction: string;
}

export interface BusinessScopeTable {
  inst: number;
  seq: number;
  type: string;
  text: string;
}

/** Buy and sell turnover (fen) of one trading day by order-size class; buys and sells each sum to amount. */
export interface CapitalFlowTable {
  inst: number;
  date: number;
  amount: number;
  xl_buy: number;
  xl_sell: number;
  l_buy: number;
  l_sell: number;
  m_buy: number;
  m_sell: number;
  s_buy: number;
  s_sell: number;
}

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
}
