import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zc, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { parseDate, parseDateTime } from '../../lib/time.js';
import { ApiError } from '../../lib/errors.js';
import { StoreUnavailable } from '../../store/health.js';
import { fileFormat } from '../file-format.js';

/** Decides how long a successful response may be cached (null: revalidate every time). */
export type MaxAge = (req: FastifyRequest) => Promise<number | null>;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const BROTLI = { params: { [zc.BROTLI_PARAM_QUALITY]: 4, [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT } };
const THRESHOLD = 1024;
/** 128 bits of SHA-1 of the body, base64url (one-shot hash where Node has it). */
const digest = (body: string | Buffer): string => ((crypto as any).hash
  ? ((crypto as any).hash('sha1', body, 'base64url') as string)
  : crypto.createHash('sha1').update(body).digest('base64url')).slice(0, 22);

/** The coding to send: br or gzip when accepted (q > 0), br first; null for identity. */
export function negotiate(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const ok = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    ok.add(name);
  }
  if (ok.has('br')) return 'br';
  if (ok.has('gzip') || ok.has('*')) return 'gzip';
  return null;
}

/** `"<base>"`, `"<base>-br"` or `"<base>-gz"`: the representation's coding is part of its tag. */
const tagOf = (base: string, coding: 'br' | 'gzip' | null) => `"${base}${coding === 'br' ? '-br' : coding === 'gzip' ? '-gz' : ''}"`;

/**
 * The If-None-Match entry (weak or strong) equal to one of `tags`, or null. `*` matches any
 * current representation (RFC 9110 13.1.2) when `exists`: a response known to be a 200.
 */
function matching(header: string | undefined, tags: string[], exists: boolean): string | null {
  if (!header) return null;
  for (const t of header.split(',')) {
    const tag = t.trim().replace(/^W\//, '');
    if (tags.includes(tag)) return tag;
    if (tag === '*' && exists) return tags[0];
  }
  return null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Base of the ETag of a data response, known before the handler runs (see registerDataTags). */
    dataTag: string | null;
  }
}

/**
 * HTTP the way fast APIs do it: strong ETags per representation (the content coding is part of
 * the tag) with If-None-Match → 304, Cache-Control that lets clients and proxies keep closed
 * periods, and brotli/gzip (compressed off the event loop) for responses over 1 KiB. Responses
 * vary on the API key, so a shared cache never serves one client's response to another.
 * Data responses carry the tag set by registerDataTags; other responses (OpenAPI, docs) are
 * tagged by a hash of their bytes.
 */
export function registerHttpCache(app: FastifyInstance, maxAge: MaxAge): void {
  app.decorateRequest('dataTag', null);
  app.addHook('onSend', async (req, reply, payload) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const coding = payload.length >= THRESHOLD ? negotiate(req.headers['accept-encoding']) : null;
    const tag = tagOf(req.dataTag ?? digest(payload), coding);
    reply.header('etag', tag);
    await cacheHeaders(req, reply, maxAge);
    if (matching(req.headers['if-none-match'], [tag], true)) {
      reply.code(304);
      return '';
    }
    if (coding === null) return payload;
    reply.header('content-encoding', coding);
    return coding === 'br' ? brotli(payload, BROTLI) : gz(payload, { level: 5 });
  });
}

async function cacheHeaders(req: FastifyRequest, reply: FastifyReply, maxAge: MaxAge): Promise<void> {
  reply.header('vary', 'Accept, Accept-Encoding, X-API-Key');
  if (req.url.startsWith('/api/v1/system/')) reply.header('cache-control', 'no-store');
  else {
    const age = req.url.startsWith('/api/') ? await maxAge(req) : 300;
    reply.header('cache-control', age === null ? 'private, no-cache' : `public, max-age=${age}`);
  }
}

/** Where a response's data come from: snapshots of one data version each (store/catalog.ts). */
export interface DataVersions<S extends { version: string }> {
  /** The latest snapshot (`reload`: read the store's version now, not within the catalog's second). */
  snapshot(reload?: boolean): Promise<S>;
  /** The data version in the store now. */
  currentVersion(): Promise<string>;
}

/** Attempts at computing a response while ingests keep committing, before 503 not_ready. */
export const VERSION_ATTEMPTS = 5;
const WRAPPED = Symbol('one data version');
/** What `reply.send` returns while a response is held back. */
const HELD = Object.freeze({ held: true });

/**
 * ETags known before any work is done, for the routes of one (authenticated) scope. A data
 * response is a pure function of the stored data (`meta.data_version`, which every ingest that
 * changes anything bumps), the request target and the server revision (code version and cursor
 * secret), so its tag is a hash of those three. A matching If-None-Match is then answered 304
 * right after authentication, without reading the store or rendering the body. Servers notice a
 * new data version within a second (Catalog), so a 304 may confirm a tag up to that long after
 * its data changed.
 *
 * Every response is computed from one data version and tagged with it (docs/api.md,
 * "Consistency"): what the handler sends is held back, and the store's version is read once more
 * when it is done. If it equals the version the tag names, the store held that version from
 * before the request (the catalog read it then) to after its last read: every commit that changes
 * data bumps the version in the same transaction, and versions never recur. So every read the
 * response made, of the store or of any cache keyed by the data version (an entry keyed by that
 * version can only hold that version's data: one built from newer data under an older key is
 * only ever read by requests whose check fails), was of that version, and it is sent. Changed,
 * it is computed again on a snapshot of the new version, under the new tag. A handler that
 * failed for want of the store (StoreUnavailable) is answered 503 at once, without that read: it
 * would only wait for the same answer again (docs/operations.md bounds a request's wait).
 */
export function registerDataTags<S extends { version: string }>(scope: FastifyInstance,
  o: { revision: string; versions: DataVersions<S>; maxAge: MaxAge }): void {
  const snaps = new WeakMap<FastifyRequest, S>();
  // The version read after a response is computed serves every response finished in the same
  // event-loop turn: all of them finished their reads before it is issued (setImmediate), so it
  // is a read "after" each of them, and a turn of many responses costs one read.
  let waiting: { resolve: (v: string) => void; reject: (e: unknown) => void }[] | null = null;
  const readForTurn = async () => {
    const batch = waiting!;
    waiting = null;
    try {
      const v = await o.versions.currentVersion();
      for (const w of batch) w.resolve(v);
    } catch (e) {
      for (const w of batch) w.reject(e);
    }
  };
  const versionAfter = () => new Promise<string>((resolve, reject) => {
    if (waiting === null) { waiting = []; setImmediate(readForTurn); }
    waiting.push({ resolve, reject });
  });
  // The representation asked for (JSON, or a file format by Accept) is part of the tag.
  const setTag = (req: FastifyRequest, snap: S) => {
    req.dataTag = digest(`${o.revision}\0${snap.version}\0${req.url}\0${fileFormat(req.headers.accept) ?? ''}`);
  };
  scope.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod & { [WRAPPED]?: true };
    if (handler[WRAPPED]) return;
    const wrapped = async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      let snap = snaps.get(req);
      if (snap === undefined) return handler.call(this, req, reply);
      for (let attempt = 1; ; attempt++) {
        const held: { sent: boolean; payload?: unknown } = { sent: false };
        const r = reply as { send: (payload?: unknown) => FastifyReply };
        // Not the reply itself: a reply is thenable (resolving once sent), so an async handler
        // returning it would wait for a send that is held back.
        r.send = (payload?: unknown) => { held.sent = true; held.payload = payload; return HELD as unknown as FastifyReply; };
        let out: { value: unknown } | { error: unknown };
        try {
          out = { value: await handler.call(this, req, reply) };
        } catch (error) {
          // The store could not answer: another read would wait as long again for the same 503.
          if (error instanceof StoreUnavailable) throw error;
          out = { error };
        } finally {
          delete (r as { send?: unknown }).send;
        }
        if (await versionAfter() === snap.version) {
          if ('error' in out) throw out.error;
          return held.sent ? reply.send(held.payload) : out.value;
        }
        if (attempt === VERSION_ATTEMPTS) {
          throw new ApiError({ code: 'not_ready', detail: `the data changed ${VERSION_ATTEMPTS} times while this response was computed; retry` }, { 'retry-after': '1' });
        }
        snap = await o.versions.snapshot(true);
        setTag(req, snap);
      }
    };
    route.handler = Object.assign(wrapped, { [WRAPPED]: true as const }) as RouteHandlerMethod;
  });
  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const snap = await o.versions.snapshot();
    snaps.set(req, snap);
    setTag(req, snap);
    const base = req.dataTag!;
    const inm = req.headers['if-none-match'];
    if (!inm) return;
    // Before the handler it is not known whether the resource exists: `*` waits for the 200.
    const tag = matching(inm, [tagOf(base, null), tagOf(base, negotiate(req.headers['accept-encoding']))], false);
    if (tag === null) return;
    reply.header('etag', tag);
    await cacheHeaders(req, reply, o.maxAge);
    return reply.code(304).send();
  });
}

/**
 * Time-series responses whose window ends before the latest stored trading day are closed
 * periods: they change only when data are corrected, so they may be kept for an hour.
 */
export function closedPeriodMaxAge(latestDate: () => Promise<number | null>): MaxAge {
  return async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const end = q.date ?? q.to;
    if (!end) return null;
    const latest = await latestDate();
    if (latest === null) return null;
    const d = parseDate(end.slice(0, 10));
    if (d === null || !parseDateTime(end)) return null;
    return d < latest ? 3600 : null;
  };
}
