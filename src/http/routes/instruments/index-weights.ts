/**
 * listIndexConstituents and listIndexMemberships (datasets/index-weights.ts): an index's members
 * and weights in force on a day (the latest weight date on or before it), or every weight date of
 * a window; the indices an equity was in.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { instrumentScope } from '../../scopes.js';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import { dateQuery, dateWindowParams, dayOrWindow } from '../../params.js';
import { IndexWeightCollectionResponse } from '../../schemas/index-weights.js';
import { formatDate } from '../../../lib/time.js';
import { WEIGHT } from '../../../datasets/index-weights.js';
import type { IndexWeightTable } from '../../../store/schema-fundamentals.js';
import type { CatalogSnapshot } from '../../../store/catalog.js';
import type { PageRequest } from '../../../store/readers/page.js';
import type { IndexWeightReader } from '../../../store/readers/index-weights.js';
import type { KeyPart } from '../../cursor.js';

const scope = instrumentScope(['index_weights']);

/** A weight row as its record (ids from the snapshot's catalog). */
const item = (catalog: CatalogSnapshot) => (r: IndexWeightTable) => ({
  index_id: catalog.byInst.get(r.index_inst)?.id ?? null,
  instrument_id: catalog.byInst.get(r.inst)?.id ?? null,
  trade_date: formatDate(r.trade_date),
  // A decimal's text needs no resolver (only instrument columns do).
  weight: WEIGHT.format(r.weight, null as never),
});

/** The rows of a list after a cursor of one integer key, `limit` of them. */
const after = (rows: readonly IndexWeightTable[], key: (r: IndexWeightTable) => number, p: PageRequest<unknown[]>) =>
  rows.filter((r) => p.after === null || key(r) > (p.after[0] as number)).slice(0, p.limit);

/** How a route reads its rows: on one day (keyed by one column), or dated in a window (keyed by date and one column). */
interface Modes {
  onDay: (day: number | null) => Promise<IndexWeightTable[]>;
  onDayKey: (r: IndexWeightTable) => number;
  window: (from: number, to: number, p: PageRequest<unknown[]>) => Promise<IndexWeightTable[]>;
  windowKey: (r: IndexWeightTable) => number;
}

interface Query {
  from?: string;
  to?: string;
  date?: string;
}

/**
 * Sends weight rows: those in force on one day (`date`, or the latest when neither `date` nor
 * from/to is given), keyed by `onDay`, or those dated in a window, keyed by (date, `inWindow`).
 */
function send(app: App, req: FastifyRequest, reply: FastifyReply, operationId: string, modes: Modes) {
  const q = req.query as Query;
  const w = dayOrWindow(q);
  const toItem = item(snapOf(req).catalog);
  if (w.day || (q.from === undefined && q.to === undefined)) {
    const rows = modes.onDay(w.day ? w.from : null);
    const parts: KeyPart[] = ['int'];
    return sendPage(
      req,
      reply,
      app.svc,
      operationId,
      parts,
      schemaPlan(
        reply,
        IndexWeightCollectionResponse,
        async (p) => after(await rows, modes.onDayKey, p),
        (r) => [modes.onDayKey(r)],
        toItem,
      ),
    );
  }
  const parts: KeyPart[] = ['date', 'int'];
  return sendPage(
    req,
    reply,
    app.svc,
    operationId,
    parts,
    schemaPlan(
      reply,
      IndexWeightCollectionResponse,
      (p) => modes.window(w.from, w.to, p),
      (r) => [r.trade_date, modes.windowKey(r)],
      toItem,
    ),
  );
}

const query = {
  ...dateWindowParams,
  date: Type.Optional(
    dateQuery('A day: the members in force then, i.e. those of the latest weight date on or before it. Not with from/to.'),
  ),
};

/** A GET of weight rows of the instrument of `kind` in the path, read by `modes`. */
function route(
  app: App,
  doc: { path: string; operationId: string; tags: string[]; summary: string; description: string },
  kind: 'index' | 'equity',
  modes: (weights: IndexWeightReader, inst: number) => Modes,
) {
  app.get(
    doc.path,
    {
      schema: operation({
        operationId: doc.operationId,
        tags: doc.tags,
        summary: doc.summary,
        description: doc.description,
        params: instrumentIdParam,
        query,
        response: IndexWeightCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope } },
    },
    async (req, reply) => {
      const row = await pathInstrument(req, kind);
      return send(app, req, reply, doc.operationId, modes(snapOf(req).indexWeights, row.inst));
    },
  );
}

export function registerIndexWeights(app: App) {
  route(
    app,
    {
      path: '/api/v1/indices/:instrument_id/constituents',
      operationId: 'listIndexConstituents',
      tags: ['indices'],
      summary: 'Members of an index and their weights in force on a day, or every weight date of a window.',
      description:
        'With `date`: the members in force that day, i.e. those of the index’s latest weight date on or before it (none before its first), ' +
        'ordered by member; without `date`, `from` or `to`: those of its latest weight date. With from/to: every weight date of the window with ' +
        'its members, ascending by date then member, so a review shows as the members that differ between two dates. Members without ' +
        'survivorship bias: an equity delisted since is still a member of the dates it was in.',
    },
    'index',
    (weights, index) => ({
      onDay: (day) => weights.membersOn(index, day),
      onDayKey: (r) => r.inst,
      window: (from, to, p) => weights.rows(index, from, to, p),
      windowKey: (r) => r.inst,
    }),
  );

  route(
    app,
    {
      path: '/api/v1/equities/:instrument_id/index-memberships',
      operationId: 'listIndexMemberships',
      tags: ['equities'],
      summary: 'The indices an equity was a member of on a day, with its weights, or its weight rows of a window.',
      description:
        'With `date`: of each index, the weight date in force that day (its latest on or before it) and the equity’s row of it, when it was a member then; ' +
        'ordered by index. Without `date`, `from` or `to`: as of the indices’ latest weight dates. With from/to: every weight row of the equity dated in ' +
        'the window, ascending by date then index.',
    },
    'equity',
    (weights, equity) => ({
      onDay: (day) => weights.membershipsOn(equity, day),
      onDayKey: (r) => r.index_inst,
      window: (from, to, p) => weights.ofMember(equity, from, to, p),
      windowKey: (r) => r.index_inst,
    }),
  );
}
