import type { App } from '../../services.js';
import { MarginTradingCollectionResponse } from '../../schemas/fundamentals.js';
import { marginTrading } from '../../../datasets/margin-trading.js';
import { compiled } from '../../../datasets/registry.js';
import { registerDeclared } from './declared.js';

/** listMarginTrading (CONTRACT.md §1): the exchange's daily margin figures of an eligible equity. */
export function registerMarginTrading(app: App) {
  registerDeclared(app, {
    operationId: 'listMarginTrading',
    segment: 'margin-trading',
    dataset: compiled(marginTrading),
    window: 'trade_date',
    date: 'day',
    summary: 'Margin trading (融资融券) per trading day, ascending by date.',
    description:
      'One record per trading day on which the equity was eligible for margin trading and traded. Balances are at the close; ' +
      'the exchanges’ identities hold to the cent: financing_balance = the previous day’s + financing_bought − financing_repaid, ' +
      'short_shares = the previous day’s + short_sold − short_repaid, short_balance = short_shares × close, ' +
      'total_balance = financing_balance + short_balance. from/to and date select on trade_date.',
    response: MarginTradingCollectionResponse,
  });
}
