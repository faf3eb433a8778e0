import { PoolTypeCollectionResponse } from '../../schemas/analytics.js';
import type { App } from '../../services.js';
import { operation } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { datasetsScope } from '../../scopes.js';

import { POOL_TYPES } from '../../../market/pool-types.js';

/** listPoolTypes: the six stock pools and their rules. */
export default async function poolTypeRoutes(app: App) {
  app.get(
    '/api/v1/equities/pools',
    {
      schema: operation({
        operationId: 'listPoolTypes',
        tags: ['equities'],
        summary: 'Stock pool types and their membership rules.',
        response: PoolTypeCollectionResponse,
        collection: true,
      }),
      // The pool types ship with the service: only a rebuild the log cannot place changes them.
      config: { behaviour: { scope: datasetsScope([]) } },
    },
    (req, reply) =>
      sendPage(
        req,
        reply,
        app.svc,
        'listPoolTypes',
        ['str'],
        schemaPlan(
          reply,
          PoolTypeCollectionResponse,
          async (p) => {
            const start = p.after ? POOL_TYPES.findIndex((t) => t.id === p.after![0]) + 1 : 0;
            return POOL_TYPES.slice(start, start + p.limit);
          },
          (t) => [t.id],
          (t) => t,
        ),
      ),
  );
}
