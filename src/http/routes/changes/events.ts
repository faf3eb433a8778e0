import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../services.js';
import { operation } from '../../route.js';
import { DataVersionRecord } from '../../schemas/changes.js';
import { ApiError, invalid } from '../../../lib/errors.js';
import { EventStream } from '../../events/stream.js';
import { SSE_HEADERS, sseRetry } from '../../sse.js';
import { afterParam, filterOf, logFilterParams, MAX_VERSION, versionRecord } from './log.js';
import { TOKEN_PATH } from '../../plugins/auth.js';

/** How long EventSource waits before it reconnects after a stream ends (ms). */
const RETRY_MS = 1000;

/** The bounds of the event streams (app/config.ts EventsConfig). */
export interface StreamLimits {
  heartbeatMs: number;
  streamsPerKey: number;
  bufferKb: number;
}

/** The version a stream starts after: Last-Event-ID (a reconnect), else `after`, else null (from now). */
function startAfter(req: FastifyRequest): number | null {
  const id = req.headers['last-event-id'];
  if (typeof id === 'string' && id !== '') {
    if (!/^\d{1,10}$/.test(id) || Number(id) > MAX_VERSION)
      throw new ApiError(
        invalid('Last-Event-ID', `Last-Event-ID must be a data version 0..${MAX_VERSION} (an event's id), got ${id.slice(0, 40)}`),
      );
    return Number(id);
  }
  return (req.query as { after?: number }).after ?? null;
}

/** streamEvents: every committed data version as a server-sent event (docs/api.md, "Events"). */
export function registerEvents(app: App, limits: StreamLimits) {
  const open = new Map<string, number>();
  app.get(
    TOKEN_PATH,
    {
      schema: operation({
        operationId: 'streamEvents',
        tags: ['changes'],
        summary: 'Server-sent events: one `version` event per committed data version, resumable by Last-Event-ID.',
        description:
          '`text/event-stream`: each event has `id` = the version, `event: version`, `data` = the record /changes lists. With ' +
          '`Last-Event-ID` (a reconnect) or `after`, the versions after it are replayed from the log, then new ones follow as they ' +
          'commit, each once; without either, from now. A comment every EVENT_HEARTBEAT_MS (15 s). A reader too slow gets ' +
          '`event: dropped` (resume from /changes), a revoked key `event: error`, and the stream ends. EventSource cannot send ' +
          'X-API-Key: pass a token of `mds keys token` as `token`.',
        query: {
          ...afterParam('the versions after it are replayed first', 'absent: from now; Last-Event-ID wins over it'),
          ...logFilterParams,
          token: Type.Optional(
            Type.String({
              maxLength: 200,
              description: 'A short-lived stream token (`mds keys token`), for clients that cannot send X-API-Key.',
            }),
          ),
        },
        response: DataVersionRecord,
      }),
      config: { behaviour: { cache: 'no-store', versioned: false } },
    },
    async (req, reply) => {
      const key = req.apiKey!;
      const after = startAfter(req);
      const count = open.get(key.id) ?? 0;
      if (limits.streamsPerKey > 0 && count >= limits.streamsPerKey)
        throw new ApiError({
          code: 'too_many_streams',
          detail: `This key has ${count} event streams open on this server, its limit (EVENT_STREAMS_PER_KEY=${limits.streamsPerKey}); close one first.`,
        });
      const snap = await app.svc.openSnapshot({ replayed: true });
      const version = snap.version;
      snap.release();
      return startStream(req, reply, after ?? version, version);
    },
  );

  function startStream(req: FastifyRequest, reply: FastifyReply, after: number, version: number) {
    const key = req.apiKey!;
    reply.hijack();
    const res = reply.raw;
    const headers = { ...reply.getHeaders(), ...SSE_HEADERS, 'x-content-type-options': 'nosniff', 'data-version': String(version) };
    res.writeHead(200, headers as Record<string, string | number | string[]>);
    if (req.method === 'HEAD') return void res.end();
    res.write(sseRetry(RETRY_MS));
    open.set(key.id, (open.get(key.id) ?? 0) + 1);
    const stream: EventStream = new EventStream({
      res,
      hub: app.svc.events,
      open: (want) => app.svc.openSnapshot({ ...want, replayed: true }),
      filter: filterOf(req.query as { dataset?: string; instrument_id?: string }),
      after,
      record: versionRecord,
      heartbeatMs: limits.heartbeatMs,
      bufferBytes: limits.bufferKb * 1024,
      keyLive: async () => (await app.svc.keys.liveById(key.id)) !== null,
      onError: (e) => req.log.error({ err: e }, 'event stream failed'),
      onEnd: () => {
        const n = (open.get(key.id) ?? 1) - 1;
        if (n > 0) open.set(key.id, n);
        else open.delete(key.id);
      },
    });
    stream.start();
  }
}
