import Fastify, { LogController, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from './config.js';
import type { Store } from '../store/types.js';
import { ApiError } from '../lib/errors.js';
import type { StoreUnavailable } from '../store/health.js';
import { Renderer } from '../render/json-bytes.js';
import { CursorCodec } from '../http/cursor.js';
import { KeyStore } from '../auth/keys.js';
import { EventHub } from '../http/events/hub.js';
import type { App, Services } from '../http/services.js';
import { frameworkErrors, MAX_PATH_VALUE, refuse, refuseOtherMethods, errorHandling } from '../http/plugins/errors.js';
import { clientErrorHandler, framingError, registerHttpEdge } from '../http/plugins/http-edge.js';
import { trackConnections } from '../http/connections.js';
import { auth, keyCheck, type KeyCheck } from '../http/plugins/auth.js';
import { behaviourOf, routeDefaults } from '../http/route-config.js';
import { registerRateLimits } from '../http/plugins/rate-limit.js';
import type { Metrics } from '../http/plugins/metrics.js';
import { readIngestTotals } from '../store/ingest-totals.js';
import { latestVersion } from '../store/versions.js';
import { openSnapshot, QueryCaches } from '../query/snapshot.js';
import { docs } from '../http/plugins/docs.js';
import { explorer } from '../http/plugins/explorer.js';
import { requestLog } from '../http/plugins/request-log.js';
import { turnGate, turnHold } from '../http/plugins/turns.js';
import { securityHeaders } from '../http/plugins/security-headers.js';
import { cors } from '../http/plugins/cors.js';
import { closedPeriodMaxAge, dataTags, httpCache } from '../http/plugins/http-cache.js';
import { controlCharacters, guardPageSize } from '../http/params.js';
import { serializerPerSchema } from '../http/serializers.js';
import { ALL_SCHEMAS } from '../http/schemas/registry.js';
import { parseDate, parseDateTime } from '../lib/time.js';
import systemRoutes from '../http/routes/system/index.js';
import marketRoutes from '../http/routes/markets/index.js';
import classificationRoutes from '../http/routes/classifications/index.js';
import instrumentRoutes from '../http/routes/instruments/index.js';
import seriesRoutes from '../http/routes/series/index.js';
import poolTypeRoutes from '../http/routes/pools/types.js';
import fundamentalsRoutes from '../http/routes/fundamentals/index.js';
import analyticsRoutes from '../http/routes/analytics/index.js';
import openbbRoutes from '../http/routes/openbb/index.js';
import changeRoutes from '../http/routes/changes/index.js';

export interface AppOptions {
  config: Config;
  store: Store;
  logger?: FastifyServerOptions['logger'];
  /** Milliseconds a connection may take to send a request's line and headers (408 after); default 20 s. */
  headersTimeout?: number;
  /** Prometheus metrics to record (METRICS_PORT; server.ts serves them). */
  metrics?: Metrics;
  /**
   * Why the store is not ready yet (not migrated: PostgreSQL could not be reached at start), or
   * null: while it is not, every operation but health and version answers it (503 not_ready).
   */
  unready?: () => StoreUnavailable | null;
}

/** Query parameters that look like credentials: their values never reach the logs. */
const SECRET_PARAMS = /([?&](?:api[_-]?key|apikey|x-api-key|key|token|access_token)=)[^&#]*/gi;

/** The URL as logged: a key sent in the query string (not accepted, but sent) is redacted. */
export const redactUrl = (url: string): string => (url.includes('=') ? url.replace(SECRET_PARAMS, '$1[REDACTED]') : url);

/** The logger options with a request serializer that redacts credentials in the URL. */
function withRedactedUrls(logger: AppOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: {
      ...((base as { serializers?: object }).serializers ?? {}),
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

/**
 * Our own `date` and `date-time` formats (real calendar dates; RFC 3339 with an optional offset,
 * read in market time). Named `formatsPlugin` so the compiler does not add ajv-formats over them.
 */
function formatsPlugin(ajv: any) {
  ajv.addFormat('date', { type: 'string', validate: (s: string) => parseDate(s) !== null });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => parseDateTime(s) !== null });
  return ajv;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Config's TRUST_PROXY as Fastify takes it: a number of proxies trusts the nearest ones. */
const trustedProxies = (t: Config['trustProxy']) => (typeof t === 'number' ? (_addr: string, hop: number) => hop < t : t);
const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** The keys of `store`: with replicas, read on one while the primary cannot answer (auth/keys.ts). */
function keyStore(store: Store): KeyStore {
  if (!store.replicas) return new KeyStore(store.db);
  return new KeyStore(store.db, undefined, {
    primaryDown: () => store.health.unavailable,
    async onReplica(read) {
      const s = await store.snapshot();
      try {
        return await read(s.db);
      } finally {
        s.release();
      }
    },
  });
}

/**
 * Builds the application without listening: the server entry point, the tests (inject) and
 * the OpenAPI export all use it.
 */
export async function buildApp(opts: AppOptions): Promise<App> {
  // Set once the key store exists; requests refused while routing check the key too.
  let checkKey: KeyCheck = async () => {};
  const app = Fastify({
    logger: withRedactedUrls(opts.logger),
    // One line per request instead (http/plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustedProxies(opts.config.trustProxy),
    // Node's limits, stated: request line and headers 16 KiB (431), received within headersTimeout (408).
    // A missing Host is refused on request (http-edge.ts), as ErrorResponse, not by Node.
    http: {
      maxHeaderSize: 16 * 1024,
      headersTimeout: opts.headersTimeout ?? 20_000,
      connectionsCheckingInterval: Math.min(opts.headersTimeout ?? 20_000, 2000),
      requireHostHeader: false,
    },
    clientErrorHandler,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: true, useDefaults: true },
      plugins: [formatsPlugin],
    },
    // One serializer per distinct response schema, not per route and status (http/serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: serializerPerSchema() } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_VALUE },
    // Malformed URLs and overlong path values never reach a route; answered as ErrorResponse.
    frameworkErrors: (err, req, res) => frameworkErrors((r, rep) => checkKey(r, rep))(err, req, res as unknown as FastifyReply),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // The server's connections: drained by the server process; a client error is answered after
  // the requests pipelined before it (http-edge.ts).
  app.decorate('connections', trackConnections(app.server));
  registerHttpEdge(app);

  // With metrics, every store query is timed.
  const store = opts.metrics ? opts.metrics.instrument(opts.store) : opts.store;
  const caches = new QueryCaches(opts.config.packCacheMb * 2 ** 20);
  const svc: Services = {
    store: {
      ping: () => store.ping(),
      health: store.health,
      ...(store.replicas ? { replicas: () => store.replicas!() } : {}),
      ...(store.primary ? { primary: () => store.primary!() } : {}),
    },
    openSnapshot: (want) => openSnapshot(store, caches, want),
    caches,
    codec: new CursorCodec(opts.config.cursorSecret),
    renderer: new Renderer(),
    keys: keyStore(store),
    events: new EventHub({
      // A version is told of once this server reads it where its requests read (on replicas: once one has replayed it).
      open: (want) => openSnapshot(store, caches, { ...want, replayed: true }),
      ...(store.watchVersions ? { watch: (on: (v: number) => void) => store.watchVersions!(on) } : {}),
      pollMs: opts.config.events.pollMs,
      onError: (e) => app.log.warn({ err: e }, 'event hub: the change log could not be read; tried again at the next version or poll'),
    }),
  };
  app.decorate('svc', svc);
  // Before the server closes: every event stream ends (its client reconnects with its last id).
  app.addHook('preClose', async () => svc.events.close());
  checkKey = keyCheck(svc.keys, await registerRateLimits(app, opts.config, opts.metrics?.rateLimits), opts.config.tokenSecret);
  if (opts.metrics) {
    opts.metrics.observe(app);
    opts.metrics.watch({
      dataVersion: () => latestVersion((q, p) => store.selectRows(q, p)),
      ingestTotals: () => readIngestTotals(store),
      caches: caches.all,
    });
  }
  const otherMethods = refuseOtherMethods(app, checkKey);
  // First of all hooks: under load, requests start in turns of the event loop, and a turn's
  // responses are written together when it ends, after every other onSend hook (see turns.ts).
  await app.register(turnGate);
  const maxAge = closedPeriodMaxAge(async (req) => (req.snap === null ? null : req.snap.equityDays.latestDate()));
  await app.register(httpCache, { maxAge });
  await app.register(securityHeaders);
  await app.register(turnHold);
  // Before the method check: a browser's preflight (OPTIONS) is answered here.
  await app.register(cors, { origins: opts.config.corsOrigins });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    const framing = framingError(req.raw);
    if (framing) {
      // A client that breaks HTTP's framing: its connection is not kept.
      reply.header('connection', 'close');
      await refuse(req, reply, checkKey, framing);
      return reply;
    }
    // Before the key check, which reads the store.
    const unready = opts.unready?.();
    if (unready && behaviourOf(req).store) throw unready;
    if (req.method !== 'GET' && req.method !== 'HEAD') return otherMethods(req, reply);
    guardPageSize(req.query as Record<string, unknown>);
  });
  await app.register(errorHandling);
  if (opts.logger) await app.register(requestLog, { redactUrl });
  for (const s of ALL_SCHEMAS) app.addSchema(s);
  await app.register(docs);
  await app.register(explorer);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(systemRoutes);
  // An OpenBB Workspace backend: public files, and endpoints that read the API with the caller's key.
  await app.register(openbbRoutes);
  await app.register(async (api) => {
    // What every data operation is: answered from one read snapshot, cached by its data version.
    routeDefaults(api, { cache: 'data', versioned: true, store: true });
    await api.register(auth, { check: checkKey });
    // After the key check, before anything reads the store with a value.
    api.addHook('onRequest', async (req) => {
      const bad = controlCharacters(req);
      if (bad.length) throw new ApiError(bad);
    });
    // What a data response depends on besides the data and the URL: the code and the cursor secret.
    const revision = createHash('sha256').update(`${VERSION}\0${opts.config.cursorSecret}`).digest('base64url');
    await api.register(dataTags, { revision, open: svc.openSnapshot, maxAge, replicas: store.replicas !== undefined });
    await api.register(marketRoutes);
    await api.register(classificationRoutes);
    await api.register(poolTypeRoutes);
    await api.register(instrumentRoutes);
    await api.register(seriesRoutes);
    await api.register(fundamentalsRoutes);
    await api.register(analyticsRoutes);
    await api.register(changeRoutes, opts.config.events);
  });
  return app;
}
