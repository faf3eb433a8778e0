/** Company, fundamentals and flow datasets (docs/fundamentals.md), all of equities. */
import { date, instrument, int, oneOf, text } from './columns.js';
import { all, col, orderCheck, type ColumnSpec, type DatasetDef, type Ix, type Problem, type Row } from './dataset.js';
import type { RowContext } from './context.js';
import { AMOUNT, CASH_PER_SHARE, COUNT, MONEY, PERCENT, PERCENT0, PER_SHARE, RATIO, SHARE_RATIO, SHARES, SIGNED } from './units.js';

const EQUITY = col('instrument_id', instrument(['equity']), 'a known equity', { column: 'inst' });
const REPORT_TYPES = ['q1', 'h1', 'q3', 'annual'];
const PERIOD_END: Record<string, number> = { q1: 331, h1: 630, q3: 930, annual: 1231 };
const PERIOD = [
  EQUITY,
  col('report_date', date, 'end of the reporting period (03-31, 06-30, 09-30 or 12-31)'),
  col('report_type', oneOf(REPORT_TYPES), 'q1, h1, q3 or annual (cumulative from January 1)'),
  col('announce_date', date, 'publication date'),
];

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

const money = (names: string[]) => names.map((n) => col(n, MONEY, 'CNY'));
const statement = (
  name: string,
  table: 'income_statements' | 'balance_sheets' | 'cash_flow_statements',
  doc: string,
  cols: ColumnSpec[],
): DatasetDef => ({
  name,
  table,
  doc,
  columns: [...PERIOD, ...cols],
  key: ['instrument_id', 'report_date', 'report_type'],
  check: periodChecks,
});

export const incomeStatements = statement('income_statements', 'income_statements', 'Income statements, year to date.', [
  ...money(['revenue', 'operating_cost', 'operating_profit', 'total_profit', 'income_tax', 'net_profit', 'net_profit_attributable']),
  col('basic_eps', PER_SHARE, 'CNY per share, 4 decimals'),
]);
export const balanceSheets = statement(
  'balance_sheets',
  'balance_sheets',
  'Balance sheets at report_date.',
  money([
    'total_assets',
    'current_assets',
    'cash',
    'receivables',
    'inventory',
    'fixed_assets',
    'total_liabilities',
    'current_liabilities',
    'equity_attributable',
    'minority_interest',
    'total_equity',
    'share_capital',
  ]),
);
export const cashFlowStatements = statement(
  'cash_flow_statements',
  'cash_flow_statements',
  'Cash-flow statements, year to date.',
  money(['operating_cash_flow', 'investing_cash_flow', 'financing_cash_flow', 'capex', 'free_cash_flow', 'cash_begin', 'cash_end']),
);

export const financialIndicators: DatasetDef = {
  name: 'financial_indicators',
  table: 'financial_indicators',
  doc: 'Financial indicators of a period (empty: not computable).',
  columns: [
    ...PERIOD,
    ...['eps', 'bps'].map((n) => col(n, PER_SHARE, 'CNY per share, 4 decimals', { optional: true })),
    ...['roe', 'roa', 'gross_margin', 'net_margin', 'debt_to_assets', 'revenue_yoy', 'net_profit_yoy'].map((n) =>
      col(n, PERCENT, 'percent, 2 decimals', { optional: true }),
    ),
    ...['current_ratio', 'quick_ratio'].map((n) => col(n, RATIO, 'ratio, 2 decimals', { optional: true })),
  ],
  key: ['instrument_id', 'report_date', 'report_type'],
  check: periodChecks,
};

export const dividends: DatasetDef = {
  name: 'dividends',
  table: 'dividends',
  doc: 'Dividend plans and implementations; implemented ones should match corporate_actions.',
  columns: [
    EQUITY,
    col('report_period', date, 'end of the fiscal period paid for'),
    col('announce_date', date, 'announcement date'),
    col('record_date', date, 'record date', { optional: true }),
    col('ex_date', date, 'ex-dividend date', { optional: true }),
    col('pay_date', date, 'payment date', { optional: true }),
    col('cash_per_share', CASH_PER_SHARE, 'CNY per share, pre-tax, 5 decimals'),
    col('bonus_per_share', SHARE_RATIO, 'bonus shares per share held', { column: 'bonus_ratio' }),
    col('transfer_per_share', SHARE_RATIO, 'transfer shares per share held', { column: 'transfer_ratio' }),
    col('progress', oneOf(['proposed', 'approved', 'implemented']), 'proposed, approved or implemented'),
  ],
  key: ['instrument_id', 'report_period', 'announce_date'],
  check: (ix) =>
    all(orderCheck(ix, 'record_date', 'ex_date'), (r) =>
      r[ix.progress] === 'implemented' && r[ix.ex_date] === null ? ['ex_date', 'expected an ex_date for an implemented dividend'] : null,
    ),
};

export const earningsForecasts: DatasetDef = {
  name: 'earnings_forecasts',
  table: 'earnings_forecasts',
  doc: 'Earnings forecasts (业绩预告): a range for the net profit attributable.',
  columns: [
    ...PERIOD,
    col(
      'type',
      oneOf(['increase', 'decrease', 'turnaround', 'loss', 'continued_loss', 'slight_increase', 'slight_decrease', 'uncertain']),
      'forecast category',
    ),
    ...money(['net_profit_min', 'net_profit_max']),
    col('previous_net_profit', MONEY, 'CNY, same period a year earlier', { optional: true }),
    col('change_min', PERCENT, 'percent', { optional: true }),
    col('change_max', PERCENT, 'percent', { optional: true }),
    col('summary', text(), 'the forecast as announced (Chinese)'),
  ],
  key: ['instrument_id', 'announce_date', 'report_date'],
  check: (ix) =>
    all(periodCheck(ix), (r) =>
      (r[ix.net_profit_min] as number) > (r[ix.net_profit_max] as number)
        ? ['net_profit_max', 'expected net_profit_max >= net_profit_min']
        : null,
    ),
};

export const institutionalHoldings: DatasetDef = {
  name: 'institutional_holdings',
  table: 'institutional_holdings',
  doc: 'Institutional holders disclosed with each periodic report.',
  columns: [
    EQUITY,
    col('report_date', date, 'end of the reporting period'),
    col('rank', int(1), 'rank by shares, 1 = largest'),
    col('announce_date', date, 'publication date'),
    col('holder_name', text(), 'holder as disclosed'),
    col('holder_type', oneOf(['fund', 'qfii', 'social_security', 'insurance', 'broker', 'trust', 'other']), 'holder type'),
    col('shares', SHARES, 'shares held'),
    col('percent_of_float', PERCENT0, 'percent of float shares, 2 decimals'),
    col('change', SIGNED, 'change since the previous report, shares; empty when not listed then', { optional: true }),
  ],
  key: ['instrument_id', 'report_date', 'rank'],
  check: (ix) => orderCheck(ix, 'report_date', 'announce_date'),
};

export const management: DatasetDef = {
  name: 'management',
  table: 'management',
  doc: 'Directors, supervisors and senior managers, one row per person and position.',
  columns: [
    EQUITY,
    col('seq', int(1), 'record number within the company, from 1'),
    col('name', text(), 'person name'),
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
      'position',
    ),
    col('gender', oneOf(['male', 'female']), 'male or female'),
    col('birth_year', int(1900), 'year of birth'),
    col('education', oneOf(['doctorate', 'master', 'bachelor', 'associate', 'secondary']), 'highest education'),
    col('start_date', date, 'first day in the position'),
    col('end_date', date, 'last day; empty while in office', { optional: true }),
  ],
  key: ['instrument_id', 'seq'],
  check: (ix) => orderCheck(ix, 'start_date', 'end_date'),
};

export const companyProfiles: DatasetDef = {
  name: 'company_profiles',
  table: 'company_profiles',
  doc: 'One profile per company.',
  columns: [
    EQUITY,
    col('full_name', text(), 'registered name'),
    col('english_name', text(), 'English name'),
    col('established_date', date, 'date of incorporation'),
    col('legal_representative', text(), 'legal representative'),
    col('registered_capital', AMOUNT, 'CNY'),
    col('address', text(), 'registered address'),
    col('province', text(), 'province'),
    col('website', text(), 'website'),
    col('employees', COUNT, 'number of employees'),
    col('main_business', text(), 'main business'),
    col('introduction', text(), 'introduction'),
  ],
  key: ['instrument_id'],
};

export const businessScope: DatasetDef = {
  name: 'business_scope',
  table: 'business_scope',
  doc: 'Business scope entries: main business, products and the licensed scope.',
  columns: [
    EQUITY,
    col('seq', int(1), 'position in the list, from 1'),
    col('type', oneOf(['main_business', 'product', 'scope']), 'entry type'),
    col('text', text(), 'entry text'),
  ],
  key: ['instrument_id', 'seq'],
};

const FLOW = [
  ['extra_large', 'xl'],
  ['large', 'l'],
  ['medium', 'm'],
  ['small', 's'],
].flatMap(([n, c]) =>
  ['buy', 'sell'].map((s) => col(`${n}_${s}`, AMOUNT, `${s} turnover of ${n.replace('_', ' ')} orders, CNY`, { column: `${c}_${s}` })),
);

export const capitalFlows: DatasetDef = {
  name: 'capital_flows',
  table: 'capital_flows',
  doc: 'Buy and sell turnover of a trading day by order-size class.',
  columns: [EQUITY, col('trade_date', date, 'trading day', { column: 'date' }), col('amount', AMOUNT, "the day's turnover, CNY"), ...FLOW],
  key: ['instrument_id', 'trade_date'],
  check:
    (ix) =>
    (r: Row, ctx: RowContext): Problem | null =>
      ctx.isTradingDay(ctx.marketOf(r[ix.instrument_id] as number), r[ix.trade_date] as number)
        ? null
        : ['trade_date', "expected a trading day (in the store or in this command's trading_days)"],
};
