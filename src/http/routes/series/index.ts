import type { App } from '../../services.js';
import { registerBars } from './bars.js';
import { registerQuotes, registerTrades } from './ticks.js';

export default async function seriesRoutes(app: App) {
  registerBars(app, 'equity', 'equities', 'listEquityBars');
  registerBars(app, 'index', 'indices', 'listIndexBars');
  registerBars(app, 'fund', 'funds', 'listFundBars');
  registerQuotes(app, 'equity', 'equities', 'listEquityQuotes');
  registerQuotes(app, 'index', 'indices', 'listIndexQuotes');
  registerQuotes(app, 'fund', 'funds', 'listFundQuotes');
  registerTrades(app, 'equity', 'equities', 'listEquityTrades');
}
