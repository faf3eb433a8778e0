import { ClassificationCollectionResponse } from '../../schemas/reference.js';
import type { App } from '../../services.js';
import { operation, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { datasetsScope } from '../../scopes.js';

/** Sectors are industry, concept and region boards; primary industries are the CSRC categories. */
const GROUPS = [
  {
    operationId: 'listSectors',
    path: 'sectors',
    types: ['concept', 'industry', 'region'],
    summary: 'Sectors: industry, concept and region boards.',
  },
  {
    operationId: 'listPrimaryIndustries',
    path: 'primary-industries',
    types: ['primary_industry'],
    summary: 'Primary industries (CSRC industry categories A-S).',
  },
];

export default async function classificationRoutes(app: App) {
  for (const g of GROUPS) {
    app.get(
      `/api/v1/classifications/${g.path}`,
      {
        schema: operation({
          operationId: g.operationId,
          tags: ['classifications'],
          summary: g.summary,
          response: ClassificationCollectionResponse,
          collection: true,
        }),
        config: { behaviour: { scope: datasetsScope(['classifications']) } },
      },
      (req, reply) =>
        sendPage(
          req,
          reply,
          app.svc,
          g.operationId,
          ['str'],
          schemaPlan(
            reply,
            ClassificationCollectionResponse,
            (p) => snapOf(req).reference.classifications(g.types, p),
            (c) => [c.id],
            (c) => c,
          ),
        ),
    );
  }
}
