import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import type { KeyStore } from '../../auth/keys.js';

/**
 * X-API-Key on every route of the scope it is registered in (spec §5). Runs on request,
 * before validation, so an unauthenticated caller learns nothing about parameters.
 */
export function registerAuth(app: FastifyInstance, keys: KeyStore): void {
  app.addHook('onRequest', async (req) => {
    const key = req.headers['x-api-key'];
    if (key === undefined || key === '') {
      throw new ApiError({ code: 'missing_api_key', detail: 'Send your API key in the X-API-Key header (create one with `mds keys create --name NAME`).' });
    }
    if (typeof key !== 'string' || !(await keys.verify(key))) {
      throw new ApiError({ code: 'invalid_api_key', detail: 'The X-API-Key header does not carry a valid, unrevoked API key.' });
    }
  });
}
