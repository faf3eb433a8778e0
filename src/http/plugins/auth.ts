import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../lib/errors.js';
import type { KeyStore, LiveKey } from '../../auth/keys.js';
import { verifyToken } from '../../auth/tokens.js';
import type { RateLimits } from './rate-limit.js';

/** Whether a path needs an API key: everything under /api/ but the public system operations. */
export const isProtected = (url: string): boolean => url.startsWith('/api/') && !url.startsWith('/api/v1/system/');

/** A key sent in the query string (never accepted: URLs end up in logs and proxies). */
const QUERY_KEY = /[?&](?:api[_-]?key|apikey|x-api-key)=/i;

export type KeyCheck = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the request was let in with (set by the key check; a stream checks it again: http/events). */
    apiKey?: LiveKey;
  }
}

/** The one operation a stream token (`?token=`, auth/tokens.ts) is accepted on: EventSource sends no headers. */
export const TOKEN_PATH = '/api/v1/events';

/**
 * The X-API-Key check (spec §5): throws 401 (or 429 over a rate limit, see rate-limit.ts) as
 * ApiError. The auth hook runs it on request, before validation, so an unauthenticated caller
 * learns nothing about parameters; requests refused before routing (a malformed URL, another
 * method) run it too. A request without a valid key counts against its client address's limit.
 */
export function keyCheck(keys: KeyStore, limits?: RateLimits, tokenSecret: string | null = null): KeyCheck {
  return async (req, reply) => {
    const key = req.headers['x-api-key'];
    const token = (req.query as { token?: unknown } | undefined)?.token;
    if ((key === undefined || key === '') && typeof token === 'string' && req.routeOptions.url === TOKEN_PATH) {
      const live = await tokenKey(keys, tokenSecret, token);
      if (typeof live === 'string') {
        await limits?.forAddress(req, reply);
        throw new ApiError({
          code: 'invalid_token',
          parameter: 'token',
          detail: `The token ${live}: issue another with \`mds keys token\`.`,
        });
      }
      req.apiKey = live;
      return limits?.forKey(req, reply, live);
    }
    if (key === undefined || key === '') {
      await limits?.forAddress(req, reply);
      throw new ApiError({
        code: 'missing_api_key',
        detail: QUERY_KEY.test(req.url)
          ? 'Send your API key in the X-API-Key header; a key in the query string is not accepted (URLs are logged).'
          : 'Send your API key in the X-API-Key header (create one with `mds keys create --name NAME`).',
      });
    }
    const live = typeof key === 'string' ? await keys.lookup(key) : null;
    if (live === null) {
      await limits?.forAddress(req, reply);
      throw new ApiError({ code: 'invalid_api_key', detail: 'The X-API-Key header does not carry a valid, unrevoked API key.' });
    }
    req.apiKey = live;
    await limits?.forKey(req, reply, live);
  };
}

/** The live key a stream token names, or why it is refused. */
async function tokenKey(keys: KeyStore, secret: string | null, token: string): Promise<LiveKey | string> {
  if (secret === null) return 'is not accepted: this server has no TOKEN_SECRET';
  const v = verifyToken(secret, token);
  if ('refused' in v) return v.refused;
  return (await keys.liveById(v.id)) ?? `names key ${v.id}, which is revoked or unknown`;
}

/** The key check on every route of the scope it is registered in. */
export const auth = fp<{ check: KeyCheck }>(
  async (scope, { check }) => {
    scope.addHook('onRequest', check);
  },
  { name: 'mds-auth', fastify: '5.x' },
);
