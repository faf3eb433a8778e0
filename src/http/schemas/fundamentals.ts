import { Collection, DateString, Decimal, NullableDecimal } from './common.js';
import { MONEY, PERCENT, PRICE } from '../../datasets/units.js';
import { COMPANY_SCHEMAS } from './company.js';
import { recordSchema } from './declared.js';
import { dividends } from '../../datasets/fundamentals.js';
import { servedRecord, servedResponse } from './served.js';
import { suspensions } from '../../datasets/suspensions.js';
import { Type } from '@sinclair/typebox';

/**
 * Financial statements, indicators, dividends and earnings forecasts (docs/fundamentals.md):
 * records as the datasets declare them. Money is CNY with 2 decimals; per-share values CNY with
 * 4 decimals (cash dividends 5); percentages 2 decimals in percent; every rounding is half away
 * from zero.
 */
export const IncomeStatement = servedRecord('income_statements');
export const BalanceSheet = servedRecord('balance_sheets');
export const CashFlowStatement = servedRecord('cash_flow_statements');
export const FinancialIndicator = servedRecord('financial_indicators');
export const Dividend = recordSchema(dividends);
export const EarningsForecast = servedRecord('earnings_forecasts');
export const MarginTrading = servedRecord('margin_trading');
export const ShareCapitalChange = servedRecord('share_capital');
export const Suspension = recordSchema(suspensions, {
  source: Type.Unsafe<string>({
    type: 'string',
    enum: ['exchange', 'derived'],
    description:
      'exchange: as announced (loaded); derived: no suspension was loaded for the equity, and this is a run of trading days without a daily bar (no reason, no announcement).',
  }),
});

const nullableInteger = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
/** Valuation multiples and yields: 4 decimals. */
const MULTIPLE_SCALE = 4;
const multiple = (what: string) =>
  NullableDecimal(
    `${what}; 4 decimals, rounded half away from zero; null when the base is unknown or not positive (a loss has no PE).`,
    MULTIPLE_SCALE,
  );

/** A day's valuation as known at its close (docs/fundamentals.md, "Valuations"). */
export const Valuation = Type.Object(
  {
    instrument_id: Type.String({ description: 'The equity (CODE.MARKET).' }),
    trade_date: DateString('Trading day (one with a daily bar).'),
    close: Decimal('The day’s close, CNY (unadjusted).', PRICE),
    total_shares: nullableInteger('Total shares in force that day (share capital; else the instrument’s current count).'),
    float_shares: nullableInteger('Tradable A shares in force that day (as total_shares).'),
    total_market_value: NullableDecimal('close × total_shares, CNY, 2 decimals (总市值).', MONEY),
    float_market_value: NullableDecimal('close × float_shares, CNY, 2 decimals (流通市值).', MONEY),
    turnover_rate: NullableDecimal('volume / float_shares × 100, percent, 2 decimals (换手率).', PERCENT),
    pe: multiple('total_market_value / net_profit_attributable of the latest annual report announced by that day (静态市盈率)'),
    pe_ttm: multiple(
      'total_market_value / trailing-twelve-month net_profit_attributable: the latest report announced by that day + the previous annual − the same period a year before (TTM市盈率)',
    ),
    pb: multiple('total_market_value / equity_attributable of the latest balance sheet announced by that day (市净率)'),
    ps_ttm: multiple('total_market_value / trailing-twelve-month revenue (as pe_ttm) (市销率TTM)'),
    dividend_yield_ttm: NullableDecimal(
      'Cash dividends with an ex-date in the year to that day (per share × the total shares the day before the ex-date) / total_market_value × 100; percent, 4 decimals (股息率TTM).',
      MULTIPLE_SCALE,
    ),
  },
  {
    $id: 'Valuation',
    additionalProperties: false,
    description:
      'An equity’s valuation on a trading day as it was known at that day’s close (point in time: statements count from their announcement).',
  },
);

export const IncomeStatementCollectionResponse = servedResponse('income_statements');
export const BalanceSheetCollectionResponse = servedResponse('balance_sheets');
export const CashFlowStatementCollectionResponse = servedResponse('cash_flow_statements');
export const FinancialIndicatorCollectionResponse = servedResponse('financial_indicators');
export const DividendCollectionResponse = Collection('DividendCollectionResponse', Dividend);
export const EarningsForecastCollectionResponse = servedResponse('earnings_forecasts');
export const MarginTradingCollectionResponse = servedResponse('margin_trading');
export const SuspensionCollectionResponse = Collection('SuspensionCollectionResponse', Suspension);
export const ShareCapitalCollectionResponse = servedResponse('share_capital');
export const ValuationCollectionResponse = Collection('ValuationCollectionResponse', Valuation);

/** Every named schema of the datasets, for registry.ts. */
export const FUNDAMENTALS_SCHEMAS = [
  Dividend,
  Suspension,
  Valuation,
  DividendCollectionResponse,
  SuspensionCollectionResponse,
  ValuationCollectionResponse,
  ...COMPANY_SCHEMAS,
];
