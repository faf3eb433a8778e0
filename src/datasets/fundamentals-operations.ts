/**
 * The collections that serve the fundamentals datasets (datasets/fundamentals.ts) as their
 * records, by dataset name: the rest of each dataset's declaration (datasets/registry.ts joins
 * them). An equity's rows in natural-key order; the statements in their latest version.
 */
import type { ServeDecl } from './dataset.js';

const YTD = 'A-share statements are cumulative from January 1: q1 covers 3 months, h1 6, q3 9, annual 12.';
const ONE = `${YTD} One record per reported period, in its latest version: a restatement (a later announce_date for the same period) is shown instead of the original it corrects, which stays stored`;
const WINDOWED = `${ONE}; from/to select on report_date (inclusive); as_of shows the periods as known on a day (each one's latest version announced by then). docs/fundamentals.md, "Restatements".`;

const equity = { access: 'instrument', kinds: ['equity'] } as const;
const statement = (operationId: string, segment: string, summary: string, response: string): ServeDecl => ({
  ...equity,
  operationId,
  segment,
  window: 'report_date',
  summary,
  description: WINDOWED,
  response,
});

export const FUNDAMENTALS_SERVED: Readonly<Record<string, ServeDecl>> = {
  income_statements: statement(
    'listIncomeStatements',
    'income-statements',
    'Income statements, ascending by report date.',
    'IncomeStatementCollectionResponse',
  ),
  balance_sheets: statement(
    'listBalanceSheets',
    'balance-sheets',
    'Balance sheets, ascending by report date.',
    'BalanceSheetCollectionResponse',
  ),
  cash_flow_statements: statement(
    'listCashFlowStatements',
    'cash-flow-statements',
    'Cash-flow statements, ascending by report date.',
    'CashFlowStatementCollectionResponse',
  ),
  financial_indicators: statement(
    'listFinancialIndicators',
    'financial-indicators',
    'Financial indicators derived from the statements, ascending by report date.',
    'FinancialIndicatorCollectionResponse',
  ),
  earnings_forecasts: {
    ...equity,
    operationId: 'listEarningsForecasts',
    segment: 'earnings-forecasts',
    window: 'announce_date',
    summary: 'Earnings forecasts (业绩预告), ascending by announcement date.',
    description:
      'Ranges of net profit attributable to shareholders of the parent announced before the report; the reported figure ' +
      'lies within the range. from/to select on announce_date (inclusive).',
    response: 'EarningsForecastCollectionResponse',
  },
  institutional_holdings: {
    ...equity,
    operationId: 'listInstitutionalHoldings',
    segment: 'institutional-holdings',
    summary: 'Institutional holders disclosed with each periodic report, by report date then rank.',
    description: 'One record per holder and reporting period, as disclosed in the periodic report.',
    response: 'InstitutionalHoldingCollectionResponse',
  },
  management: {
    ...equity,
    operationId: 'listManagementHistory',
    segment: 'management-history',
    summary: 'Directors, supervisors and senior managers, past and present, by start date.',
    description: 'One record per person and position; end_date is null while in office.',
    response: 'ManagementHistoryCollectionResponse',
  },
};
