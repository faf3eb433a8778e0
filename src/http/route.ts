import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { ErrorResponse } from './schemas/common.js';
import { pageParams } from './params.js';
import { notFound } from '../lib/errors.js';
import type { Services } from './services.js';
import type { InstrumentRow } from '../store/catalog.js';
import type { InstrumentKind } from '../market/kinds.js';

const err = Type.Ref(ErrorResponse);
/** Every GET answers a matching If-None-Match (or `*`) with 304 and no body (docs/api.md, Caching). */
export const notModified = Type.Null({ description: 'Not Modified: the ETag in If-None-Match (or `*`) matches; no body.' });

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
  const queryProps: TProperties = { ...(doc.query ?? {}), ...(doc.collection ? pageParams : {}) };
  const q: TObject = Type.Object(queryProps, { additionalProperties: false });
  if (doc.required?.length) (q as any).required = doc.required;
  const response: Record<number, TSchema> = { 200: Type.Ref(doc.response), 304: notModified, 401: err, 400: err };
  if (doc.notFound) response[404] = err;
  // Over a rate limit (docs/operations.md, Rate limits); with Retry-After (http/plugins/rate-limit.ts).
  response[429] = err;
  // The store not answering (docs/api.md, Errors), or ingests committing faster than a response is computed (Consistency).
  response[503] = err;
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
  instrument_id: Type.String({ description: 'Instrument id CODE.MARKET, e.g. 600519.SH. Path values longer than 100 characters name nothing: 404.' }),
};

/** The instrument of `kind` named in the path, or 404 (an id of another kind is not found). */
export async function pathInstrument(svc: Services, id: string, kind: InstrumentKind): Promise<InstrumentRow> {
  const row = await svc.catalog.get(id);
  if (!row || row.kind !== kind) throw notFound(`No ${kind} with id ${id}`);
  return row;
}
