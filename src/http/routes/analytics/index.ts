import type { App } from '../../services.js';
import { registerIndicators } from './indicators.js';
import priceLimitRoutes from './limits.js';
import adjustmentFactorRoutes from './factors.js';
import poolRoutes from './pools.js';

export default async function analyticsRoutes(app: App) {
  registerIndicators(app, 'equity', 'equities', 'listEquityTechnicalIndicators');
  registerIndicators(app, 'index', 'indices', 'listIndexTechnicalIndicators');
  registerIndicators(app, 'fund', 'funds', 'listFundTechnicalIndicators');
  await app.register(priceLimitRoutes);
  await app.register(adjustmentFactorRoutes);
  await app.register(poolRoutes);
}
