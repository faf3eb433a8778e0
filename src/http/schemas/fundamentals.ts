import { Type, type TProperties } from '@sinclair/typebox';
import { Collection, DateString, Decimal, NullableDate, NullableDecimal } from './common.js';
import { COMPANY_SCHEMAS } from './company.js';

/**
 * Financial statements, indicators, dividends and earnings forecasts (docs/fundamentals.md).
 * Money is CNY with 2 decimals; per-share values CNY with 4 decimals (cash dividends 5);
 * percentages 2 decimals in percent; every rounding is half away from zero.
 */
const Money = (d: string) => Decimal(`${d} CNY, 2 decimals.`);
const Ytd = (d: string) => Money(`${d}, cumulative from January 1 to report_date.`);
const Percent = (d: string) => NullableDecimal(`${d} Percent, 2 decimals, rounded half away from zero; null when not computable.`);

const REPORT_TYPE = Type.Unsafe<string>({
  type: 'string',
  enum: ['q1', 'h1', 'q3', 'annual'],
  description:
    'Period covered, cumulative from January 1 (A-share convention): q1 = 3 months to March 31, h1 = 6 months to June 30, q3 = 9 months to September 30, annual = the fiscal (calendar) year.',
});

const period = (): TProperties => ({
  instrument_id: Type.String(),
  report_date: DateString('End of the reporting period.'),
  report_type: REPORT_TYPE,
  announce_date: DateString('Date the report was published.'),
});

const record = (id: string, description: string, fields: TProperties) =>
  Type.Object({ ...period(), ...fields }, { $id: id, description, additionalProperties: false });

export const IncomeStatement = record('IncomeStatement', 'Consolidated income statement, year to date (cumulative).', {
  revenue: Ytd('Operating revenue (营业收入)'),
  operating_cost: Ytd('Operating cost (营业成本)'),
  operating_profit: Ytd('Operating profit (营业利润)'),
  total_profit: Ytd('Total profit before tax (利润总额)'),
  income_tax: Ytd('Income tax expense (所得税费用)'),
  net_profit: Ytd('Net profit (净利润) = total_profit − income_tax'),
  net_profit_attributable: Ytd('Net profit attributable to shareholders of the parent (归属于母公司股东的净利润)'),
  basic_eps: Decimal(
    'Basic earnings per share (CNY, 4 decimals) = net_profit_attributable / total shares at report_date (share_capital / 1 CNY par).',
  ),
});

export const BalanceSheet = record(
  'BalanceSheet',
  'Consolidated balance sheet at report_date. total_assets = total_liabilities + total_equity; total_equity = equity_attributable + minority_interest.',
  {
    total_assets: Money('Total assets (资产总计)'),
    current_assets: Money('Current assets (流动资产合计), at least cash + receivables + inventory'),
    cash: Money('Cash and cash equivalents (货币资金)'),
    receivables: Money('Accounts receivable (应收账款)'),
    inventory: Money('Inventory (存货)'),
    fixed_assets: Money('Fixed assets (固定资产)'),
    total_liabilities: Money('Total liabilities (负债合计)'),
    current_liabilities: Money('Current liabilities (流动负债合计)'),
    equity_attributable: Money('Equity attributable to shareholders of the parent (归属于母公司股东权益)'),
    minority_interest: Money('Minority interest (少数股东权益)'),
    total_equity: Money('Total equity (所有者权益合计)'),
    share_capital: Money('Share capital (股本): total shares at 1 CNY par'),
  },
);

export const CashFlowStatement = record(
  'CashFlowStatement',
  'Consolidated cash-flow statement, year to date. cash_end = cash_begin + operating + investing + financing cash flows.',
  {
    operating_cash_flow: Ytd('Net cash flow from operating activities'),
    investing_cash_flow: Ytd('Net cash flow from investing activities (includes −capex)'),
    financing_cash_flow: Ytd('Net cash flow from financing activities'),
    capex: Ytd('Capital expenditure: cash paid for fixed, intangible and other long-term assets (positive)'),
    free_cash_flow: Ytd('Free cash flow = operating_cash_flow − capex'),
    cash_begin: Money('Cash at January 1 (the previous annual cash_end)'),
    cash_end: Money('Cash at report_date (equals the balance sheet cash)'),
  },
);

export const FinancialIndicator = record(
  'FinancialIndicator',
  'Indicators derived from the statements of the same period only; see docs/fundamentals.md for the formulas.',
  {
    eps: NullableDecimal('Earnings per share (CNY, 4 decimals) = net_profit_attributable / (share_capital / 1 CNY).'),
    bps: NullableDecimal('Book value per share (CNY, 4 decimals) = equity_attributable / (share_capital / 1 CNY).'),
    roe: Percent(
      'Return on equity = net_profit_attributable / equity_attributable × 100, year to date (not annualised); null when equity_attributable ≤ 0.',
    ),
    roa: Percent('Return on assets = net_profit / total_assets × 100, year to date.'),
    gross_margin: Percent('Gross margin = (revenue − operating_cost) / revenue × 100.'),
    net_margin: Percent('Net margin = net_profit / revenue × 100.'),
    debt_to_assets: Percent('Debt to assets = total_liabilities / total_assets × 100.'),
    current_ratio: NullableDecimal('Current ratio = current_assets / current_liabilities (a ratio, 2 decimals).'),
    quick_ratio: NullableDecimal('Quick ratio = (current_assets − inventory) / current_liabilities (a ratio, 2 decimals).'),
    revenue_yoy: Percent(
      'Revenue growth = (revenue − previous) / |previous| × 100, previous = same report_type one year earlier; null without it.',
    ),
    net_profit_yoy: Percent('Growth of net_profit_attributable against the same report_type one year earlier, as revenue_yoy.'),
  },
);

export const Dividend = Type.Object(
  {
    instrument_id: Type.String(),
    report_period: DateString('End of the fiscal period the distribution is for (YYYY-12-31: final dividend of that year).'),
    announce_date: DateString(
      "Latest announcement: the plan (proposed), the shareholders' meeting (approved) or the implementation notice (implemented).",
    ),
    record_date: NullableDate('Record date (股权登记日); null until implemented.'),
    ex_date: NullableDate('Ex-dividend / ex-rights date (除权除息日); null until implemented. from/to filter on it.'),
    pay_date: NullableDate('Cash payment date (派息日); null until known.'),
    cash_per_share: Decimal('Cash dividend per share before tax, CNY, 5 decimals.'),
    bonus_per_share: Decimal('Bonus shares (送股) per share held, 6 decimals.'),
    transfer_per_share: Decimal('Shares transferred from capital reserve (转增) per share held, 6 decimals.'),
    progress: Type.Unsafe<string>({
      type: 'string',
      enum: ['proposed', 'approved', 'implemented'],
      description:
        'proposed by the board, approved by the shareholders, or implemented (then it is a corporate action and adjusts prices).',
    }),
  },
  { $id: 'Dividend', additionalProperties: false },
);

export const FORECAST_TYPES = [
  'increase',
  'decrease',
  'turnaround',
  'loss',
  'continued_loss',
  'slight_increase',
  'slight_decrease',
  'uncertain',
];

export const EarningsForecast = Type.Object(
  {
    instrument_id: Type.String(),
    report_date: DateString('End of the period forecast.'),
    report_type: REPORT_TYPE,
    announce_date: DateString('Date the forecast was published. from/to filter on it.'),
    type: Type.Unsafe<string>({
      type: 'string',
      enum: FORECAST_TYPES,
      description:
        'Forecast category (业绩预告类型): 预增 increase, 预减 decrease, 扭亏 turnaround, 首亏 loss, 续亏 continued_loss, 略增 slight_increase, 略减 slight_decrease, 不确定 uncertain; rule in docs/fundamentals.md.',
    }),
    net_profit_min: Money('Lower bound of net profit attributable to shareholders of the parent for the period,'),
    net_profit_max: Money('Upper bound of net profit attributable to shareholders of the parent for the period,'),
    previous_net_profit: NullableDecimal('Net profit attributable of the same period one year earlier, CNY, 2 decimals.'),
    change_min: Percent('Change of net_profit_min against previous_net_profit: (min − previous) / |previous| × 100.'),
    change_max: Percent('Change of net_profit_max against previous_net_profit.'),
    summary: Type.String({ description: 'The forecast as announced (Chinese).' }),
  },
  { $id: 'EarningsForecast', additionalProperties: false },
);

export const IncomeStatementCollectionResponse = Collection('IncomeStatementCollectionResponse', IncomeStatement);
export const BalanceSheetCollectionResponse = Collection('BalanceSheetCollectionResponse', BalanceSheet);
export const CashFlowStatementCollectionResponse = Collection('CashFlowStatementCollectionResponse', CashFlowStatement);
export const FinancialIndicatorCollectionResponse = Collection('FinancialIndicatorCollectionResponse', FinancialIndicator);
export const DividendCollectionResponse = Collection('DividendCollectionResponse', Dividend);
export const EarningsForecastCollectionResponse = Collection('EarningsForecastCollectionResponse', EarningsForecast);

/** Every named schema of the datasets, for registry.ts. */
export const FUNDAMENTALS_SCHEMAS = [
  IncomeStatement,
  BalanceSheet,
  CashFlowStatement,
  FinancialIndicator,
  Dividend,
  EarningsForecast,
  IncomeStatementCollectionResponse,
  BalanceSheetCollectionResponse,
  CashFlowStatementCollectionResponse,
  FinancialIndicatorCollectionResponse,
  DividendCollectionResponse,
  EarningsForecastCollectionResponse,
  ...COMPANY_SCHEMAS,
];
