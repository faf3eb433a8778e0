/**
 * Margin trading (融资融券) of an equity on a trading day, as the exchanges publish it per
 * eligible security (Tushare's `margin_detail`): balances at the close and the day's flows.
 * The exchanges' identities: financing_balance(t) = financing_balance(t−1) + financing_bought −
 * financing_repaid; short_shares(t) = short_shares(t−1) + short_sold − short_repaid;
 * short_balance = short_shares × close; total_balance = financing_balance + short_balance.
 */
import { date, instrument } from './columns.js';
import { col, declare, type Problem, type Row } from './dataset.js';
import type { RowContext } from './context.js';
import { AMOUNT, SHARES } from './units.js';

const cny = <const N extends string>(name: N, what: string) => col(name, AMOUNT, `${what} CNY, 2 decimals.`);

export const marginTrading = declare({
  name: 'margin_trading',
  table: 'margin_trading',
  doc: 'Margin trading of an eligible equity on a trading day: financing and short-selling balances at the close and the day’s flows.',
  record: { id: 'MarginTrading', description: 'Margin trading (融资融券) of one equity on one trading day, as the exchange published it.' },
  serve: {
    access: 'instrument',
    kinds: ['equity'],
    operationId: 'listMarginTrading',
    segment: 'margin-trading',
    window: 'trade_date',
    date: 'day',
    summary: 'Margin trading (融资融券) per trading day, ascending by date.',
    description:
      'One record per trading day on which the equity was eligible for margin trading and traded. Balances are at the close; ' +
      'the exchanges’ identities hold to the cent: financing_balance = the previous day’s + financing_bought − financing_repaid, ' +
      'short_shares = the previous day’s + short_sold − short_repaid, short_balance = short_shares × close, ' +
      'total_balance = financing_balance + short_balance. from/to and date select on trade_date.',
    response: 'MarginTradingCollectionResponse',
  },
  columns: [
    col('instrument_id', instrument(['equity']), 'The equity (CODE.MARKET).', { column: 'inst' }),
    col('trade_date', date, 'Trading day.', { column: 'date' }),
    cny('financing_balance', 'Financing balance (融资余额) at the close = the previous day’s + financing_bought − financing_repaid,'),
    cny('financing_bought', 'Securities bought on margin that day (融资买入额),'),
    cny('financing_repaid', 'Financing repaid that day (融资偿还额),'),
    cny('short_balance', 'Short-selling balance (融券余额) = short_shares × the day’s close,'),
    col(
      'short_shares',
      SHARES,
      'Shares sold short and not yet returned at the close (融券余量) = the previous day’s + short_sold − short_repaid.',
    ),
    col('short_sold', SHARES, 'Shares sold short that day (融券卖出量).'),
    col('short_repaid', SHARES, 'Shares returned that day (融券偿还量).'),
    cny('total_balance', 'Margin balance (融资融券余额) = financing_balance + short_balance,'),
  ],
  key: ['instrument_id', 'trade_date'],
  check:
    (ix) =>
    (r: Row, ctx: RowContext): Problem | null => {
      if (!ctx.isTradingDay(ctx.marketOf(r[ix.instrument_id] as number), r[ix.trade_date] as number))
        return ['trade_date', "expected a trading day (in the store or in this command's trading_days)"];
      const total = (r[ix.financing_balance] as number) + (r[ix.short_balance] as number);
      return r[ix.total_balance] === total ? null : ['total_balance', 'expected total_balance = financing_balance + short_balance'];
    },
});
