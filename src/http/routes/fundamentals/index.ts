import type { App } from '../../services.js';
import { registerStatements } from './statements.js';
import { registerDividends } from './dividends.js';
import { registerCompany } from './company.js';
import { registerTextEntries } from './text-entries.js';
import { registerCapitalFlows } from './capital-flows.js';
import { registerMarginTrading } from './margin-trading.js';
import { registerSuspensions } from './suspensions.js';
import { registerShareCapital } from './share-capital.js';
import { registerValuations } from './valuations.js';

/** The company, fundamentals and flow operations under /api/v1/equities/{instrument_id}/ (issue 3). */
export default async function fundamentalsRoutes(app: App) {
  registerStatements(app);
  registerDividends(app);
  registerCompany(app);
  registerTextEntries(app);
  registerCapitalFlows(app);
  registerMarginTrading(app);
  registerSuspensions(app);
  registerShareCapital(app);
  registerValuations(app);
}
