import type { TObject, TSchema } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { rowPlan, sendPage } from '../../collection.js';
import { dateWindow, dateWindowParams } from '../../params.js';
import {
  BalanceSheet,
  BalanceSheetCollectionResponse,
  CashFlowStatement,
  CashFlowStatementCollectionResponse,
  FinancialIndicator,
  FinancialIndicatorCollectionResponse,
  IncomeStatement,
  IncomeStatementCollectionResponse,
} from '../../schemas/fundamentals.js';
import type { StatementTable } from '../../../store/readers/fundamentals.js';
import { statementWriter, type StatementFields } from './records.js';

interface StatementOperation {
  operationId: string;
  segment: string;
  table: StatementTable;
  summary: string;
  response: TSchema;
  record: TObject;
  /** from/to on report_date (the spec gives them to balance sheets and indicators only). */
  window: boolean;
  fields: StatementFields;
}

const YTD = 'A-share statements are cumulative from January 1: q1 covers 3 months, h1 6, q3 9, annual 12.';

const OPERATIONS: StatementOperation[] = [
  {
    operationId: 'listIncomeStatements',
    segment: 'income-statements',
    table: 'income_statements',
    window: false,
    summary: 'Income statements, ascending by report date.',
    response: IncomeStatementCollectionResponse,
    record: IncomeStatement,
    fields: {
      money: ['revenue', 'operating_cost', 'operating_profit', 'total_profit', 'income_tax', 'net_profit', 'net_profit_attributable'],
      perShare: ['basic_eps'],
    },
  },
  {
    operationId: 'listBalanceSheets',
    segment: 'balance-sheets',
    table: 'balance_sheets',
    window: true,
    summary: 'Balance sheets, ascending by report date.',
    response: BalanceSheetCollectionResponse,
    record: BalanceSheet,
    fields: {
      money: [
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
      ],
    },
  },
  {
    operationId: 'listCashFlowStatements',
    segment: 'cash-flow-statements',
    table: 'cash_flow_statements',
    window: false,
    summary: 'Cash-flow statements, ascending by report date.',
    response: CashFlowStatementCollectionResponse,
    record: CashFlowStatement,
    fields: {
      money: ['operating_cash_flow', 'investing_cash_flow', 'financing_cash_flow', 'capex', 'free_cash_flow', 'cash_begin', 'cash_end'],
    },
  },
  {
    operationId: 'listFinancialIndicators',
    segment: 'financial-indicators',
    table: 'financial_indicators',
    window: true,
    summary: 'Financial indicators derived from the statements, ascending by report date.',
    response: FinancialIndicatorCollectionResponse,
    record: FinancialIndicator,
    fields: {
      perShare: ['eps', 'bps'],
      hundredths: [
        'roe',
        'roa',
        'gross_margin',
        'net_margin',
        'debt_to_assets',
        'current_ratio',
        'quick_ratio',
        'revenue_yoy',
        'net_profit_yoy',
      ],
    },
  },
];

/** listIncomeStatements, listBalanceSheets, listCashFlowStatements, listFinancialIndicators. */
export function registerStatements(app: App) {
  for (const op of OPERATIONS) {
    const write = statementWriter(op.table, op.record, op.fields);
    app.get(
      `/api/v1/equities/:instrument_id/${op.segment}`,
      {
        schema: operation({
          operationId: op.operationId,
          tags: ['equities'],
          summary: op.summary,
          description: `${YTD} One record per reported period${op.window ? '; from/to select on report_date (inclusive)' : ''}.`,
          params: instrumentIdParam,
          ...(op.window ? { query: dateWindowParams } : {}),
          response: op.response,
          notFound: true,
          collection: true,
        }),
      },
      async (req, reply) => {
        const inst = await pathInstrument(req, 'equity');
        const w = op.window ? dateWindow(req.query as { from?: string; to?: string }) : { from: 0, to: 99991231 };
        return sendPage(
          req,
          reply,
          app.svc,
          op.operationId,
          ['date', 'str'],
          rowPlan(
            (p) => snapOf(req).fundamentals.statements(op.table, inst.inst, w.from, w.to, p),
            (r) => [r.report_date, r.report_type],
            (w, r) => write(w, r, inst.id),
          ),
        );
      },
    );
  }
}
