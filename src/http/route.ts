import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorResponse } from './schemas/common.js';
import { orderParam, pageParams } from './params.js';
import { notFound } from '../lib/errors.js';
import type { Snapshot } from '../query/snapshot.js';
import type { CatalogSnapshot, InstrumentRow } from '../store/catalog.js';
import { INSTRUMENT_KINDS as KINDS, type InstrumentKind } from '../market/kinds.js';
import { normalId } from '../market/ids.js';

const err = Type.Ref(ErrorResponse);
/** Every GET answers a matching If-None-Match (or `*`) with 304 and no body (docs/api.md, Caching). */
export const notModified = Type.Null({ description: 'Not Modified: the ETag in If-None-Match (or `*`) matches; no body.' });

/**
 * What any request to an operation's path may be answered, whatever the operation: 405 to
 * another method than GET or HEAD (plugins/errors.ts, refuseOtherMethods), 408, 431 and 505 from
 * Node's parser (headers too slow or over 16 KiB, another HTTP version: http-edge.ts), 417 to an
 * Expect other than 100-continue (http-edge.ts), 500 internal_error.
 * Declared on every operation, so that a validating proxy passes them (docs/api.md, Errors).
 */
export const anyRequestErrors = (): Record<number, TSchema> => ({ 405: err, 408: err, 417: err, 431: err, 500: err, 505: err });

interface OperationDoc<P extends TProperties> {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  params?: P;
  /** Filters; the page controls are added for collections. */
  query?: TProperties;
  /** Required query parameter names. */
  required?: string[];
  response: TSchema;
  /** Extra error statuses beyond 401 (and 400 for anything with query parameters). */
  notFound?: boolean;
  collection?: boolean;
}

/** Builds a route schema: strict querystring (unknown parameters are 400), documented errors. */
export function operation<P extends TProperties = {}>(doc: OperationDoc<P>) {
  // A collection with a time window is a time series: it can be walked newest first.
  const series = doc.collection && doc.query !== undefined && 'from' in doc.query;
  const queryProps: TProperties = { ...(doc.query ?? {}), ...(series ? orderParam : {}), ...(doc.collection ? pageParams : {}) };
  const q: TObject = Type.Object(queryProps, { additionalProperties: false });
  if (doc.required?.length) (q as any).required = doc.required;
  const response: Record<number, TSchema> = { 200: Type.Ref(doc.response), 304: notModified, 401: err, 400: err };
  if (doc.notFound) response[404] = err;
  // Over a rate limit (docs/operations.md, Rate limits); with Retry-After (http/plugins/rate-limit.ts).
  response[429] = err;
  // The store not answering (docs/api.md, Errors), or ingests committing faster than a response is computed (Consistency).
  response[503] = err;
  Object.assign(response, anyRequestErrors());
  return {
    operationId: doc.operationId,
    tags: doc.tags,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    params: Type.Object(doc.params ?? ({} as P), { additionalProperties: false }),
    querystring: q,
    response,
  };
}

export const instrumentIdParam = {
  instrument_id: Type.String({
    description: 'Instrument id CODE.MARKET, e.g. 600519.SH. Path values longer than 100 characters name nothing: 404.',
  }),
};

/** The first path segment of each kind's operations (CONTRACT.md §1). */
export const KIND_PATHS: Readonly<Record<InstrumentKind, string>> = { equity: 'equities', index: 'indices', fund: 'funds' };
const A_KIND: Readonly<Record<InstrumentKind, string>> = { equity: 'an equity', index: 'an index', fund: 'a fund' };

/** The read snapshot of a data request (http-cache.ts registerDataTags opens one for every GET of the API). */
export function snapOf(req: FastifyRequest): Snapshot {
  if (req.snap === null) throw new Error(`${req.method} ${req.routeOptions.url} has no read snapshot: not a data route`);
  return req.snap;
}

/**
 * The instrument of `kind` named in the request's path, or 404. An id of another kind is not
 * found either, and the detail says where it is (CONTRACT.md §1): the same operation under its
 * kind's path when that kind has it (`/equities/000300.SH/bars` -> `/indices/000300.SH/bars`),
 * else the instrument itself. An id that is not one as written (a bare code `600519`, another
 * case or vendor spelling `600519.sh`, `sh600519`, `600519.XSHG`, full-width digits) is not found
 * either, and the detail suggests the ids it may mean (`did you mean 600519.SH?`) with their paths.
 */
export async function pathInstrument(req: FastifyRequest, kind: InstrumentKind): Promise<InstrumentRow> {
  const id = (req.params as { instrument_id: string }).instrument_id;
  const catalog = snapOf(req).catalog;
  const row = catalog.get(id);
  if (!row) throw notFound(`No ${kind} with id ${id}${suggestion(req, kind, meant(catalog, id))}`);
  if (row.kind !== kind) throw notFound(`${id} is ${A_KIND[row.kind]}: ${whereItIs(req, kind, row.kind, id)}`);
  return row;
}

/**
 * The instruments an id that is none may mean: the id its vendor spelling or case names
 * (`600519.sh`, `sh600519`, `600519.XSHG` -> 600519.SH), or every instrument whose code a bare
 * code is (`600519`; `000001`: 000001.SZ, an equity, and 000001.SH, an index); read after NFKC
 * (full-width `６００５１９`). At most a few, those of the asked kind first.
 */
function meant(catalog: CatalogSnapshot, id: string): InstrumentRow[] {
  const s = id.normalize('NFKC').trim();
  const named = normalId(s);
  const rows = named !== null ? [catalog.get(named)] : /^\d{6}$/.test(s) ? KINDS.flatMap((k) => catalog.list(k, { code: s }, null, 4)) : [];
  return rows.filter((r): r is InstrumentRow => r !== undefined);
}

/** `; did you mean ID?` (or `ID or ID?`) naming each row's path for this request's operation, or nothing. */
function suggestion(req: FastifyRequest, kind: InstrumentKind, rows: InstrumentRow[]): string {
  if (!rows.length) return '';
  const mine = rows.filter((r) => r.kind === kind);
  const shown = (mine.length ? mine : rows).map((r) =>
    r.kind === kind ? `${r.id} (${pathOf(req, kind, r.id)})` : `${r.id}, ${A_KIND[r.kind]} (${whereItIs(req, kind, r.kind, r.id)})`,
  );
  return `; did you mean ${shown.join(' or ')}?`;
}

/** This request's path with the instrument id `id` under `kind`'s path. */
function pathOf(req: FastifyRequest, kind: InstrumentKind, id: string): string {
  const segments = req.url.split('?')[0].split('/');
  segments[3] = KIND_PATHS[kind];
  segments[4] = id;
  return segments.join('/');
}

/** The path of this request's operation for an instrument of kind `to`, or the instrument's own path when `to` has none. */
function whereItIs(req: FastifyRequest, from: InstrumentKind, to: InstrumentKind, id: string): string {
  const route = (req.routeOptions.url ?? '').replace(`/api/v1/${KIND_PATHS[from]}/`, `/api/v1/${KIND_PATHS[to]}/`);
  return req.server.hasRoute({ method: 'GET', url: route }) ? pathOf(req, to, id) : `/api/v1/${KIND_PATHS[to]}/${id}`;
}
