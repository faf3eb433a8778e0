import type { App } from '../../services.js';
import { instrumentScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage, pageOfList } from '../../collection.js';
import { TextEntryCollectionResponse } from '../../schemas/company.js';
import { businessScope } from '../../../datasets/fundamentals.js';
import { compiled } from '../../../datasets/registry.js';

const SCOPE = compiled(businessScope);

/** listBusinessScope and listSectorMemberships: lists of text entries. */
export function registerTextEntries(app: App) {
  app.get(
    '/api/v1/equities/:instrument_id/business-scope',
    {
      schema: operation({
        operationId: 'listBusinessScope',
        tags: ['equities'],
        summary: 'Business scope: main business, products and licensed scope.',
        params: instrumentIdParam,
        response: TextEntryCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['business_scope']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      return sendPage(
        req,
        reply,
        app.svc,
        'listBusinessScope',
        ['int'],
        schemaPlan(
          reply,
          TextEntryCollectionResponse,
          (p) => snapOf(req).keyset.rows(SCOPE, inst.inst, null, p),
          (r) => [r.seq],
          (r) => ({ instrument_id: inst.id, seq: r.seq, type: r.type, text: r.text, classification_id: null }),
        ),
      );
    },
  );

  app.get(
    '/api/v1/equities/:instrument_id/sector-memberships',
    {
      schema: operation({
        operationId: 'listSectorMemberships',
        tags: ['equities'],
        summary: 'The classifications an equity belongs to (industry, CSRC primary industry, concepts, region), by classification id.',
        description: 'Read from the classification membership table that also feeds /classifications.',
        params: instrumentIdParam,
        response: TextEntryCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['instrument_classifications', 'classifications']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      return sendPage(
        req,
        reply,
        app.svc,
        'listSectorMemberships',
        ['str'],
        schemaPlan(
          reply,
          TextEntryCollectionResponse,
          async (p) => {
            // An equity has a handful of memberships: read them all, number them, and page in memory.
            const all = (await snapOf(req).fundamentals.sectorMemberships(inst.inst)).map((c, i) => ({ ...c, seq: i + 1 }));
            return pageOfList(all, (c) => c.id, p);
          },
          (r) => [r.id],
          (r) => ({ instrument_id: inst.id, seq: r.seq, type: r.type, text: r.name, classification_id: r.id }),
        ),
      );
    },
  );
}
