import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../store/store.js';
import type { Catalog } from '../store/catalog.js';
import type { ReferenceReader } from '../store/queries/reference.js';
import type { MarketDataReader } from '../store/queries/market-data.js';
import type { FundamentalsReader } from '../store/queries/fundamentals.js';
import type { CursorCodec } from './cursor.js';
import type { KeyStore } from '../auth/keys.js';
import type { Config } from '../config.js';
import type { Analytics } from '../query/analytics.js';
import type { EquityDays } from '../query/equity-days.js';
import type { Pools } from '../query/pools.js';
import type { Calendars } from '../query/calendars.js';

/** What the HTTP front needs, handed over at the composition root (app.ts). */
export interface Services {
  config: Config;
  store: Store;
  catalog: Catalog;
  reference: ReferenceReader;
  calendars: Calendars;
  marketData: MarketDataReader;
  fundamentals: FundamentalsReader;
  codec: CursorCodec;
  keys: KeyStore;
  analytics: Analytics;
  equityDays: EquityDays;
  pools: Pools;
}

declare module 'fastify' {
  interface FastifyInstance { svc: Services }
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
