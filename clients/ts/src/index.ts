/**
 * The TypeScript client of market-data-service: openapi-fetch over the types generated from the
 * OpenAPI document (./schema.ts, `npm run clients:generate`), with the API key, retries on 429 and
 * 503, and typed iterators over a collection's pages (paging hidden). docs/clients.md.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';
import { streamEvents, type DataVersionRecord, type EventStreamOptions } from './events.js';

export { SseParser, type DataVersionRecord, type EventQuery, type EventStreamOptions, type SseEvent } from './events.js';

export type { components, operations, paths };
/** The API's records and answers by name: `Schemas['Bar']`, `Schemas['Valuation']`, … */
export type Schemas = components['schemas'];
/** A client whose answers are the JSON of each operation (`mds.GET(path, { params })`). */
export type MdsClient = Client<paths, 'application/json'>;

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (a trailing `/api/v1` is allowed). */
  baseUrl: string;
  /** The API key, sent as `X-API-Key`. */
  key?: string;
  /** Further tries after a 429 or a 503 (default 4). */
  retries?: number;
  /** The first wait in ms when the server gives no Retry-After, doubled each try (default 500). */
  backoffMs?: number;
  /** The longest wait in ms; an answer whose Retry-After asks for more is returned at once (default 60 000). */
  maxWaitMs?: number;
  /** The fetch to use (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait between tries (default a timer). */
  sleep?: (ms: number) => Promise<void>;
}

/** Statuses asked again after a wait: too many requests, and the store (or a worker) unavailable. */
const RETRIED = new Set([429, 503]);

/** A client of the server at `baseUrl` with `key`. */
export function createClient(options: ClientOptions): MdsClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return createFetchClient<paths, 'application/json'>({
    baseUrl,
    headers: options.key ? { 'X-API-Key': options.key } : {},
    fetch: retrying(options),
  });
}

/** Retry-After (RFC 9110: seconds or an HTTP date) in ms, or null. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function retrying(options: ClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const retries = options.retries ?? 4;
  const backoff = options.backoffMs ?? 500;
  const maxWait = options.maxWaitMs ?? 60_000;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await send(request.clone());
      if (!RETRIED.has(response.status) || attempt >= retries) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== null && asked > maxWait) return response;
      await response.body?.cancel();
      await sleep(Math.min(asked ?? backoff * 2 ** attempt, maxWait));
    }
  };
}

/** An answer other than 200: the API's ErrorResponse (its first error), or the status alone. */
export class MdsError extends Error {
  readonly code: string | null;
  readonly detail: string;
  readonly parameter: string | null;
  readonly requestId: string | null;

  constructor(
    readonly status: number,
    body: unknown,
  ) {
    const e = (body as Schemas['ErrorResponse'] | undefined)?.errors?.[0];
    super(`${status} ${e?.code ?? 'error'}: ${e?.detail ?? e?.title ?? ''}`);
    this.name = 'MdsError';
    this.code = e?.code ?? null;
    this.detail = e?.detail ?? '';
    this.parameter = e?.source?.parameter ?? null;
    this.requestId = (body as Schemas['ErrorResponse'] | undefined)?.meta?.request_id ?? null;
  }
}

type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Json<P extends keyof paths> = Get<P> extends { responses: { 200: { content: { 'application/json': infer J } } } } ? J : never;

/** The paths whose GET answers a page of a collection: `{ data: [...], meta: { next_cursor }, links }`. */
export type CollectionPath = {
  [P in keyof paths]: Json<P> extends { data: unknown[]; meta: { next_cursor: string | null } } ? P : never;
}[keyof paths];
/** A page of the collection at `P`. */
export type Page<P extends CollectionPath> = Json<P>;
/** A record of the collection at `P`: `Row<'/api/v1/equities/{instrument_id}/bars'>` is a Bar. */
export type Row<P extends CollectionPath> = Page<P> extends { data: (infer R)[] } ? R : never;

type Params<P extends CollectionPath> = Get<P> extends { parameters: infer X } ? X : never;
type Query<P extends CollectionPath> = Params<P> extends { query?: infer Q } ? Omit<NonNullable<Q>, 'page[after]'> : {};
/** A collection's parameters as openapi-fetch takes them (`path`, `query`), paging's `page[after]` aside. */
export type PageParams<P extends CollectionPath> = Omit<Params<P>, 'query' | 'header' | 'cookie'> &
  ({} extends Query<P> ? { query?: Query<P> } : { query: Query<P> });
type ParamsArg<P extends CollectionPath> = {} extends PageParams<P> ? [params?: PageParams<P>] : [params: PageParams<P>];

/**
 * The pages of a collection, first to last: each asked with `page[after]` = the previous page's
 * `meta.next_cursor` (links.next), until it is null. A non-200 answer throws an MdsError.
 */
export async function* pages<P extends CollectionPath>(client: MdsClient, path: P, ...[params]: ParamsArg<P>): AsyncGenerator<Page<P>> {
  const given = (params ?? {}) as { query?: Record<string, unknown> };
  let after: string | null = null;
  do {
    const query = after === null ? given.query : { ...given.query, 'page[after]': after };
    const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: Page<P>; error?: unknown; response: Response }>;
    const { data, error, response } = await get(path, { params: { ...given, query } });
    if (data === undefined) throw new MdsError(response.status, error);
    yield data;
    after = (data as { meta: { next_cursor: string | null } }).meta.next_cursor;
  } while (after !== null);
}

/** The records of a collection, every page's in turn. */
export async function* rows<P extends CollectionPath>(client: MdsClient, path: P, ...params: ParamsArg<P>): AsyncGenerator<Row<P>> {
  for await (const page of pages(client, path, ...params)) yield* (page as { data: Row<P>[] }).data;
}

/** Every record of a collection, in one array. */
export async function all<P extends CollectionPath>(client: MdsClient, path: P, ...params: ParamsArg<P>): Promise<Row<P>[]> {
  const out: Row<P>[] = [];
  for await (const row of rows(client, path, ...params)) out.push(row);
  return out;
}

/**
 * Each committed data version's record as it comes (GET /api/v1/events), once and in order: the
 * stream is opened again after an end or a lost connection with Last-Event-ID, so a server's
 * restart misses nothing. `query.after`: the version held (absent: from now); `dataset`,
 * `instrument_id`: filters. Ends when `signal` aborts (or break out of the loop); throws an
 * MdsError on any answer but 200 and when the key is revoked.
 */
export function events(options: EventStreamOptions): AsyncGenerator<DataVersionRecord> {
  return streamEvents(options, { fail: (status, body) => new MdsError(status, body), retryAfterMs: (v) => retryAfterMs(v) });
}
