/**
 * Collections of datasets served as their rows (datasets/dataset.ts, `record`): an equity's
 * rows in natural-key order, each written as its declared record; served.ts registers one per
 * served dataset and kind.
 */
import type { FastifyReply } from 'fastify';
import { instrumentScope } from '../../scopes.js';
import type { TObject } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, KIND_PATHS, operation, pathInstrument, snapOf } from '../../route.js';
import { rowPlan, schemaPlan, sendPage, type SentPlan } from '../../collection.js';
import { dateQuery, dateWindowParams, dayOrWindow } from '../../params.js';
import { ApiError, invalid } from '../../../lib/errors.js';
import { parseDate } from '../../../lib/time.js';

import { Type } from '@sinclair/typebox';
import type { KeyPart } from '../../cursor.js';
import { recordColumns, type RecordDataset } from '../../schemas/declared.js';
import { recordWriter, type FieldSpec, type RecordWriter } from '../../../render/record-writer.js';
import { formatScaled } from '../../../lib/decimal.js';
import { formatDate } from '../../../lib/time.js';
import type { ColumnSpec } from '../../../datasets/dataset.js';
import type { ServedDataset } from '../../../datasets/registry.js';
import type { InstrumentKind } from '../../../market/kinds.js';
import type { PageRequest } from '../../../store/readers/page.js';

type Row = Record<string, any>;

/** The cursor part of a sort-key column. */
export function keyPart(c: ColumnSpec): KeyPart {
  if (c.type === 'date') return 'date';
  if (c.type === 'integer') return 'int';
  if (c.type === 'text' || c.type === 'enum') return 'str';
  throw new Error(`column ${c.name} (${c.type}) cannot be a cursor key`);
}

/** A record's field as a value of its JSON (the instrument: its id). */
function fieldValue(c: ColumnSpec): (r: Row, id: string) => unknown {
  const k = c.column;
  if (c.type === 'instrument_id') return (_r, id) => id;
  if (c.type === 'date') return (r) => (r[k] === null ? null : formatDate(r[k]));
  if (c.scale !== undefined) {
    const { scale, digits = scale } = c;
    return (r) => (r[k] === null ? null : formatScaled(r[k], scale, digits));
  }
  if (c.type === 'integer') return (r) => (r[k] === null ? null : Number(r[k]));
  return (r) => r[k];
}

/** The same field for the byte writer (render/record-writer.ts). */
function fieldSpec(c: ColumnSpec): FieldSpec<Row, string> {
  const key = c.name,
    k = c.column;
  if (c.type === 'instrument_id') return { key, string: (_r, id) => id };
  if (c.type === 'date') return { key, date: (r) => r[k] };
  if (c.scale !== undefined) return { key, scaled: (r) => r[k], scale: c.scale, digits: c.digits ?? c.scale };
  if (c.type === 'integer') return { key, integer: (r) => (r[k] === null ? null : Number(r[k])) };
  return { key, string: (r) => r[k] };
}

/** The page plan of a declared dataset's rows for the instrument `id` (one per request). */
export type DeclaredPlan = <K extends unknown[]>(
  reply: FastifyReply,
  id: string,
  fetch: (p: PageRequest<K>) => Promise<readonly Row[]>,
  key: (r: Row) => K,
) => SentPlan<K>;

/**
 * How a declared dataset's records are written, made once per route. Records without free text
 * are written straight into the body (render/record-writer.ts); those with text (names,
 * summaries in Chinese) by Fastify's serialiser of the record schema, which sends UTF-8 as is.
 */
export function declaredPlan(d: RecordDataset, response: TObject): DeclaredPlan {
  if (recordColumns(d).some((c) => c.type === 'text')) {
    const item = declaredItem(d);
    return (reply, id, fetch, key) => schemaPlan(reply, response as never, fetch, key, (r) => item(r, id));
  }
  const write = declaredWriter(d);
  return (_reply, id, fetch, key) => rowPlan(fetch, key, (w, r) => write(w, r, id));
}

/** A stored row of `d` as its API record's JSON value, in the context of the instrument's id. */
export function declaredItem(d: RecordDataset): (r: Row, id: string) => Record<string, unknown> {
  const values = recordColumns(d).map((c) => [c.name, fieldValue(c)] as const);
  return (r, id) => Object.fromEntries(values.map(([n, v]) => [n, v(r, id)]));
}

/** A stored row of `d` written as its API record's JSON bytes (ASCII; text escaped). */
export function declaredWriter(d: RecordDataset): RecordWriter<Row, string> {
  return recordWriter(recordColumns(d).map(fieldSpec));
}

const DATE_DOCS = {
  day: 'One trading day. Not with from/to.',
  'in-force': 'A day: the record in force then (the latest on or before it). Not with from/to.',
} as const;
/** More rows than an instrument has of a change dataset. */
const MAX_ROWS = 100_000;

/** `as_of` of a versioned dataset (datasets/dataset.ts `versions`: statements and their restatements). */
const AS_OF_DOC =
  'A day: each period as known then, i.e. its latest version announced on or before it (a restatement announced later is not yet seen); periods not announced by then are absent. Default: the latest version of every period.';

/** The `as_of` day, or null when not given; 400 naming it when it is not a date. */
function asOfDay(q: { as_of?: string }): number | null {
  if (q.as_of === undefined) return null;
  const d = parseDate(q.as_of);
  if (d === null) throw new ApiError([invalid('as_of', 'as_of must be a date (YYYY-MM-DD)')]);
  return d;
}

/** The query parameters of an operation: from/to (and date) on its window column, as_of on a versioned dataset. */
function queryParams(d: ServedDataset) {
  const op = d.serve;
  if (op.window === undefined) return {};
  return {
    query: {
      ...dateWindowParams,
      ...(op.date ? { date: Type.Optional(dateQuery(DATE_DOCS[op.date])) } : {}),
      ...(d.versions ? { as_of: Type.Optional(dateQuery(AS_OF_DOC)) } : {}),
    },
  };
}

/**
 * Registers the collection of served dataset `d` (datasets/dataset.ts `serve`) for instruments of
 * `kind`: an instrument's rows by natural key, under /api/v1/{kind path}/{instrument_id}/{segment}.
 */
export function registerDeclared(app: App, d: ServedDataset, kind: InstrumentKind, response: TObject) {
  const op = d.serve;
  // The instrument's records in key order; a versioned dataset's record is its key without the
  // version (one record per period, whichever version is served), so its cursors stay valid
  // when a restatement is loaded mid-walk.
  const sortKey = d.key
    .slice(1)
    .filter((k) => k !== d.versions)
    .map((k) => d.columns[d.ix[k]]);
  const parts = sortKey.map(keyPart);
  const columns = sortKey.map((c) => c.column);
  const window = op.window === undefined ? null : d.columns[d.ix[op.window]].column;
  const plan = declaredPlan(d, response);
  app.get(
    `/api/v1/${KIND_PATHS[kind]}/:instrument_id/${op.segment}`,
    {
      schema: operation({
        operationId: op.operationId,
        tags: [KIND_PATHS[kind]],
        summary: op.summary,
        description: op.description,
        params: instrumentIdParam,
        ...queryParams(d),
        response,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope([d.name]) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, kind);
      const q = req.query as { from?: string; to?: string; date?: string; as_of?: string };
      const w = dayOrWindow(q);
      const inForce = w.day && op.date === 'in-force';
      const range = window ? { column: window, from: inForce ? 0 : w.from, to: w.to } : null;
      const asOf = asOfDay(q);
      const fetch = inForce
        ? // The latest row on or before the date: an instrument's changes are few, read in one go.
          async (p: PageRequest<unknown[]>) =>
            p.after ? [] : (await snapOf(req).keyset.rows(d, inst.inst, range, { after: null, limit: MAX_ROWS })).slice(-1)
        : d.versions
          ? (p: PageRequest<unknown[]>) => snapOf(req).keyset.latest(d, inst.inst, range, asOf, p)
          : (p: PageRequest<unknown[]>) => snapOf(req).keyset.rows(d, inst.inst, range, p);
      return sendPage(
        req,
        reply,
        app.svc,
        op.operationId,
        parts,
        plan(reply, inst.id, fetch, (r) => columns.map((c) => r[c])),
      );
    },
  );
}
