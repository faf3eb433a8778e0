import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zc, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { parseDate, parseDateTime } from '../../lib/time.js';
import { fileFormat } from '../file-format.js';
import { behaviourOf } from '../route-config.js';
import type { Snapshot } from '../../query/snapshot.js';
import { StoreUnavailable } from '../../store/health.js';
import type { SnapshotWant } from '../../store/types.js';

/** Decides how long a successful response may be cached (null: revalidate every time). */
export type MaxAge = (req: FastifyRequest) => Promise<number | null>;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const BROTLI = { params: { [zc.BROTLI_PARAM_QUALITY]: 4, [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT } };
const THRESHOLD = 1024;
/** 128 bits of SHA-1 of the body, base64url (one-shot hash where Node has it). */
const digest = (body: string | Buffer): string =>
  ((crypto as any).hash
    ? ((crypto as any).hash('sha1', body, 'base64url') as string)
    : crypto.createHash('sha1').update(body).digest('base64url')
  ).slice(0, 22);

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
    /** Base of the ETag of a data response, known before the handler runs (see dataTags). */
    dataTag: string | null;
    /** The read snapshot a data request is answered from (dataTags); null elsewhere. */
    snap: Snapshot | null;
    /**
     * The data version of what a data response shows: the last version at or before the
     * snapshot's that changed it (its route's scope, route-config.ts), else the snapshot's.
     * Its ETag and its cursors name it; null outside dataTags.
     */
    pageVersion: number | null;
  }
}

/**
 * HTTP the way fast APIs do it: strong ETags per representation (the content coding is part of
 * the tag) with If-None-Match → 304, Cache-Control that lets clients and proxies keep closed
 * periods, and brotli/gzip (compressed off the event loop) for responses over 1 KiB. Responses
 * vary on the API key, so a shared cache never serves one client's response to another.
 * Data responses carry the tag set by dataTags; other responses (OpenAPI, docs) are
 * tagged by a hash of their bytes.
 */
export const httpCache = fp<{ maxAge: MaxAge }>(
  async (app, { maxAge }) => {
    app.decorateRequest('dataTag', null);
    app.decorateRequest('snap', null);
    app.decorateRequest('pageVersion', null);
    app.addHook('onSend', async (req, reply, payload) => {
      if (
        (req.method !== 'GET' && req.method !== 'HEAD') ||
        reply.statusCode !== 200 ||
        (typeof payload !== 'string' && !Buffer.isBuffer(payload))
      ) {
        releaseSnapshot(req);
        return payload;
      }
      // A body the route compressed itself (the explorer's files, compressed at build time) is sent as it is.
      const preset = reply.getHeader('content-encoding') === 'br' ? 'br' : null;
      const coding = preset ?? (payload.length >= THRESHOLD ? negotiate(req.headers['accept-encoding']) : null);
      const tag = tagOf(req.dataTag ?? digest(payload), coding);
      reply.header('etag', tag);
      await cacheHeaders(req, reply, maxAge);
      // The last read of the request (its Cache-Control): the snapshot ends before compression.
      releaseSnapshot(req);
      if (matching(req.headers['if-none-match'], [tag], true)) {
        reply.removeHeader('content-encoding');
        reply.code(304);
        return '';
      }
      if (coding === null || preset !== null) return payload;
      reply.header('content-encoding', coding);
      return coding === 'br' ? brotli(payload, BROTLI) : gz(payload, { level: 5 });
    });
  },
  { name: 'mds-http-cache', fastify: '5.x' },
);

/** Vary and Cache-Control by the route's declared cache policy (route-config.ts). */
async function cacheHeaders(req: FastifyRequest, reply: FastifyReply, maxAge: MaxAge): Promise<void> {
  reply.header('vary', 'Accept, Accept-Encoding, X-API-Key');
  const { cache } = behaviourOf(req);
  if (cache === 'no-store') reply.header('cache-control', 'no-store');
  else if (cache === 'immutable') reply.header('cache-control', 'public, max-age=31536000, immutable');
  else {
    const age = cache === 'data' ? await maxAge(req) : 300;
    reply.header('cache-control', age === null ? 'private, no-cache' : `public, max-age=${age}`);
  }
}

/**
 * Where a request's snapshot comes from (query/snapshot.ts openSnapshot, bound to the app's store
 * and caches); `want`: what it must see, on a store with replicas.
 */
export type OpenSnapshot = (want?: SnapshotWant) => Promise<Snapshot>;

/** Ends the request's snapshot, if it has one (idempotent): its last read is done. */
export function releaseSnapshot(req: FastifyRequest): void {
  if (req.snap !== null) req.snap.release();
}

/**
 * The data version of what `req`'s response shows, read at `snap` (FastifyRequest.pageVersion):
 * by its route's scope, the last version that changed it; the snapshot's when the route has no
 * scope or it cannot say (a scope that throws on a malformed request).
 */
function pageVersion(req: FastifyRequest, snap: Snapshot): number {
  const of = behaviourOf(req).scope;
  if (of === undefined) return snap.version;
  let scope;
  try {
    scope = of(req);
  } catch {
    return snap.version;
  }
  return scope === null ? snap.version : snap.versionOf(scope);
}

/** The tag of a data response (its base: the version, then a hash): see dataTags. */
const DATA_TAG = /^(?:W\/)?"(\d{1,15})\.([A-Za-z0-9_-]{22})(?:-br|-gz)?"$/;
/** If-None-Match entries looked at for a version seen, at most: a client sends the one or two tags it holds. */
const MAX_SEEN_TAGS = 8;

/**
 * The data version a request has already seen: its cursor's (a cursor's key ends with the
 * version its page was read at, covered by the cursor's signature) and its If-None-Match tags'
 * (a data tag begins with its version), a tag counting only when it is one this server makes
 * for the request at that version (`baseAt(v)`: same revision, URL and format), so a made-up
 * tag (`"999999999999999.x"`) sends no read to the primary. Read before the cursor is checked:
 * a cursor whose signature fails is refused by the handler, one naming a version above the
 * store's too (sendPage).
 */
export function versionSeen(req: FastifyRequest, baseAt: (version: number) => string): number {
  let seen = 0;
  const after = (req.query as Record<string, unknown> | undefined)?.['page[after]'];
  if (typeof after === 'string' && after.length <= 512) {
    try {
      const key: unknown = JSON.parse(Buffer.from(after.split('.')[0], 'base64url').toString('utf8'));
      const last = Array.isArray(key) ? key[key.length - 1] : null;
      if (Number.isSafeInteger(last) && (last as number) > 0) seen = last as number;
    } catch {
      /* not a cursor: the handler says so */
    }
  }
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string') {
    let looked = 0;
    for (const entry of inm.split(',')) {
      const m = DATA_TAG.exec(entry.trim());
      if (m === null) continue;
      if (++looked > MAX_SEEN_TAGS) break;
      const v = Number(m[1]);
      if (v > seen && baseAt(v) === `${m[1]}.${m[2]}`) seen = v;
    }
  }
  return seen;
}

/**
 * One read snapshot per data request, and ETags known before any work is done, for the routes
 * of one (authenticated) scope that declare themselves `versioned` (route-config.ts; docs/api.md,
 * "Consistency"). Each GET opens a Snapshot (one data
 * version: a read transaction of the store, and the catalog and caches of that version) right
 * after authentication, of a version no older than the one the request has seen (versionSeen:
 * on a store with replicas, a replica behind it is not used); the handler reads through
 * `req.snap` alone, so its response is of that version, computed once (but for the one re-run
 * below). A data
 * response is a pure function of the stored data (the version), the request target and the
 * server revision (code version and cursor secret), so its tag is the version and a hash of
 * those three: a matching If-None-Match is answered 304 at once, without running the handler.
 * The version is the page's (FastifyRequest.pageVersion): for a route that declares its scope,
 * the last version that changed what it shows, so a commit elsewhere leaves its tag valid;
 * `Data-Version` is the snapshot's, on a 304 too.
 * The snapshot ends when the response's headers are set (httpCache's onSend), or when its
 * connection closes, whichever comes first. A request whose replica fails under it (the replica
 * stopped, or recovery cancelled its read) is answered again, once, from the primary; one whose
 * store connection dies under it (not a timeout), once, on a new snapshot.
 */
export const dataTags = fp<{ revision: string; open: OpenSnapshot; maxAge: MaxAge; replicas?: boolean }>(
  async (scope, o) => {
    /** The base of the tag of `req`'s response at `version`: the representation asked for (JSON, or a file format by Accept) is part of it. */
    const baseOf = (req: FastifyRequest, version: number) =>
      `${version}.${digest(`${o.revision}\0${version}\0${req.url}\0${fileFormat(req.headers.accept) ?? ''}`)}`;
    const bind = (req: FastifyRequest, reply: FastifyReply, snap: Snapshot) => {
      req.snap = snap;
      reply.raw.once('close', () => snap.release());
      reply.header('data-version', String(snap.version));
      const page = pageVersion(req, snap);
      req.pageVersion = page;
      req.dataTag = baseOf(req, page);
    };
    scope.addHook('onRequest', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !behaviourOf(req).versioned) return;
      // Only a store with replicas can read an older version than a request has seen.
      const seen = o.replicas ? versionSeen(req, (v) => baseOf(req, v)) : 0;
      bind(req, reply, await o.open(seen ? { minVersion: seen } : undefined));
      const inm = req.headers['if-none-match'];
      if (!inm) return;
      // Before the handler it is not known whether the resource exists: `*` waits for the 200.
      const base = req.dataTag!;
      const tag = matching(inm, [tagOf(base, null), tagOf(base, negotiate(req.headers['accept-encoding']))], false);
      if (tag === null) return;
      reply.header('etag', tag);
      await cacheHeaders(req, reply, o.maxAge);
      return reply.code(304).send();
    });
    scope.addHook('onRoute', (route) => {
      if (!route.config?.behaviour?.versioned) return;
      const handler = route.handler;
      route.handler = async function (this: unknown, req: FastifyRequest, reply: FastifyReply) {
        try {
          return await handler.call(this as never, req, reply);
        } catch (e) {
          const snap = req.snap;
          if (snap === null || reply.sent || !(e instanceof StoreUnavailable)) throw e;
          const replica = snap.source !== undefined && snap.source !== 'primary';
          // A replica that failed, or a connection that died under the request (its backend
          // terminated, the server restarted): once more, from the primary or on a new connection.
          // Not after a timeout, which would double the documented wait.
          if (!replica && /timeout/i.test(e.reason)) throw e;
          req.log.warn(
            { source: snap.source ?? 'store', reason: e.reason },
            replica
              ? 'a replica failed under a request: answering it from the primary'
              : 'the store failed under a request: answering it again',
          );
          snap.release();
          bind(req, reply, await o.open({ primary: replica || undefined, minVersion: snap.version }));
          return handler.call(this as never, req, reply);
        }
      } as typeof route.handler;
    });
  },
  { name: 'mds-data-tags', fastify: '5.x', dependencies: ['mds-http-cache', 'mds-auth'] },
);

/**
 * Time-series responses whose window ends before the latest stored trading day are closed
 * periods: they change only when data are corrected, so they may be kept for an hour.
 */
export function closedPeriodMaxAge(latestDate: (req: FastifyRequest) => Promise<number | null>): MaxAge {
  return async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const end = q.date ?? q.to;
    if (!end) return null;
    const latest = await latestDate(req);
    if (latest === null) return null;
    const d = parseDate(end.slice(0, 10));
    if (d === null || !parseDateTime(end)) return null;
    return d < latest ? 3600 : null;
  };
}
