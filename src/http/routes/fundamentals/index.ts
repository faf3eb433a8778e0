import type { App } from '../../services.js';
import { registerServed } from './served.js';
import { registerDividends } from './dividends.js';
import { registerCompany } from './company.js';
import { registerTextEntries } from './text-entries.js';
import { registerCapitalFlows } from './capital-flows.js';
import { registerSuspensions } from './suspensions.js';
import { registerValuations } from './valuations.js';

/** The company, fundamentals and flow operations under /api/v1/equities/{instrument_id}/ (issue 3). */
export default async function fundamentalsRoutes(app: App) {
  registerServed(app);
  registerDividends(app);
  registerCompany(app);
  registerTextEntries(app);
  registerCapitalFlows(app);
  registerSuspensions(app);
  registerValuations(app);
}
