import type { App } from '../../services.js';
import { operation, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { DataVersionCollectionResponse } from '../../schemas/changes.js';
import { afterParam, filterOf, logFilterParams, versionRecord } from './log.js';
import { registerEvents, type StreamLimits } from './events.js';

/** listChanges: the change log, a record per committed data version (docs/api.md, "Changes"); streamEvents, the same as they commit. */
export default async function changeRoutes(app: App, limits: StreamLimits) {
  registerEvents(app, limits);
  app.get(
    '/api/v1/changes',
    {
      schema: operation({
        operationId: 'listChanges',
        tags: ['changes'],
        summary: 'The change log: one record per data version after `after`, ascending, with what it changed.',
        description:
          'Every commit that changes what the service serves (an ingest, a derivation rebuilt, indicators precomputed, the demo built) is a data ' +
          'version, numbered in commit order. A client holding version V (the `Data-Version` header of what it read) reads `?after=V` to learn ' +
          'which datasets, instruments and dates moved since, then refetches only those. `dataset=` and `instrument_id=` keep the versions ' +
          'that changed them. GET /api/v1/events streams the same records as they commit.',
        query: { ...afterParam('the versions after it are listed'), ...logFilterParams },
        response: DataVersionCollectionResponse,
        collection: true,
      }),
    },
    (req, reply) => {
      const q = req.query as { after?: number; dataset?: string; instrument_id?: string };
      const filter = filterOf(q);
      return sendPage(
        req,
        reply,
        app.svc,
        'listChanges',
        ['int'],
        schemaPlan(
          reply,
          DataVersionCollectionResponse,
          (p) => snapOf(req).changeLog(p.after ? p.after[0] : (q.after ?? 0), p.limit, filter),
          (v) => [v.version],
          versionRecord,
        ),
      );
    },
  );
}
