import type { App } from '../../services.js';
import {
  BalanceSheetCollectionResponse,
  CashFlowStatementCollectionResponse,
  FinancialIndicatorCollectionResponse,
  IncomeStatementCollectionResponse,
} from '../../schemas/fundamentals.js';
import { balanceSheets, cashFlowStatements, financialIndicators, incomeStatements } from '../../../datasets/fundamentals.js';
import { compiled } from '../../../datasets/registry.js';
import { registerDeclared } from './declared.js';

const YTD = 'A-share statements are cumulative from January 1: q1 covers 3 months, h1 6, q3 9, annual 12.';
const ONE = `${YTD} One record per reported period, in its latest version: a restatement (a later announce_date for the same period) is shown instead of the original it corrects, which stays stored`;
const WINDOWED = `${ONE}; from/to select on report_date (inclusive); as_of shows the periods as known on a day (each one's latest version announced by then). docs/fundamentals.md, "Restatements".`;

/** listIncomeStatements, listBalanceSheets, listCashFlowStatements, listFinancialIndicators: from/to on report_date on all four. */
export function registerStatements(app: App) {
  registerDeclared(app, {
    operationId: 'listIncomeStatements',
    segment: 'income-statements',
    dataset: compiled(incomeStatements),
    window: 'report_date',
    summary: 'Income statements, ascending by report date.',
    description: WINDOWED,
    response: IncomeStatementCollectionResponse,
  });
  registerDeclared(app, {
    operationId: 'listBalanceSheets',
    segment: 'balance-sheets',
    dataset: compiled(balanceSheets),
    window: 'report_date',
    summary: 'Balance sheets, ascending by report date.',
    description: WINDOWED,
    response: BalanceSheetCollectionResponse,
  });
  registerDeclared(app, {
    operationId: 'listCashFlowStatements',
    segment: 'cash-flow-statements',
    dataset: compiled(cashFlowStatements),
    window: 'report_date',
    summary: 'Cash-flow statements, ascending by report date.',
    description: WINDOWED,
    response: CashFlowStatementCollectionResponse,
  });
  registerDeclared(app, {
    operationId: 'listFinancialIndicators',
    segment: 'financial-indicators',
    dataset: compiled(financialIndicators),
    window: 'report_date',
    summary: 'Financial indicators derived from the statements, ascending by report date.',
    description: WINDOWED,
    response: FinancialIndicatorCollectionResponse,
  });
}
