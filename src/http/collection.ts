import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { CursorCodec, KeyPart } from './cursor.js';
import type { JsonBytes, Renderer } from '../render/json-bytes.js';
import type { PageRequest } from '../store/readers/page.js';
import { rowPage, type FetchedPage, type PagePlan } from '../query/plan.js';
import { FILE_TYPES, fileFormat, fileText, type FileFormat } from './file-format.js';
import { FILE_SHAPES, fileShape } from './file-shapes.js';
import { arrowFields } from './arrow-shape.js';
import { arrowStream } from '../render/arrow.js';
import { MAX_DESC_RECORDS } from './params.js';
import { ApiError, invalid } from '../lib/errors.js';

/** The values of a sort key of `parts`: numbers for dates, times and ints, strings for str. */
export type KeyOf<S extends readonly KeyPart[]> = { -readonly [I in keyof S]: S[I] extends 'str' ? string : number };

/** Query parameters that never belong to a cursor's fingerprint. */
const PAGE_KEYS = new Set(['page[size]', 'page[after]']);

/**
 * The identity of a query for cursor binding: operation, path parameters and filters
 * (everything but the page controls, so the page size may change mid-walk). A parameter at its
 * documented default (`defaults`, its schema's `default`) is the same query as one without it:
 * `adjustment=none` written out or not binds alike.
 */
export function fingerprint(
  operationId: string,
  params: object,
  query: Record<string, unknown>,
  defaults: Record<string, unknown> = {},
): string {
  const q = Object.keys(query)
    .filter((k) => !PAGE_KEYS.has(k) && !(k in defaults && String(query[k]) === String(defaults[k])))
    .sort()
    .map((k) => `${k}=${String(query[k])}`);
  return `${operationId}|${JSON.stringify(params)}|${q.join('&')}`;
}

const defaultsBySchema = new WeakMap<object, Record<string, unknown>>();

/** The defaults of the query parameters of a request's route, from its querystring schema. */
function queryDefaults(req: FastifyRequest): Record<string, unknown> {
  const schema = req.routeOptions.schema?.querystring as { properties?: Record<string, { default?: unknown }> } | undefined;
  if (!schema) return {};
  let d = defaultsBySchema.get(schema);
  if (d === undefined) {
    d = Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([, s]) => s.default !== undefined)
        .map(([k, s]) => [k, s.default]),
    );
    defaultsBySchema.set(schema, d);
  }
  return d;
}

/** Rebuilds the request URL with `page[after]` set to `cursor` (other parameters kept in order). */
export function linkWithCursor(url: string, cursor: string): string {
  const qi = url.indexOf('?');
  const path = qi < 0 ? url : url.slice(0, qi);
  const parts =
    qi < 0
      ? []
      : url
          .slice(qi + 1)
          .split('&')
          .filter((p) => {
            const k = decodeURIComponent(p.split('=')[0].replace(/\+/g, ' '));
            return p !== '' && k !== 'page[after]';
          });
  parts.push(`page[after]=${cursor}`);
  return `${path}?${parts.join('&')}`;
}

/** Where pages are written and their cursors signed: the app's (http/services.ts). */
export interface PageOutput {
  codec: CursorCodec;
  renderer: Renderer;
}

const OPEN = Buffer.from('{"data":[');
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A page plan as the send path takes it. `text`: the body goes out as a string, as Fastify's
 * schema serialiser sent it (schemaPlan), because the compression threshold (http-cache.ts)
 * counts a string's UTF-16 units and a Buffer's bytes: bodies with text past ASCII near the
 * threshold stay compressed, or not, as they were.
 */
export interface SentPlan<K extends unknown[]> extends PagePlan<K> {
  readonly text?: boolean;
  /** Why a first page is empty, when the route can say (bars past the store's data): `meta.notice` and `Data-Notice`. */
  readonly notice?: () => Promise<string | null>;
}

/**
 * Answers one keyset page of any collection: decodes `page[after]` (its key checked against the
 * operation's sort key `parts`, cursor.ts), has `plan` fetch size+1 records after it, and writes
 * the first `size` inside the collection envelope, into one body of the app's renderer; the
 * cursor of the next page is the key of the last record served, and the data version the page
 * was read at (docs/api.md, "Consistency"): a page read from a cursor of another version says
 * so in `Data-Version-Cursor`. Every paged route answers here.
 *
 * @example
 * return sendPage(req, reply, app.svc, 'listBars', ['time', 'date'], planBars(app.svc, ask));
 */
export async function sendPage<const S extends readonly KeyPart[]>(
  req: FastifyRequest,
  reply: FastifyReply,
  out: PageOutput,
  operationId: string,
  parts: S,
  plan: SentPlan<KeyOf<S>>,
): Promise<FastifyReply> {
  const query = req.query as Record<string, unknown>;
  const size = (query['page[size]'] as number | undefined) ?? 100;
  const fp = fingerprint(operationId, req.params as object, query, queryDefaults(req));
  const cursor = query['page[after]'] as string | undefined;
  // The version of what the page shows (the last that changed it, http-cache.ts pageVersion): what its cursor names.
  const version = req.snap === null ? 0 : (req.pageVersion ?? req.snap.version);
  let after: KeyOf<S> | null = null;
  if (cursor !== undefined) {
    const key = out.codec.decode<[...KeyOf<S>, number]>(cursor, fp, [...parts, 'int']);
    const issued = key.pop() as number;
    // A cursor names the version its page was read at: 1 or more, and none the store has not reached.
    if (req.snap !== null && (issued < 1 || issued > req.snap.version)) throw outOfVersions(issued, req.snap.version);
    // The walk's data changed since its cursor was issued.
    if (issued !== version) reply.header('data-version-cursor', String(issued));
    after = key as unknown as KeyOf<S>;
  }
  if (query.order === 'desc') return sendNewestFirst(req, reply, out, operationId, fp, version, plan, after, size);
  const page = await plan.fetch({ after, limit: size + 1 });
  const fetched = page.records.keys.length;
  const count = Math.min(fetched, size);
  const next = fetched > size ? out.codec.encode([...page.key(count - 1), version], fp) : null;
  const notice = await noticeOf(reply, plan, count === 0 && after === null);
  // A file asked for by Accept (JSON requests pay this one test of a header they rarely send).
  if (req.headers.accept !== undefined) {
    const format = fileFormat(req.headers.accept);
    if (format && operationId in FILE_SHAPES) return sendFilePage(req, reply, out, operationId, format, page, count, next);
  }
  const body = out.renderer.render((w) => {
    w.bytes(OPEN);
    page.records.write(w, count);
    w.utf8(tail(next, req.url, notice));
  });
  // Return the reply: an async handler that resolves to undefined while async onSend hooks
  // still run would make Fastify send an empty body.
  return reply.type(JSON_TYPE).send(plan.text ? body.toString('utf8') : body);
}

/** A signed cursor naming a data version no page was read at: 0, or one above the store's (`latest`). */
function outOfVersions(issued: number, latest: number): ApiError {
  return new ApiError({
    code: 'invalid_cursor',
    parameter: 'page[after]',
    detail: `page[after] names data version ${issued}, which no page of this store was read at (its versions are 1..${latest}); restart the walk without page[after]`,
  });
}

/** Records a newest-first walk reads per fetch of its window. */
const DESC_CHUNK = 1000;

/** Lexicographic order of two cursor keys. */
function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number | string) < (b[i] as number | string) ? -1 : 1;
  return 0;
}

/**
 * A page of a time series walked newest first (`order=desc`, docs/api.md "Newest first"): the
 * plan reads the window oldest first, in chunks (at most MAX_DESC_RECORDS records, else 400),
 * and the page is the `size` records before the cursor's in reverse. The records are those the
 * oldest-first pages hold (read back from their JSON); the cursor is the key of the last served.
 */
async function sendNewestFirst<K extends unknown[]>(
  req: FastifyRequest,
  reply: FastifyReply,
  out: PageOutput,
  operationId: string,
  fp: string,
  version: number,
  plan: SentPlan<K>,
  after: K | null,
  size: number,
): Promise<FastifyReply> {
  const records: unknown[] = [],
    keys: K[] = [];
  for (let from: K | null = null; ;) {
    const page = await plan.fetch({ after: from, limit: DESC_CHUNK });
    const n = page.records.keys.length;
    records.push(...readRecords(out, page, n));
    for (let i = 0; i < n; i++) keys.push(page.key(i));
    if (records.length > MAX_DESC_RECORDS)
      throw new ApiError([
        invalid(
          'order',
          `order=desc reads the whole window, and it holds more than ${MAX_DESC_RECORDS.toLocaleString('en-US')} records: narrow it with from/to`,
        ),
      ]);
    if (n < DESC_CHUNK) break;
    from = page.key(n - 1);
  }
  records.reverse();
  keys.reverse();
  const start = after === null ? 0 : keys.findIndex((k) => compareKeys(k, after) < 0);
  const at = start < 0 ? records.length : start;
  const served = records.slice(at, at + size);
  const next = records.length > at + size ? out.codec.encode([...keys[at + size - 1], version], fp) : null;
  const notice = await noticeOf(reply, plan, served.length === 0 && after === null);
  if (req.headers.accept !== undefined) {
    const format = fileFormat(req.headers.accept);
    if (format && operationId in FILE_SHAPES) {
      linkNext(req, reply, next);
      return sendFile(req, reply, operationId, format, served, (i) => keys[at + i]);
    }
  }
  return reply.type(JSON_TYPE).send(`{"data":[${served.map((r) => JSON.stringify(r)).join(',')}${tail(next, req.url, notice)}`);
}

/**
 * A page as a file (file-format.ts): the records the JSON page holds, read back from their JSON,
 * one line each under the header; the next page, when there is one, in `Link: <url>; rel="next"`
 * (the JSON's `links.next`), as a file has no envelope.
 */
function sendFilePage<K extends unknown[]>(
  req: FastifyRequest,
  reply: FastifyReply,
  out: PageOutput,
  operationId: string,
  format: FileFormat,
  page: FetchedPage<K>,
  count: number,
  next: string | null,
): FastifyReply {
  const records = readRecords(out, page, count);
  linkNext(req, reply, next);
  return sendFile(req, reply, operationId, format, records, (i) => page.key(i));
}

/** The first `count` records of `page` as their JSON has them (rendered as in a page, read back). */
function readRecords<K extends unknown[]>(out: PageOutput, page: FetchedPage<K>, count: number): unknown[] {
  const body = out.renderer.render((w) => {
    w.byte(91);
    page.records.write(w, count);
    w.byte(93);
  });
  return JSON.parse(body.toString('utf8')) as unknown[];
}

/** A file's next page, when there is one, in `Link: <url>; rel="next"` (a file has no envelope). */
function linkNext(req: FastifyRequest, reply: FastifyReply, next: string | null): void {
  if (next !== null) reply.header('link', `<${headerSafe(linkWithCursor(req.url, next))}>; rel="next"`);
}

/**
 * One keyset page of a list already in memory, ascending by a single key (a pool's members, an
 * equity's memberships or suspensions): the rows whose key is after the cursor's, at most `limit`.
 */
export function pageOfList<Row, V extends string | number>(rows: readonly Row[], key: (r: Row) => V, page: PageRequest<[V]>): Row[] {
  const start = page.after === null ? 0 : rows.findIndex((r) => key(r) > page.after![0]);
  return start < 0 ? [] : rows.slice(start, start + page.limit);
}

/**
 * A URL as a header value: anything but printable ASCII, and the `<>` around it, percent-encoded
 * (a character of the request line is one of its bytes: Node reads it as latin1).
 */
const headerSafe = (url: string) =>
  url.replace(/[^\x21-\x7e]|[<>]/g, (c) => {
    const code = c.charCodeAt(0);
    return code > 0xff ? encodeURIComponent(c) : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
  });

/**
 * Sends `records` (as the JSON answer has them; `key(i)` record i's cursor key) of the collection
 * operation `operationId` as one file in `format`: CSV or NDJSON in the operation's file shape
 * (file-shapes.ts), or an Arrow stream of the record's own fields typed by the route's response
 * schema (arrow-shape.ts).
 */
export function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  operationId: string,
  format: FileFormat,
  records: readonly unknown[],
  key: (i: number) => readonly unknown[] = () => [],
): FastifyReply {
  const params = req.params as Record<string, unknown>;
  if (format === 'arrow') {
    const response = (req.routeOptions.schema?.response as Record<number, TSchema> | undefined)?.[200];
    if (response === undefined) throw new Error(`${operationId} has no response schema`);
    const fields = arrowFields(response, params);
    const stream = arrowStream(fields, records.length, (c, r) => fields[c].value(records[r]));
    return reply.type(FILE_TYPES.arrow).send(Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength));
  }
  const shape = fileShape(operationId, { params, query: req.query as Record<string, unknown> });
  if (shape === null) throw new Error(`${operationId} has no file`);
  return reply.type(FILE_TYPES[format]).send(fileText(shape, format, records, key));
}

/** The plan's notice of an `empty` first page, also as the `Data-Notice` header (a file has no envelope); else null. */
async function noticeOf(reply: FastifyReply, plan: Pick<SentPlan<[]>, 'notice'>, empty: boolean): Promise<string | null> {
  const notice = empty && plan.notice ? await plan.notice() : null;
  if (notice !== null) reply.header('data-notice', notice);
  return notice;
}

/** The collection envelope after the items. */
function tail(next: string | null, self: string, notice: string | null = null): string {
  const n = next === null ? 'null' : JSON.stringify(next);
  const link = next === null ? 'null' : JSON.stringify(linkWithCursor(self, next));
  const said = notice === null ? '' : `,"notice":${JSON.stringify(notice)}`;
  return `],"meta":{"next_cursor":${n}${said}},"links":{"self":${JSON.stringify(self)},"next":${link}}}`;
}

/**
 * The plan of a route that reads its rows itself: `fetch` reads them, `key` gives a row's
 * unique, stable sort key (its cursor key), `write` its JSON (a hand-compiled writer,
 * render/json-bytes.ts; schemaPlan writes objects).
 */
export function rowPlan<Row, K extends unknown[]>(
  fetch: (page: PageRequest<K>) => Promise<readonly Row[]>,
  key: (row: Row) => K,
  write: (w: JsonBytes, row: Row) => void,
): PagePlan<K> {
  return { fetch: async (p) => rowPage(await fetch(p), key, write) };
}

/**
 * The plan of a route whose items are objects of the collection `response`'s item schema, as
 * rowPlan's: each `toItem(row)` is written by what Fastify compiles for that schema
 * (fast-json-stringify over the app's shared schemas, compiled once per route), so its bytes are
 * those the response schema's serialiser wrote for the item inside the envelope.
 */
export function schemaPlan<Row, K extends unknown[]>(
  reply: FastifyReply,
  response: { properties: { data: { items: TSchema } } },
  fetch: (page: PageRequest<K>) => Promise<readonly Row[]>,
  key: (row: Row) => K,
  toItem: (row: Row) => unknown,
): SentPlan<K> {
  const serialize = reply.compileSerializationSchema(response.properties.data.items) as (item: unknown) => string;
  return { ...rowPlan(fetch, key, (w, row) => w.utf8(serialize(toItem(row)))), text: true };
}
