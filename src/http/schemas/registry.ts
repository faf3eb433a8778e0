import { COMMON_SCHEMAS } from './common.js';
import { REFERENCE_RECORDS } from './reference.js';
import { MARKET_DATA_RECORDS } from './market-data.js';
import { MarketCollectionResponse, MarketResponse, TradingDayCollectionResponse } from '../routes/markets/index.js';
import { ClassificationCollectionResponse } from '../routes/classifications/index.js';
import { InstrumentCollectionResponse, InstrumentResponse } from '../routes/instruments/index.js';
import { BarCollectionResponse } from '../routes/series/bars.js';
import { QuoteCollectionResponse, TradeCollectionResponse } from '../routes/series/ticks.js';
import { PoolTypeCollectionResponse } from '../routes/pools/types.js';
import { StatusResponse, VersionResponse } from '../routes/system/index.js';
import { FUNDAMENTALS_SCHEMAS } from './fundamentals.js';
import { ANALYTICS_SCHEMAS, PoolType } from './analytics.js';
import { MARKET_DAY_RECORDS } from './market-days.js';
import { MarketBarCollectionResponse, MarketBreadthCollectionResponse } from '../routes/markets/days.js';

/** Every named schema, registered once with the app so OpenAPI lists it under components. */
export const ALL_SCHEMAS = [
  ...COMMON_SCHEMAS,
  ...REFERENCE_RECORDS,
  ...MARKET_DATA_RECORDS,
  PoolType,
  StatusResponse,
  VersionResponse,
  MarketCollectionResponse,
  MarketResponse,
  TradingDayCollectionResponse,
  ClassificationCollectionResponse,
  InstrumentCollectionResponse,
  InstrumentResponse,
  BarCollectionResponse,
  QuoteCollectionResponse,
  TradeCollectionResponse,
  PoolTypeCollectionResponse,
  ...FUNDAMENTALS_SCHEMAS,
  ...ANALYTICS_SCHEMAS,
  ...MARKET_DAY_RECORDS,
  MarketBarCollectionResponse,
  MarketBreadthCollectionResponse,
];
