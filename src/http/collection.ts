import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CursorCodec, KeyPart } from './cursor.js';
import type { JsonBytes, Renderer } from '../render/json-bytes.js';
import type { Slices } from '../render/slices.js';
import type { PageRequest } from '../store/readers/page.js';

/** The values of a sort key of `parts`: numbers for dates, times and ints, strings for str. */
export type KeyOf<S extends readonly KeyPart[]> = { -readonly [I in keyof S]: S[I] extends 'str' ? string : number };

/**
 * An operation's sort key is declared where the route pages, as two arguments: the types of
 * its parts, then a row's key, e.g. `['date', 'int'], (t) => [t.date, t.seq]`. A cursor's key
 * is checked against the parts (cursor.ts) and reaches `fetch` typed, as `page.after`.
 */
export type SortKey<Row, S extends readonly KeyPart[]> = (row: Row) => KeyOf<S>;

/** Query parameters that never belong to a cursor's fingerprint. */
const PAGE_KEYS = new Set(['page[size]', 'page[after]']);

/**
 * The identity of a query for cursor binding: operation, path parameters and filters
 * (everything but the page controls, so the page size may change mid-walk).
 */
export function fingerprint(operationId: string, params: object, query: Record<string, unknown>): string {
  const q = Object.keys(query).filter((k) => !PAGE_KEYS.has(k)).sort().map((k) => `${k}=${String(query[k])}`);
  return `${operationId}|${JSON.stringify(params)}|${q.join('&')}`;
}

/** Rebuilds the request URL with `page[after]` set to `cursor` (other parameters kept in order). */
export function linkWithCursor(url: string, cursor: string): string {
  const qi = url.indexOf('?');
  const path = qi < 0 ? url : url.slice(0, qi);
  const parts = qi < 0 ? [] : url.slice(qi + 1).split('&').filter((p) => {
    const k = decodeURIComponent(p.split('=')[0].replace(/\+/g, ' '));
    return p !== '' && k !== 'page[after]';
  });
  parts.push(`page[after]=${cursor}`);
  return `${path}?${parts.join('&')}`;
}

export interface Paged<Row> {
  rows: Row[];
  nextKey: unknown[] | null;
}

/** Decodes the cursor, fetches size+1 rows, and works out the next cursor and links. */
async function page<Row, S extends readonly KeyPart[]>(req: FastifyRequest, codec: CursorCodec, operationId: string,
  fetch: (page: PageRequest<KeyOf<S>>) => Promise<Row[]>, parts: S, key: SortKey<Row, S>) {
  const query = req.query as Record<string, unknown>;
  const size = (query['page[size]'] as number | undefined) ?? 100;
  const fp = fingerprint(operationId, req.params as object, query);
  const cursor = query['page[after]'] as string | undefined;
  const after = cursor === undefined ? null : codec.decode<KeyOf<S>>(cursor, fp, parts);
  const rows = await fetch({ after, limit: size + 1 });
  const more = rows.length > size;
  if (more) rows.length = size;
  const next = more ? codec.encode(key(rows[rows.length - 1]), fp) : null;
  return { rows, next, links: { self: req.url, next: next === null ? null : linkWithCursor(req.url, next) } };
}

/**
 * Runs one keyset page: decodes `page[after]`, fetches size+1 rows, and answers with the
 * collection envelope. `key` must give the unique, stable sort key of a row.
 */
export async function sendPage<Row, Item, const S extends readonly KeyPart[]>(
  req: FastifyRequest, reply: FastifyReply, codec: CursorCodec, operationId: string,
  fetch: (page: PageRequest<KeyOf<S>>) => Promise<Row[]>, parts: S, key: SortKey<Row, S>, toItem: (row: Row) => Item,
): Promise<FastifyReply> {
  const { rows, next, links } = await page(req, codec, operationId, fetch, parts, key);
  const data = new Array<Item>(rows.length);
  for (let i = 0; i < rows.length; i++) data[i] = toItem(rows[i]);
  // Return the reply: an async handler that resolves to undefined while async onSend hooks
  // still run would make Fastify send an empty body.
  return reply.send({ data, meta: { next_cursor: next }, links });
}

const OPEN = Buffer.from('{"data":[');

/**
 * As sendPage, for the hottest collections: `write` writes a row's JSON as bytes
 * (render/json-bytes.ts: hand-compiled writers, checked against the route schema's records in
 * the tests), and the envelope is written around the rows, into one body of `renderer`'s (the app's).
 */
export async function sendPageJson<Row, const S extends readonly KeyPart[]>(
  req: FastifyRequest, reply: FastifyReply, codec: CursorCodec, renderer: Renderer, operationId: string,
  fetch: (page: PageRequest<KeyOf<S>>) => Promise<Row[]>, parts: S, key: SortKey<Row, S>, write: (w: JsonBytes, row: Row) => void,
): Promise<FastifyReply> {
  const { rows, next, links } = await page(req, codec, operationId, fetch, parts, key);
  const w = renderer.start();
  w.bytes(OPEN);
  for (let i = 0; i < rows.length; i++) {
    if (i) w.byte(44);
    write(w, rows[i]);
  }
  w.utf8(tail(next, links));
  return reply.type(JSON_TYPE).send(w.take());
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The collection envelope after the items. */
function tail(next: string | null, links: { self: string; next: string | null }): string {
  const n = next === null ? 'null' : JSON.stringify(next);
  return `],"meta":{"next_cursor":${n}},"links":{"self":${JSON.stringify(links.self)},"next":${links.next === null ? 'null' : JSON.stringify(links.next)}}}`;
}

/**
 * As sendPageJson, for records written straight from what is stored (bar pages, 1m packs):
 * `fetch` collects the records and their keys (render/slices.ts), `key` gives a record's sort
 * key from its stored key, and the body is the envelope around the records, written once.
 */
export async function sendPageSlices<const S extends readonly KeyPart[]>(
  req: FastifyRequest, reply: FastifyReply, codec: CursorCodec, renderer: Renderer, operationId: string,
  fetch: (page: PageRequest<KeyOf<S>>) => Promise<Slices>, parts: S, key: SortKey<number, S>,
): Promise<FastifyReply> {
  let slices: Slices | null = null;
  const { rows, next, links } = await page(req, codec, operationId, async (p) => (slices = await fetch(p)).keys.slice(), parts, key);
  const w = renderer.start();
  w.bytes(OPEN);
  slices!.write(w, rows.length);
  w.utf8(tail(next, links));
  return reply.type(JSON_TYPE).send(w.take());
}

/** Rows already made, as Slices: each keyed by `key` and written by `write`. */
export class RowSlices<Row> implements Slices {
  readonly keys: number[];

  constructor(private readonly rows: Row[], key: (row: Row) => number, private readonly writeRow: (w: JsonBytes, row: Row) => void) {
    this.keys = rows.map(key);
  }

  write(w: JsonBytes, count: number): void {
    for (let i = 0; i < count; i++) {
      if (i) w.byte(44);
      this.writeRow(w, this.rows[i]);
    }
  }
}
