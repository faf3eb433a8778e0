/**
 * A widget's endpoint (`GET /openbb/<widget id>`): the rows of its API operation as Workspace
 * reads a table, a JSON array of flat objects, with each shown field and nothing else, decimals as
 * JSON numbers (the grid and its charts compute on numbers; a decimal of up to 15 significant
 * digits, every price and any amount below ten trillion CNY with cents, is written with the API's
 * own digits, a longer one as the nearest double).
 *
 * The rows are read by walking the operation's pages as any client would, through the app
 * (`inject`), with the caller's X-API-Key, request id and address: the key check, the rate limit,
 * validation and every error are the API's own, and an error is answered as the API answered it
 * (status and ErrorResponse). A walk that meets a new data version midway (Data-Version-Cursor)
 * starts again, so the rows are of one version, which `Data-Version` names.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../services.js';
import { ApiError } from '../../lib/errors.js';
import { fieldKind, type FieldKind } from './columns.js';
import { shownFields, type WidgetDecl } from './widgets.js';

/** Rows per page asked of the API (its maximum), and pages a widget may read. */
export const WIDGET_PAGE_SIZE = 1000;
export const WIDGET_MAX_PAGES = 10;
/** Walks started again after meeting a new data version. */
const MAX_RESTARTS = 3;

const KIND_SEGMENT: Record<string, string> = { equity: 'equities', index: 'indices', fund: 'funds' };

interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/** GET `url` through the app as the caller: their key, request id and address. */
async function ask(app: App, req: FastifyRequest, url: string): Promise<Answer> {
  const key = req.headers['x-api-key'];
  const res = await app.inject({
    method: 'GET',
    url,
    remoteAddress: req.ip,
    headers: { accept: 'application/json', 'x-request-id': req.id, ...(typeof key === 'string' ? { 'x-api-key': key } : {}) },
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** The path segment of the instrument's kind, found by searching its id; `equities` when no instrument has that id (the operation then says 404). */
async function kindSegment(app: App, req: FastifyRequest, id: string): Promise<Answer | string> {
  const found = await ask(app, req, `/api/v1/instruments?q=${encodeURIComponent(id)}&page[size]=1`);
  if (found.status === 400) return 'equities';
  if (found.status !== 200) return found;
  const first = found.body.data[0];
  return first?.id === id ? KIND_SEGMENT[first.kind] : 'equities';
}

/** The API URL of the widget's operation for the request's parameters (first page), or the API's refusal. */
async function sourceUrl(app: App, req: FastifyRequest, d: WidgetDecl, q: Record<string, string>): Promise<Answer | string> {
  let path = d.source.path;
  if (path.includes('{kind}')) {
    const segment = await kindSegment(app, req, q.instrument_id);
    if (typeof segment !== 'string') return segment;
    path = path.replace('{kind}', segment);
  }
  const inPath = new Set<string>();
  path = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    inPath.add(name);
    return encodeURIComponent(q[name]);
  });
  const query = Object.entries(q)
    .filter(([k]) => !inPath.has(k))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  query.push(`page[size]=${WIDGET_PAGE_SIZE}`);
  return `${path}?${query.join('&')}`;
}

/** One flat row: the shown fields, decimals as numbers. */
export function flatRow(record: Record<string, unknown>, fields: readonly [string, FieldKind][]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [f, kind] of fields) {
    const v = record[f];
    row[f] = kind === 'decimal' && typeof v === 'string' ? Number(v) : v;
  }
  return row;
}

/** Every record of the walk from `first`, of one data version, or the API's refusal. */
async function walk(app: App, req: FastifyRequest, first: string): Promise<Answer | { records: unknown[]; version: unknown }> {
  for (let attempt = 0; ; attempt++) {
    const records: unknown[] = [];
    let url: string | null = first;
    let version: unknown;
    let restarted = false;
    for (let page = 0; url !== null; page++) {
      if (page === WIDGET_MAX_PAGES)
        throw new ApiError({
          code: 'invalid_parameter',
          parameter: 'from',
          detail: `More than ${WIDGET_MAX_PAGES * WIDGET_PAGE_SIZE} rows: narrow the window (from, to) or take a longer interval.`,
        });
      const a = await ask(app, req, url);
      if (a.status !== 200) return a;
      if (page > 0 && a.headers['data-version-cursor'] !== undefined && attempt < MAX_RESTARTS) {
        restarted = true;
        break;
      }
      version = a.headers['data-version'];
      records.push(...a.body.data);
      url = a.body.links.next;
    }
    if (!restarted) return { records, version };
  }
}

/** Answers the widget `d`'s endpoint. */
export async function answerWidget(app: App, d: WidgetDecl, req: FastifyRequest, reply: FastifyReply) {
  const fields = shownFields(d).map((f): [string, FieldKind] => [f, fieldKind(d.source.record.properties[f])]);
  const url = await sourceUrl(app, req, d, req.query as Record<string, string>);
  const got = typeof url === 'string' ? await walk(app, req, url) : url;
  if ('status' in got) {
    for (const h of ['retry-after', 'allow']) if (got.headers[h] !== undefined) reply.header(h, got.headers[h]);
    return reply.code(got.status).send(got.body);
  }
  if (got.version !== undefined) reply.header('data-version', got.version);
  return got.records.map((r) => flatRow(r as Record<string, unknown>, fields));
}
