import { InstrumentCollectionResponse, InstrumentResponse } from '../../schemas/reference.js';
import { catalogScope, instrumentScope } from '../../scopes.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, KIND_PATHS, operation, pathInstrument, snapOf } from '../../route.js';
import { KINDS, type InstrumentKind } from '../../../market/kinds.js';
import { rowPlan, sendPage } from '../../collection.js';
import { boardQuery, marketQuery } from '../../params.js';

import { instrumentJson, instrumentRecord } from '../../serialize.js';
import type { InstrumentFilter } from '../../../store/catalog.js';
import { ApiError, invalid } from '../../../lib/errors.js';
import { registerIndexWeights } from './index-weights.js';

/** No control characters (PostgreSQL rejects NUL in text). */
const PRINTABLE = '^[^\\u0000-\\u001f\\u007f]+$';

const ROUTES: { kind: InstrumentKind; path: string; list: string; get: string; noun: string }[] = [
  { kind: 'equity', path: KIND_PATHS.equity, list: 'listEquities', get: 'getEquity', noun: 'equities' },
  { kind: 'index', path: KIND_PATHS.index, list: 'listIndices', get: 'getIndex', noun: 'indices' },
  { kind: 'fund', path: KIND_PATHS.fund, list: 'listFunds', get: 'getFund', noun: 'funds' },
];

/** listEquities/getEquity, listIndices/getIndex, listFunds/getFund: one instrument schema for all; searchInstruments. */
export default async function instrumentRoutes(app: App) {
  registerIndexWeights(app);
  app.get(
    '/api/v1/instruments',
    {
      schema: operation({
        operationId: 'searchInstruments',
        tags: ['instruments'],
        summary: 'Search equities, indices and funds by code, name or pinyin initials, best match first.',
        description:
          'q matches an id or code exactly (600519, 600519.SH), a code prefix (6005), the pinyin initials of the name as Tongdaxin users ' +
          "type them (gzmt for 贵州茅台, payh for 平安银行, hs300 for 沪深300; Tongdaxin's own initials too, where its name tables were " +
          'loaded), a name prefix (贵州), or anything inside the name, the English name or the initials (茅台, moutai), in that order ' +
          'of rank; ties by id. A polyphonic character matches the initial of any of its readings (藏格矿业 by cgky and zgky, 世联行 by ' +
          'slx and slh); q and names are compared in NFKC form without case or spaces (ＧＺＭＴ is gzmt, ６００５１９ is 600519, 万科Ａ ' +
          "and Tongdaxin's padded 万 科Ａ are 万科A). kind narrows to one kind.",
        query: {
          q: Type.String({
            minLength: 1,
            maxLength: 40,
            pattern: PRINTABLE,
            description: 'What to look for: code, id, name or pinyin initials.',
          }),
          kind: Type.Optional(
            Type.Unsafe<InstrumentKind>({ type: 'string', enum: ['equity', 'index', 'fund'], description: 'Only this kind.' }),
          ),
        },
        required: ['q'],
        response: InstrumentCollectionResponse,
        collection: true,
      }),
      config: { behaviour: { scope: catalogScope } },
    },
    (req, reply) => {
      const { q, kind } = req.query as { q: string; kind?: InstrumentKind };
      if (!q.trim()) throw new ApiError([invalid('q', 'q must hold a code, a name or pinyin initials, not only spaces')]);
      return sendPage(
        req,
        reply,
        app.svc,
        'searchInstruments',
        ['int', 'str'],
        rowPlan(
          async (p) => snapOf(req).search.find(q.trim(), kind, p.after, p.limit),
          (f) => [f.rank, f.row.id],
          (w, f) => w.bytes(instrumentJson(f.row)),
        ),
      );
    },
  );

  for (const k of ROUTES) {
    const query = {
      market: Type.Optional(marketQuery),
      ...(KINDS[k.kind].board ? { board: Type.Optional(boardQuery) } : {}),
      code: Type.Optional(
        Type.String({ minLength: 1, maxLength: 16, pattern: PRINTABLE, description: 'Exact exchange code, e.g. 600519.' }),
      ),
      name: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, pattern: PRINTABLE, description: 'Case-insensitive substring of the name.' }),
      ),
    };
    app.get(
      `/api/v1/${k.path}`,
      {
        schema: operation({
          operationId: k.list,
          tags: [k.path],
          summary: `List ${k.noun}, ordered by id.`,
          query,
          response: InstrumentCollectionResponse,
          collection: true,
        }),
        config: { behaviour: { scope: catalogScope } },
      },
      (req, reply) => {
        const f = req.query as InstrumentFilter;
        return sendPage(
          req,
          reply,
          app.svc,
          k.list,
          ['str'],
          rowPlan(
            async (p) => snapOf(req).catalog.list(k.kind, f, p.after === null ? null : p.after[0], p.limit),
            (r) => [r.id],
            (w, r) => w.bytes(instrumentJson(r)),
          ),
        );
      },
    );

    app.get(
      `/api/v1/${k.path}/:instrument_id`,
      {
        schema: operation({
          operationId: k.get,
          tags: [k.path],
          summary: `One ${k.kind}.`,
          params: instrumentIdParam,
          response: InstrumentResponse,
          notFound: true,
        }),
        config: { behaviour: { scope: instrumentScope(['st_periods']) } },
      },
      async (req) => ({ data: instrumentRecord(await pathInstrument(req, k.kind)) }),
    );
  }
}
