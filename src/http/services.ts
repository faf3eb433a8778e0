import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SnapshotWant, StoreStatus } from '../store/types.js';
import type { CursorCodec } from './cursor.js';
import type { Renderer } from '../render/json-bytes.js';
import type { KeyStore } from '../auth/keys.js';
import type { QueryCaches, Snapshot } from '../query/snapshot.js';
import type { EventHub } from './events/hub.js';

/**
 * What the HTTP front needs, handed over at the composition root (app/app.ts): how a request
 * opens its read snapshot (query/snapshot.ts: the readers and queries it is answered from), and
 * what is not data: the store's health, the keys, the cursor codec and the renderer. Never a
 * handle that writes (bars are written only through derived/open.ts's store).
 */
export interface Services {
  /** The store's liveness and health, for the readiness probe. */
  store: StoreStatus;
  /** Opens a read snapshot of the store now (registerDataTags gives each data request one: `req.snap`). */
  openSnapshot(want?: SnapshotWant): Promise<Snapshot>;
  /** What the queries keep across requests (for the metrics). */
  caches: QueryCaches;
  codec: CursorCodec;
  /** Where response bodies are written (one slab per app). */
  renderer: Renderer;
  keys: KeyStore;
  /** The committed versions as they come, for the event streams (events/hub.ts). */
  events: EventHub;
}

declare module 'fastify' {
  interface FastifyInstance {
    svc: Services;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
