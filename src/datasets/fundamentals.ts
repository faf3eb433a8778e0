/**
 * Company, fundamentals and flow datasets (docs/fundamentals.md), all of equities. Each is
 * declared once here: the table, ingest and export, the docs, and (with `record`) the API
 * record and its keyset reads come from it. Column docs are the API record's descriptions.
 */
import { date, instrument, int, oneOf, text } from './columns.js';
import { all, col, declare, orderCheck, type Ix, type Problem, type Row } from './dataset.js';
import type { RowContext } from './context.js';
import { AMOUNT, CASH_PER_SHARE, COUNT, MONEY, PERCENT, PERCENT0, PER_SHARE, RATIO, SHARE_RATIO, SHARES, SIGNED } from './units.js';

const EQUITY = col('instrument_id', instrument(['equity']), 'The equity (CODE.MARKET).', { column: 'inst' });
export const REPORT_TYPES = ['q1', 'h1', 'q3', 'annual'] as const;
const PERIOD_END: Record<string, number> = { q1: 331, h1: 630, q3: 930, annual: 1231 };
const REPORT_TYPE = col(
  'report_type',
  oneOf(REPORT_TYPES),
  'Period covered, cumulative from January 1 (A-share convention): q1 = 3 months to March 31, h1 = 6 months to June 30, q3 = 9 months to September 30, annual = the fiscal (calendar) year.',
);
const PERIOD = [
  EQUITY,
  col('report_date', date, 'End of the reporting period.'),
  REPORT_TYPE,
  col('announce_date', date, 'Date the report was published.'),
] as const;
/**
 * A statement's key: its period, then its announcement. Each announcement of a period is a
 * version of it (a restatement, 更正, is announced later and kept beside the original), so what
 * was known on any day stays known (docs/fundamentals.md, "Restatements").
 */
const PERIOD_KEY = ['instrument_id', 'report_date', 'report_type', 'announce_date'];
const VERSIONS = 'announce_date';

/** report_date is the period end of report_type. */
const periodCheck =
  (ix: Ix) =>
  (r: Row): Problem | null =>
    (r[ix.report_date] as number) % 10000 === PERIOD_END[r[ix.report_type] as string]
      ? null
      : [
          'report_date',
          `expected the end of the ${r[ix.report_type]} period (${REPORT_TYPES.map(
            (t) =>
              `${t} ${String(PERIOD_END[t])
                .padStart(4, '0')
                .replace(/(\d\d)(\d\d)/, '$1-$2')}`,
          ).join(', ')})`,
        ];
const periodChecks = (ix: Ix) => all(periodCheck(ix), orderCheck(ix, 'report_date', 'announce_date'));

/** Money in CNY with 2 decimals; `ytd`: a flow cumulative from January 1. */
const money = <const N extends string>(name: N, what: string) => col(name, MONEY, `${what} CNY, 2 decimals.`);
const ytd = <const N extends string>(name: N, what: string) => money(name, `${what}, cumulative from January 1 to report_date.`);
const percent = <const N extends string>(name: N, what: string) =>
  col(name, PERCENT, `${what} Percent, 2 decimals, rounded half away from zero; null when not computable.`, { optional: true });

export const incomeStatements = declare({
  name: 'income_statements',
  table: 'income_statements',
  doc: 'Income statements, year to date.',
  record: { id: 'IncomeStatement', description: 'Consolidated income statement, year to date (cumulative).' },
  columns: [
    ...PERIOD,
    ytd('revenue', 'Operating revenue (营业收入)'),
    ytd('operating_cost', 'Operating cost (营业成本)'),
    ytd('operating_profit', 'Operating profit (营业利润)'),
    ytd('total_profit', 'Total profit before tax (利润总额)'),
    ytd('income_tax', 'Income tax expense (所得税费用)'),
    ytd('net_profit', 'Net profit (净利润) = total_profit − income_tax'),
    ytd('net_profit_attributable', 'Net profit attributable to shareholders of the parent (归属于母公司股东的净利润)'),
    col(
      'basic_eps',
      PER_SHARE,
      'Basic earnings per share (CNY, 4 decimals) = net_profit_attributable / total shares at report_date (share_capital / 1 CNY par).',
    ),
  ],
  key: PERIOD_KEY,
  versions: VERSIONS,
  check: periodChecks,
});

export const balanceSheets = declare({
  name: 'balance_sheets',
  table: 'balance_sheets',
  doc: 'Balance sheets at report_date.',
  record: {
    id: 'BalanceSheet',
    description:
      'Consolidated balance sheet at report_date. total_assets = total_liabilities + total_equity; total_equity = equity_attributable + minority_interest.',
  },
  columns: [
    ...PERIOD,
    money('total_assets', 'Total assets (资产总计)'),
    money('current_assets', 'Current assets (流动资产合计), at least cash + receivables + inventory'),
    money('cash', 'Cash and cash equivalents (货币资金)'),
    money('receivables', 'Accounts receivable (应收账款)'),
    money('inventory', 'Inventory (存货)'),
    money('fixed_assets', 'Fixed assets (固定资产)'),
    money('total_liabilities', 'Total liabilities (负债合计)'),
    money('current_liabilities', 'Current liabilities (流动负债合计)'),
    money('equity_attributable', 'Equity attributable to shareholders of the parent (归属于母公司股东权益)'),
    money('minority_interest', 'Minority interest (少数股东权益)'),
    money('total_equity', 'Total equity (所有者权益合计)'),
    money('share_capital', 'Share capital (股本): total shares at 1 CNY par'),
  ],
  key: PERIOD_KEY,
  versions: VERSIONS,
  check: periodChecks,
});

export const cashFlowStatements = declare({
  name: 'cash_flow_statements',
  table: 'cash_flow_statements',
  doc: 'Cash-flow statements, year to date.',
  record: {
    id: 'CashFlowStatement',
    description: 'Consolidated cash-flow statement, year to date. cash_end = cash_begin + operating + investing + financing cash flows.',
  },
  columns: [
    ...PERIOD,
    ytd('operating_cash_flow', 'Net cash flow from operating activities'),
    ytd('investing_cash_flow', 'Net cash flow from investing activities (includes −capex)'),
    ytd('financing_cash_flow', 'Net cash flow from financing activities'),
    ytd('capex', 'Capital expenditure: cash paid for fixed, intangible and other long-term assets (positive)'),
    ytd('free_cash_flow', 'Free cash flow = operating_cash_flow − capex'),
    money('cash_begin', 'Cash at January 1 (the previous annual cash_end)'),
    money('cash_end', 'Cash at report_date (equals the balance sheet cash)'),
  ],
  key: PERIOD_KEY,
  versions: VERSIONS,
  check: periodChecks,
});

export const financialIndicators = declare({
  name: 'financial_indicators',
  table: 'financial_indicators',
  doc: 'Financial indicators of a period (empty: not computable).',
  record: {
    id: 'FinancialIndicator',
    description: 'Indicators derived from the statements of the same period only; see docs/fundamentals.md for the formulas.',
  },
  columns: [
    ...PERIOD,
    col('eps', PER_SHARE, 'Earnings per share (CNY, 4 decimals) = net_profit_attributable / (share_capital / 1 CNY).', {
      optional: true,
    }),
    col('bps', PER_SHARE, 'Book value per share (CNY, 4 decimals) = equity_attributable / (share_capital / 1 CNY).', {
      optional: true,
    }),
    percent(
      'roe',
      'Return on equity = net_profit_attributable / equity_attributable × 100, year to date (not annualised); null when equity_attributable ≤ 0.',
    ),
    percent('roa', 'Return on assets = net_profit / total_assets × 100, year to date.'),
    percent('gross_margin', 'Gross margin = (revenue − operating_cost) / revenue × 100.'),
    percent('net_margin', 'Net margin = net_profit / revenue × 100.'),
    percent('debt_to_assets', 'Debt to assets = total_liabilities / total_assets × 100.'),
    col('current_ratio', RATIO, 'Current ratio = current_assets / current_liabilities (a ratio, 2 decimals).', { optional: true }),
    col('quick_ratio', RATIO, 'Quick ratio = (current_assets − inventory) / current_liabilities (a ratio, 2 decimals).', {
      optional: true,
    }),
    percent(
      'revenue_yoy',
      'Revenue growth = (revenue − previous) / |previous| × 100, previous = same report_type one year earlier; null without it.',
    ),
    percent('net_profit_yoy', 'Growth of net_profit_attributable against the same report_type one year earlier, as revenue_yoy.'),
  ],
  key: PERIOD_KEY,
  versions: VERSIONS,
  check: periodChecks,
});

export const dividends = declare({
  name: 'dividends',
  table: 'dividends',
  doc: 'Dividend plans and implementations; implemented ones should match corporate_actions.',
  record: { id: 'Dividend' },
  columns: [
    EQUITY,
    col('report_period', date, 'End of the fiscal period the distribution is for (YYYY-12-31: final dividend of that year).'),
    col(
      'announce_date',
      date,
      "Latest announcement: the plan (proposed), the shareholders' meeting (approved) or the implementation notice (implemented).",
    ),
    col('record_date', date, 'Record date (股权登记日); null until implemented.', { optional: true }),
    col('ex_date', date, 'Ex-dividend / ex-rights date (除权除息日); null until implemented. from/to filter on it.', { optional: true }),
    col('pay_date', date, 'Cash payment date (派息日); null until known.', { optional: true }),
    col('cash_per_share', CASH_PER_SHARE, 'Cash dividend per share before tax, CNY, 5 decimals.'),
    col('bonus_per_share', SHARE_RATIO, 'Bonus shares (送股) per share held, 6 decimals.', { column: 'bonus_ratio' }),
    col('transfer_per_share', SHARE_RATIO, 'Shares transferred from capital reserve (转增) per share held, 6 decimals.', {
      column: 'transfer_ratio',
    }),
    col(
      'progress',
      oneOf(['proposed', 'approved', 'implemented']),
      'proposed by the board, approved by the shareholders, or implemented (then it is a corporate action and adjusts prices).',
    ),
  ],
  key: ['instrument_id', 'report_period', 'announce_date'],
  check: (ix) =>
    all(orderCheck(ix, 'record_date', 'ex_date'), (r) =>
      r[ix.progress] === 'implemented' && r[ix.ex_date] === null ? ['ex_date', 'expected an ex_date for an implemented dividend'] : null,
    ),
});

export const FORECAST_TYPES = [
  'increase',
  'decrease',
  'turnaround',
  'loss',
  'continued_loss',
  'slight_increase',
  'slight_decrease',
  'uncertain',
] as const;

export const earningsForecasts = declare({
  name: 'earnings_forecasts',
  table: 'earnings_forecasts',
  doc: 'Earnings forecasts (业绩预告): a range for the net profit attributable.',
  record: { id: 'EarningsForecast' },
  columns: [
    EQUITY,
    col('report_date', date, 'End of the period forecast.'),
    REPORT_TYPE,
    col('announce_date', date, 'Date the forecast was published. from/to filter on it.'),
    col(
      'type',
      oneOf(FORECAST_TYPES),
      'Forecast category (业绩预告类型): 预增 increase, 预减 decrease, 扭亏 turnaround, 首亏 loss, 续亏 continued_loss, 略增 slight_increase, 略减 slight_decrease, 不确定 uncertain; rule in docs/fundamentals.md.',
    ),
    money('net_profit_min', 'Lower bound of net profit attributable to shareholders of the parent for the period,'),
    money('net_profit_max', 'Upper bound of net profit attributable to shareholders of the parent for the period,'),
    col('previous_net_profit', MONEY, 'Net profit attributable of the same period one year earlier, CNY, 2 decimals.', { optional: true }),
    percent('change_min', 'Change of net_profit_min against previous_net_profit: (min − previous) / |previous| × 100.'),
    percent('change_max', 'Change of net_profit_max against previous_net_profit.'),
    col('summary', text(), 'The forecast as announced (Chinese).'),
  ],
  key: ['instrument_id', 'announce_date', 'report_date'],
  check: (ix) =>
    all(periodCheck(ix), (r) =>
      (r[ix.net_profit_min] as number) > (r[ix.net_profit_max] as number)
        ? ['net_profit_max', 'expected net_profit_max >= net_profit_min']
        : null,
    ),
});

export const institutionalHoldings = declare({
  name: 'institutional_holdings',
  table: 'institutional_holdings',
  doc: 'Institutional holders disclosed with each periodic report.',
  record: { id: 'InstitutionalHolding' },
  columns: [
    EQUITY,
    col('report_date', date, 'End of the reporting period the holding was disclosed for.'),
    col('announce_date', date, 'Date the periodic report was published.'),
    col('rank', int(1), 'Rank among the institutional holders of the period by shares (1 = largest).'),
    col('holder_name', text(), 'Holder (fund, account or institution) as disclosed.'),
    col(
      'holder_type',
      oneOf(['fund', 'qfii', 'social_security', 'insurance', 'broker', 'trust', 'other']),
      'fund (public securities investment fund), qfii (qualified foreign investor), social_security (national social security and pension funds), insurance, broker (securities company), trust, other (e.g. Stock Connect nominee, private funds).',
    ),
    col('shares', SHARES, 'Shares held at report_date.'),
    col('percent_of_float', PERCENT0, 'shares / float shares at report_date × 100; percent, 2 decimals.'),
    col(
      'change',
      SIGNED,
      'Shares held minus shares held at the previous report_date (bonus and transfer shares included); null when the holder was not listed then.',
      { optional: true },
    ),
  ],
  key: ['instrument_id', 'report_date', 'rank'],
  check: (ix) => orderCheck(ix, 'report_date', 'announce_date'),
});

export const management = declare({
  name: 'management',
  table: 'management',
  doc: 'Directors, supervisors and senior managers, one row per person and position.',
  // The record number orders the collection (its cursor) but is not a field of the API's record.
  record: { id: 'ManagementRecord', omit: ['seq'] },
  columns: [
    EQUITY,
    col('seq', int(1), 'Record number within the company, from 1 (start date, then title order).'),
    col('name', text(), 'Person name.'),
    col(
      'title',
      oneOf([
        'chairman',
        'vice_chairman',
        'general_manager',
        'deputy_general_manager',
        'chief_financial_officer',
        'board_secretary',
        'director',
        'independent_director',
        'supervisor_chairman',
        'supervisor',
      ]),
      'Position: 董事长 chairman, 副董事长 vice_chairman, 总经理 general_manager, 副总经理 deputy_general_manager, 财务总监 chief_financial_officer, 董事会秘书 board_secretary, 董事 director, 独立董事 independent_director, 监事会主席 supervisor_chairman, 监事 supervisor.',
    ),
    col('gender', oneOf(['male', 'female']), 'male or female.'),
    col('birth_year', int(1900), 'Year of birth.'),
    col('education', oneOf(['doctorate', 'master', 'bachelor', 'associate', 'secondary']), 'Highest education.'),
    col('start_date', date, 'First day in the position.'),
    col('end_date', date, 'Last day in the position; null while in office.', { optional: true }),
  ],
  key: ['instrument_id', 'seq'],
  check: (ix) => orderCheck(ix, 'start_date', 'end_date'),
});

export const companyProfiles = declare({
  name: 'company_profiles',
  table: 'company_profiles',
  doc: 'One profile per company.',
  columns: [
    EQUITY,
    col('full_name', text(), 'Registered company name (公司全称).'),
    col('english_name', text(), 'English company name.'),
    col('established_date', date, 'Date of incorporation (成立日期).'),
    col('legal_representative', text(), 'Legal representative (法定代表人): the chairman in office.'),
    col('registered_capital', AMOUNT, 'Registered capital (注册资本) = total shares × 1 CNY par, CNY, 2 decimals.'),
    col('address', text(), 'Registered address.'),
    col('province', text(), 'Province, autonomous region or municipality of the head office (the region classification).'),
    col('website', text(), 'Company website.'),
    col('employees', COUNT, 'Number of employees.'),
    col('main_business', text(), 'Main business (主营业务).'),
    col('introduction', text(), 'Company introduction (公司简介).'),
  ],
  key: ['instrument_id'],
});

export const businessScope = declare({
  name: 'business_scope',
  table: 'business_scope',
  doc: 'Business scope entries: main business, products and the licensed scope.',
  columns: [
    EQUITY,
    col('seq', int(1), 'Position of the entry in the list, from 1.'),
    col('type', oneOf(['main_business', 'product', 'scope']), 'main_business, product or scope (the licensed business scope).'),
    col('text', text(), 'The entry text (Chinese).'),
  ],
  key: ['instrument_id', 'seq'],
});

/** Buy and sell turnover of an order-size class: `extra_large_buy` in files, `xl_buy` in the table. */
const flow = <const N extends string, const C extends string>(name: N, column: C, label: string) =>
  [
    col(`${name}_buy` as `${N}_buy`, AMOUNT, `Buy turnover of ${label} orders, CNY, 2 decimals.`, {
      column: `${column}_buy` as `${C}_buy`,
    }),
    col(`${name}_sell` as `${N}_sell`, AMOUNT, `Sell turnover of ${label} orders, CNY, 2 decimals.`, {
      column: `${column}_sell` as `${C}_sell`,
    }),
  ] as const;

export const capitalFlows = declare({
  name: 'capital_flows',
  table: 'capital_flows',
  doc: 'Buy and sell turnover of a trading day by order-size class.',
  columns: [
    EQUITY,
    col('trade_date', date, 'Trading day.', { column: 'date' }),
    col(
      'amount',
      AMOUNT,
      "The day's traded amount (the daily bar's amount); buy and sell turnover each sum to it over the four classes, CNY.",
    ),
    ...flow('extra_large', 'xl', 'extra-large (≥ 500,000 shares or ≥ 1,000,000 CNY)'),
    ...flow('large', 'l', 'large (200,000–500,000 shares or 300,000–1,000,000 CNY)'),
    ...flow('medium', 'm', 'medium (40,000–200,000 shares or 50,000–300,000 CNY)'),
    ...flow('small', 's', 'small (below 40,000 shares and 50,000 CNY)'),
  ],
  key: ['instrument_id', 'trade_date'],
  check:
    (ix) =>
    (r: Row, ctx: RowContext): Problem | null =>
      ctx.isTradingDay(ctx.marketOf(r[ix.instrument_id] as number), r[ix.trade_date] as number)
        ? null
        : ['trade_date', "expected a trading day (in the store or in this command's trading_days)"],
});

/** The datasets of this file, in load order. */
export const FUNDAMENTALS = [
  incomeStatements,
  balanceSheets,
  cashFlowStatements,
  financialIndicators,
  dividends,
  earningsForecasts,
  institutionalHoldings,
  management,
  companyProfiles,
  businessScope,
  capitalFlows,
] as const;
