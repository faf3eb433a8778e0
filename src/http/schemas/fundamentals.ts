import { Collection } from './common.js';
import { COMPANY_SCHEMAS } from './company.js';
import { recordSchema } from './declared.js';
import {
  balanceSheets,
  cashFlowStatements,
  dividends,
  earningsForecasts,
  financialIndicators,
  incomeStatements,
} from '../../datasets/fundamentals.js';
import { marginTrading } from '../../datasets/margin-trading.js';
import { suspensions } from '../../datasets/suspensions.js';
import { shareCapital } from '../../datasets/share-capital.js';
import { Type } from '@sinclair/typebox';

/**
 * Financial statements, indicators, dividends and earnings forecasts (docs/fundamentals.md):
 * records as the datasets declare them. Money is CNY with 2 decimals; per-share values CNY with
 * 4 decimals (cash dividends 5); percentages 2 decimals in percent; every rounding is half away
 * from zero.
 */
export const IncomeStatement = recordSchema(incomeStatements);
export const BalanceSheet = recordSchema(balanceSheets);
export const CashFlowStatement = recordSchema(cashFlowStatements);
export const FinancialIndicator = recordSchema(financialIndicators);
export const Dividend = recordSchema(dividends);
export const EarningsForecast = recordSchema(earningsForecasts);
export const MarginTrading = recordSchema(marginTrading);
export const ShareCapitalChange = recordSchema(shareCapital);
export const Suspension = recordSchema(suspensions, {
  source: Type.Unsafe<string>({
    type: 'string',
    enum: ['exchange', 'derived'],
    description:
      'exchange: as announced (loaded); derived: no suspension was loaded for the equity, and this is a run of trading days without a daily bar (no reason, no announcement).',
  }),
});

export const IncomeStatementCollectionResponse = Collection('IncomeStatementCollectionResponse', IncomeStatement);
export const BalanceSheetCollectionResponse = Collection('BalanceSheetCollectionResponse', BalanceSheet);
export const CashFlowStatementCollectionResponse = Collection('CashFlowStatementCollectionResponse', CashFlowStatement);
export const FinancialIndicatorCollectionResponse = Collection('FinancialIndicatorCollectionResponse', FinancialIndicator);
export const DividendCollectionResponse = Collection('DividendCollectionResponse', Dividend);
export const EarningsForecastCollectionResponse = Collection('EarningsForecastCollectionResponse', EarningsForecast);
export const MarginTradingCollectionResponse = Collection('MarginTradingCollectionResponse', MarginTrading);
export const SuspensionCollectionResponse = Collection('SuspensionCollectionResponse', Suspension);
export const ShareCapitalCollectionResponse = Collection('ShareCapitalCollectionResponse', ShareCapitalChange);

/** Every named schema of the datasets, for registry.ts. */
export const FUNDAMENTALS_SCHEMAS = [
  IncomeStatement,
  BalanceSheet,
  CashFlowStatement,
  FinancialIndicator,
  Dividend,
  EarningsForecast,
  MarginTrading,
  Suspension,
  ShareCapitalChange,
  IncomeStatementCollectionResponse,
  BalanceSheetCollectionResponse,
  CashFlowStatementCollectionResponse,
  FinancialIndicatorCollectionResponse,
  DividendCollectionResponse,
  EarningsForecastCollectionResponse,
  MarginTradingCollectionResponse,
  SuspensionCollectionResponse,
  ShareCapitalCollectionResponse,
  ...COMPANY_SCHEMAS,
];
