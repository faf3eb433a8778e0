import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * CORS for the origins of CORS_ORIGINS (docs/operations.md, "Browsers on other origins"): a page
 * of one of them (OpenBB Workspace at https://pro.openbb.co, docs/clients.md) may read this
 * service's answers, errors included, sending its X-API-Key. The service is read-only and keys
 * travel in a header, never a cookie, so no credentials mode is allowed.
 *
 * - A request from an allowed origin is answered with `Access-Control-Allow-Origin` (the origin,
 *   or `*` when any is allowed) and the headers it may read.
 * - Its preflight (OPTIONS with Access-Control-Request-Method GET or HEAD) is answered 204 with the
 *   methods and the headers asked for, and `Access-Control-Allow-Private-Network` when asked
 *   (Chrome's Private Network Access: a public page calling a server on a private address or
 *   localhost). Any other OPTIONS is refused as every other method (405).
 * - With origins configured, every response says `Vary: Origin`.
 */
const EXPOSED = 'Data-Version, Data-Version-Cursor, Data-Notice, ETag, Retry-After, X-Request-Id';
const PREFLIGHT_MAX_AGE_S = 600;
const SIMPLE_METHODS = new Set(['GET', 'HEAD']);

/** The origin to allow for `origin`, or null. */
export const allowedOrigin = (origins: readonly string[], origin: string | undefined): string | null =>
  origin === undefined ? null : origins.includes('*') ? '*' : origins.includes(origin) ? origin : null;

function preflight(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const asked = req.headers['access-control-request-headers'];
  reply.header('access-control-allow-methods', 'GET, HEAD').header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S));
  if (typeof asked === 'string' && asked !== '') reply.header('access-control-allow-headers', asked);
  if (req.headers['access-control-request-private-network'] === 'true') reply.header('access-control-allow-private-network', 'true');
  return reply.code(204).send();
}

export const cors = fp<{ origins: readonly string[] }>(
  async (app, { origins }) => {
    if (!origins.length) return;
    app.addHook('onRequest', async (req, reply) => {
      const allow = allowedOrigin(origins, req.headers.origin);
      if (allow === null) return;
      reply.header('access-control-allow-origin', allow).header('access-control-expose-headers', EXPOSED);
      const method = req.headers['access-control-request-method'];
      if (req.method === 'OPTIONS' && typeof method === 'string' && SIMPLE_METHODS.has(method.toUpperCase())) return preflight(req, reply);
    });
    // After the cache headers' Vary (http-cache.ts), which it extends.
    app.addHook('onSend', async (_req, reply, payload) => {
      const vary = reply.getHeader('vary');
      if (typeof vary !== 'string' || !/\bOrigin\b/i.test(vary)) reply.header('vary', vary ? `${String(vary)}, Origin` : 'Origin');
      return payload;
    });
  },
  { name: 'mds-cors', fastify: '5.x' },
);
