import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { readFileSync } from 'node:fs';
import { documentRateLimitHeaders } from './rate-limit.js';
import { DOCS_CSP, pageHeaders } from './security-headers.js';
import { documentExamples } from '../openapi/examples.js';
import { documentVersionHeaders } from '../openapi/version-headers.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

const DESCRIPTION = `Read-only reference and market data of the Chinese A-share markets (SH, SZ, BJ).

* Authenticate with the \`X-API-Key\` header (create a key with \`mds keys create --name NAME\`).
* Collections answer \`{data, meta: {next_cursor}, links: {self, next}}\`; pass \`meta.next_cursor\` as \`page[after]\`
  to walk a collection (keyset pagination: no row is lost or repeated). \`page[size]\` is 1..1000, default 100.
* Any collection is also a file: \`Accept: text/csv\` (or \`application/x-ndjson\`; q-values count, RFC 9110) gives the same page in the columns of
  the ingest dataset its records are (\`mds ingest\` loads it back), else of the record's own fields; the next page is in
  \`Link: <url>; rel="next"\`. Errors, and answers that are not collections, are JSON whatever \`Accept\` asks.
* Prices, money and ratios are exact decimal strings; volumes are integers in shares; timestamps are RFC 3339
  in market time (+08:00). Errors are \`{errors: [{status, code, title, detail, source}], meta: {request_id}}\`.`;

/** OpenAPI 3.1 generated from the route schemas, served at /openapi.json, rendered at /docs. */
export const docs = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'market-data-service API', version: pkg.version, description: DESCRIPTION },
        components: { securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
        security: [{ ApiKeyAuth: [] }],
        tags: ['system', 'markets', 'classifications', 'instruments', 'equities', 'indices', 'funds', 'changes'].map((name) => ({ name })),
      },
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
      transformObject: (o) =>
        documentExamples(documentVersionHeaders(documentRateLimitHeaders((o as { openapiObject: object }).openapiObject))),
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      theme: { title: 'market-data-service API' },
      // The page and its files under the pages' Content-Security-Policy (security-headers.ts).
      uiHooks: {
        onRequest: (_req, reply, done) => {
          pageHeaders(reply, DOCS_CSP);
          done();
        },
      },
      // The key entered under "Authorize" is kept across reloads; "Try it out" sends it as X-API-Key.
      // No validator badge: it would send the document's URL to validator.swagger.io.
      uiConfig: {
        validatorUrl: null,
        docExpansion: 'list',
        deepLinking: true,
        persistAuthorization: true,
        tryItOutEnabled: false,
        displayRequestDuration: true,
      },
    });
  },
  { name: 'mds-docs', fastify: '5.x' },
);
