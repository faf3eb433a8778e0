import { COMMON_SCHEMAS } from './common.js';
import { REFERENCE_RECORDS, REFERENCE_RESPONSES } from './reference.js';
import { MARKET_DATA_RECORDS, MARKET_DATA_RESPONSES } from './market-data.js';
import { FUNDAMENTALS_SCHEMAS } from './fundamentals.js';
import { ANALYTICS_SCHEMAS, PoolType, POOL_TYPE_RESPONSES } from './analytics.js';
import { MARKET_DAY_RECORDS, MARKET_DAY_RESPONSES } from './market-days.js';
import { SYSTEM_SCHEMAS } from './system.js';
import { CHANGE_SCHEMAS } from './changes.js';
import { INDEX_WEIGHT_SCHEMAS } from './index-weights.js';
import { SERVED_SCHEMAS } from './served.js';

/** Every named schema, registered once with the app so OpenAPI lists it under components (schemas only: no route is imported). */
export const ALL_SCHEMAS = [
  ...COMMON_SCHEMAS,
  ...REFERENCE_RECORDS,
  ...MARKET_DATA_RECORDS,
  PoolType,
  ...SYSTEM_SCHEMAS,
  ...REFERENCE_RESPONSES,
  ...MARKET_DATA_RESPONSES,
  ...POOL_TYPE_RESPONSES,
  ...SERVED_SCHEMAS,
  ...FUNDAMENTALS_SCHEMAS,
  ...INDEX_WEIGHT_SCHEMAS,
  ...ANALYTICS_SCHEMAS,
  ...MARKET_DAY_RECORDS,
  ...MARKET_DAY_RESPONSES,
  ...CHANGE_SCHEMAS,
];
