import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../services.js';
import { routeDefaults } from '../../route-config.js';
import { appsJson, widgetsJson, WIDGETS, type WidgetDecl } from '../../openbb/widgets.js';
import { answerWidget } from '../../openbb/adapter.js';

/**
 * An OpenBB Workspace custom backend at /openbb (docs/clients.md, "OpenBB Workspace"):
 * `widgets.json` and `apps.json`, public like the OpenAPI document, and one endpoint per widget
 * (http/openbb/adapter.ts), which reads its operation with the caller's X-API-Key.
 *
 * They are an adapter of the API, not more of it: hidden from the OpenAPI document (and so from
 * the generated clients), described in docs/clients.md and tested in test/openbb.test.ts.
 */
export default async function openbbRoutes(app: App) {
  const [widgets, apps] = [widgetsJson(), appsJson()];
  app.get('/openbb/widgets.json', { schema: { hide: true } }, async () => widgets);
  app.get('/openbb/apps.json', { schema: { hide: true } }, async () => apps);

  await app.register(async (scope) => {
    // What it answers depends on the data and the key: never kept by a cache. The operations it
    // reads say 503 while the store is not ready, as their own answer.
    routeDefaults(scope, { cache: 'no-store' });
    for (const d of WIDGETS) {
      scope.get(`/openbb/${d.id}`, { schema: { hide: true, querystring: widgetQuery(d) }, preValidation: dropEmpty }, (req, reply) =>
        answerWidget(app, d, req, reply),
      );
    }
  });
}

/** The widget's parameters as its endpoint's query: each a string (one of its options where it has them), those in the operation's path required. */
function widgetQuery(d: WidgetDecl) {
  const props: Record<string, TSchema> = {};
  for (const p of d.params) {
    const values = p.options?.map((o) => String(o.value));
    const s = Type.String({ minLength: 1, maxLength: 100, ...(values ? { enum: values } : {}), description: p.description });
    props[p.paramName] = d.source.path.includes(`{${p.paramName}}`) ? s : Type.Optional(s);
  }
  return Type.Object(props, { additionalProperties: false });
}

/** Workspace sends a parameter left empty (a date not chosen) as `name=`: the same as not sending it. */
async function dropEmpty(req: FastifyRequest) {
  const q = req.query as Record<string, unknown>;
  for (const k of Object.keys(q)) if (q[k] === '') delete q[k];
}
