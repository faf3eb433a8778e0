import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { KeyStore } from '../../auth/keys.js';

/** Whether a path needs an API key: everything under /api/ but the public system operations. */
export const isProtected = (url: string): boolean => url.startsWith('/api/') && !url.startsWith('/api/v1/system/');

/** A key sent in the query string (never accepted: URLs end up in logs and proxies). */
const QUERY_KEY = /[?&](?:api[_-]?key|apikey|x-api-key)=/i;

export type KeyCheck = (req: FastifyRequest) => Promise<void>;

/**
 * The X-API-Key check (spec §5): throws 401 (or 429 with RATE_LIMIT) as ApiError. The auth
 * hook runs it on request, before validation, so an unauthenticated caller learns nothing about
 * parameters; requests refused before routing (a malformed URL, another method) run it too.
 */
export function keyCheck(keys: KeyStore, ratePerSecond = 0): KeyCheck {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return async (req) => {
    const key = req.headers['x-api-key'];
    if (key === undefined || key === '') {
      throw new ApiError({
        code: 'missing_api_key',
        detail: QUERY_KEY.test(req.url)
          ? 'Send your API key in the X-API-Key header; a key in the query string is not accepted (URLs are logged).'
          : 'Send your API key in the X-API-Key header (create one with `mds keys create --name NAME`).',
      });
    }
    if (typeof key !== 'string' || !(await keys.verify(key))) {
      throw new ApiError({ code: 'invalid_api_key', detail: 'The X-API-Key header does not carry a valid, unrevoked API key.' });
    }
    if (ratePerSecond > 0) {
      // Token bucket per key: refills at ratePerSecond, holds two seconds' worth.
      const now = Date.now();
      const b = buckets.get(key) ?? { tokens: 2 * ratePerSecond, at: now };
      b.tokens = Math.min(2 * ratePerSecond, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
      b.at = now;
      buckets.set(key, b);
      if (b.tokens < 1) {
        const wait = Math.ceil((1 - b.tokens) / ratePerSecond);
        throw new ApiError({ code: 'rate_limited', detail: `More than ${ratePerSecond} requests per second for this key; retry in ${wait} s.` }, { 'retry-after': String(wait) });
      }
      b.tokens -= 1;
    }
  };
}

/** The key check on every route of the scope it is registered in. */
export function registerAuth(app: FastifyInstance, check: KeyCheck): void {
  app.addHook('onRequest', check);
}
