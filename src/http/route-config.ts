import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '../query/change-index.js';

/**
 * How a response may be kept (http-cache.ts): `no-store` (probes), `data` (a data operation:
 * public for an hour when its window is closed, else revalidated by ETag), `static` (the OpenAPI
 * document and the docs page: five minutes), `immutable` (a file whose name holds its version,
 * the explorer's `app.<version>.js`: a year, never revalidated).
 */
export type CachePolicy = 'no-store' | 'data' | 'static' | 'immutable';

/** What a route declares of itself, read by the app's hooks instead of its URL. */
export interface RouteBehaviour {
  /** How its responses may be kept (default `static`). */
  cache: CachePolicy;
  /** Answered from one read snapshot of the store, tagged by its data version (http-cache.ts registerDataTags). */
  versioned: boolean;
  /** Reads the store: answered 503 not_ready while the store is not ready. */
  store: boolean;
  /**
   * A probe (health, readiness): answered at once, ahead of the requests waiting for their turn
   * (turns.ts), so that a load balancer's check is not queued behind the work of a busy server.
   */
  probe: boolean;
  /**
   * What a versioned route's response depends on, from the request's path and query as sent
   * (before validation), for its ETag (http-cache.ts dataTags): the last version that changed
   * it, not the snapshot's. Null (or absent): anything may change it, the snapshot's version.
   * It must hold whatever the response shows: when unsure, return null.
   */
  scope?: (req: FastifyRequest) => Scope | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's behaviour (route-config.ts): its own, over its scope's (routeDefaults). */
    behaviour?: Partial<RouteBehaviour>;
  }
}

const STATIC: RouteBehaviour = { cache: 'static', versioned: false, store: false, probe: false };

/** The behaviour of the route a request matched (that of a static route when it matched none). */
export const behaviourOf = (req: FastifyRequest): RouteBehaviour => {
  const b = req.routeOptions.config?.behaviour;
  return b === undefined
    ? STATIC
    : b.cache !== undefined && b.versioned !== undefined && b.store !== undefined && b.probe !== undefined
      ? (b as RouteBehaviour)
      : { ...STATIC, ...b };
};

/**
 * Gives every route registered in `scope` from now on the behaviour `b` (what a route sets in
 * its own `config.behaviour` wins), so that a scope of routes says once what its routes are.
 */
export function routeDefaults(scope: FastifyInstance, b: Partial<RouteBehaviour>): void {
  const behaviour = { ...STATIC, ...b };
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, behaviour: { ...behaviour, ...route.config?.behaviour } };
  });
}
