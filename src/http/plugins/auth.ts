import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import type { KeyStore } from '../../auth/keys.js';

/**
 * X-API-Key on every route of the scope it is registered in (spec §5). Runs on request,
 * before validation, so an unauthenticated caller learns nothing about parameters.
 */
export function registerAuth(app: FastifyInstance, keys: KeyStore, ratePerSecond = 0): void {
  const buckets = new Map<string, { tokens: number; at: number }>();
  app.addHook('onRequest', async (req) => {
    const key = req.headers['x-api-key'];
    if (key === undefined || key === '') {
      throw new ApiError({ code: 'missing_api_key', detail: 'Send your API key in the X-API-Key header (create one with `mds keys create --name NAME`).' });
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
  });
}
