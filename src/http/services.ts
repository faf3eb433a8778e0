import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { StoreStatus } from '../store/types.js';
import type { Catalog } from '../store/catalog.js';
import type { ReferenceReader } from '../store/readers/reference.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { FundamentalsReader } from '../store/readers/fundamentals.js';
import type { CursorCodec } from './cursor.js';
import type { Renderer } from '../render/json-bytes.js';
import type { KeyStore } from '../auth/keys.js';
import type { Analytics } from '../query/analytics.js';
import type { EquityDays } from '../query/equity-days.js';
import type { Pools } from '../query/pools.js';
import type { MarketDays } from '../query/market-days.js';
import type { Calendars } from '../query/calendars.js';

/**
 * What the HTTP front needs, handed over at the composition root (app/app.ts): readers and
 * queries, never a handle that writes (bars are written only through derived/open.ts's store).
 */
export interface Services {
  /** The store's liveness and health, for the readiness probe. */
  store: StoreStatus;
  catalog: Catalog;
  reference: ReferenceReader;
  calendars: Calendars;
  marketData: MarketDataReader;
  fundamentals: FundamentalsReader;
  codec: CursorCodec;
  /** Where response bodies are written (one slab per app). */
  renderer: Renderer;
  keys: KeyStore;
  analytics: Analytics;
  equityDays: EquityDays;
  pools: Pools;
  marketDays: MarketDays;
}

declare module 'fastify' {
  interface FastifyInstance { svc: Services }
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
