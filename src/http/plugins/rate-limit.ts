import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { LiveKey } from '../../auth/keys.js';

/**
 * Rate limits (docs/operations.md, "Rate limits"), counted by @fastify/rate-limit in fixed
 * windows of RATE_LIMIT_WINDOW seconds:
 * - per API key: the key's own limit (`mds keys create --rate N`; 0 = unlimited), else RATE_LIMIT;
 * - per client address, for requests to protected paths without a valid key (missing or
 *   invalid): RATE_LIMIT_ANON, so floods of made-up keys cannot make the server look keys up.
 * Counters live in Redis when REDIS_URL is set (one limit for every process and server), else in
 * this process. A limited response carries `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (draft-ietf-httpapi-ratelimit-headers); one over the limit is 429
 * `rate_limited` with `Retry-After`. When Redis fails, requests are let through (fail open) and
 * a warning is logged once per outage: a rate limit is not worth an outage of the API.
 */
export interface RateLimits {
  /** Counts a request of a live key; throws 429 over its limit. No limit: nothing happens. */
  forKey(req: FastifyRequest, reply: FastifyReply, key: LiveKey): Promise<void>;
  /** Counts a request without a valid key against its client address; throws 429 over RATE_LIMIT_ANON. */
  forAddress(req: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** Counted requests by outcome (metrics.ts reads them). */
export interface RateLimitCounts {
  allowed: number;
  limited: number;
  failedOpen: number;
}

const PLAN = Symbol('rate-limit plan');
type Planned = FastifyRequest & { [PLAN]?: { key: string; max: number } };

/** Redis options that fail fast: a command never waits for a connection that is not there. */
export const REDIS_OPTIONS = { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 500 } as const;

/** Waits (at most `ms`) for the client to be ready; false when it is not, or fails to connect. */
function ready(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve(ok);
    };
    const onReady = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}

/**
 * Registers @fastify/rate-limit on `app` (no route hooks: the key check calls the limits, as it
 * alone knows the key) and returns the limits. A request with no limit to apply (RATE_LIMIT 0
 * and a key without its own) costs nothing: no counter, no Redis round trip, no headers.
 */
/** The settings the rate limits take (the app's Config has them: docs/operations.md, "Rate limits"). */
export interface RateLimitConfig {
  /** Requests per window per key (a key's own limit wins); 0 = none. */
  rateLimit: number;
  rateLimitWindowS: number;
  /** Requests per window per client address without a valid key; 0 = none. */
  rateLimitAnon: number;
  redisUrl: string | null;
  redisKeyPrefix: string;
}

export async function registerRateLimits(
  app: FastifyInstance,
  cfg: RateLimitConfig,
  counts: RateLimitCounts = { allowed: 0, limited: 0, failedOpen: 0 },
): Promise<RateLimits> {
  const log: FastifyBaseLogger = app.log;
  let redis: Redis | null = null;
  // One warning when Redis stops answering, one line when it answers again.
  let down = false;
  const failed = (err: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, 'rate limits: Redis is not answering; requests are let through unlimited until it is back');
  };
  if (cfg.redisUrl !== null) {
    redis = new Redis(cfg.redisUrl, REDIS_OPTIONS);
    redis.on('error', failed);
    redis.on('ready', () => {
      if (!down) return;
      down = false;
      log.info('rate limits: Redis answers again; limits apply');
    });
    if (!(await ready(redis, 3000)) && !down) failed(new Error(`no connection to ${new URL(cfg.redisUrl).host} within 3 s`));
    app.addHook('onClose', async () => {
      redis!.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    timeWindow: cfg.rateLimitWindowS * 1000,
    cache: 10_000,
    keyGenerator: (req) => (req as Planned)[PLAN]!.key,
    max: (req) => (req as Planned)[PLAN]!.max,
    ...(redis ? { redis, nameSpace: cfg.redisKeyPrefix } : {}),
  });
  const limiter = app.createRateLimit();

  const apply = async (req: FastifyRequest, reply: FastifyReply, key: string, max: number, what: string) => {
    (req as Planned)[PLAN] = { key, max };
    let r: Awaited<ReturnType<typeof limiter>>;
    try {
      r = await limiter(req);
    } catch (err) {
      counts.failedOpen++;
      failed(err);
      return;
    }
    if (r.isAllowed) return;
    if (down && redis?.status === 'ready') {
      down = false;
      log.info('rate limits: Redis answers again; limits apply');
    }
    const headers: Record<string, string> = {
      'ratelimit-limit': String(max),
      'ratelimit-remaining': String(r.remaining),
      'ratelimit-reset': String(r.ttlInSeconds),
    };
    if (!r.isExceeded) {
      counts.allowed++;
      reply.headers(headers);
      return;
    }
    counts.limited++;
    const wait = Math.max(1, r.ttlInSeconds);
    throw new ApiError(
      {
        code: 'rate_limited',
        detail: `More than ${max} request${max === 1 ? '' : 's'} in ${cfg.rateLimitWindowS} s ${what}; retry in ${wait} s.`,
      },
      { ...headers, 'ratelimit-remaining': '0', 'retry-after': String(wait) },
    );
  };
  return {
    async forKey(req, reply, key) {
      const max = key.rateLimit ?? cfg.rateLimit;
      if (max > 0) await apply(req, reply, `k:${key.id}`, max, 'for this key');
    },
    async forAddress(req, reply) {
      if (cfg.rateLimitAnon > 0)
        await apply(req, reply, `a:${normalizeIP(req.ip)}`, cfg.rateLimitAnon, 'without a valid API key from this address');
    },
  };
}

const HEADER_DOCS: Record<string, { description: string; schema: { type: 'integer'; minimum: number } }> = {
  'RateLimit-Limit': {
    description:
      "Requests allowed in the current window (sent when a rate limit applies: RATE_LIMIT, or the key's own limit, or RATE_LIMIT_ANON for requests without a valid key).",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer', minimum: 0 } },
};
const RETRY_AFTER = {
  description: 'Seconds to wait before the next request counts in a new window.',
  schema: { type: 'integer', minimum: 1 },
};

/**
 * The rate-limit headers in an OpenAPI document (@fastify/swagger `transformObject`): declared
 * once under components.headers and referenced by every response of every protected operation
 * (those with security), with Retry-After on 429 (documented by http/route.ts).
 */
export function documentRateLimitHeaders<T>(doc: T): T {
  const d = doc as {
    components?: { headers?: Record<string, unknown> };
    paths?: Record<string, Record<string, any>>;
    security?: unknown[];
  };
  if (!d.paths) return doc;
  d.components ??= {};
  d.components.headers = { ...(d.components.headers ?? {}), ...HEADER_DOCS, 'Retry-After': RETRY_AFTER };
  for (const item of Object.values(d.paths)) {
    for (const op of Object.values(item)) {
      if (typeof op !== 'object' || op === null || !op.responses || (Array.isArray(op.security) && op.security.length === 0)) continue;
      for (const [status, response] of Object.entries<any>(op.responses)) {
        response.headers = { ...(response.headers ?? {}) };
        for (const name of Object.keys(HEADER_DOCS)) response.headers[name] = { $ref: `#/components/headers/${name}` };
        if (status === '429') response.headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
      }
    }
  }
  return doc;
}
