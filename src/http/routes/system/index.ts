import { StatusResponse, VersionResponse } from '../../schemas/system.js';
import { Type } from '@sinclair/typebox';
import { readFileSync } from 'node:fs';
import type { App } from '../../services.js';
import { StoreUnavailable } from '../../../store/health.js';
import { ApiError } from '../../../lib/errors.js';
import { ErrorResponse } from '../../schemas/common.js';
import { anyRequestErrors, notModified } from '../../route.js';
import { routeDefaults } from '../../route-config.js';

const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'));
/** No parameters; query parameters are ignored, so probes may add cache-busters (`?_=1`). */
const publicOp = (operationId: string, summary: string, extra: Record<number, unknown> = {}) => ({
  schema: {
    operationId,
    summary,
    tags: ['system'],
    security: [],
    response: {
      200: Type.Ref(operationId === 'getSystemVersion' ? VersionResponse : StatusResponse),
      304: notModified,
      ...anyRequestErrors(),
      ...extra,
    },
  },
});

/** How recent a query the store answered makes readiness answer without a query of its own (ms). */
const ANSWERED_WITHIN_MS = 1000;
/** How long readiness waits for the store's answer to its own query (ms). */
const PING_MS = 2000;

/** One query to the store, answered within `ms`, else StoreUnavailable. */
async function pingWithin(app: App, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      app.svc.store.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
      }),
    ]);
  } catch (e) {
    throw e instanceof StoreUnavailable ? e : new StoreUnavailable(e instanceof Error ? e.message : String(e));
  } finally {
    clearTimeout(timer);
  }
}

/** Readiness refused because no page can be rendered (render/json-bytes.ts, Renderer.probe). */
const RENDERER_BROKEN = {
  code: 'not_ready',
  detail: 'This process cannot render responses at the moment; retry later or on another.',
} as const;

/** getSystemHealth, getSystemReadiness, getSystemVersion: public probes. */
export default async function systemRoutes(app: App) {
  // Probes: never kept by a cache, answered ahead of queued requests (turns.ts); readiness reads
  // the store (its own route says so).
  routeDefaults(app, { cache: 'no-store', probe: true });
  app.get('/api/v1/system/health', publicOp('getSystemHealth', 'Liveness probe: 200 while the process lives.'), async () => ({
    status: 'ok',
  }));

  app.get(
    '/api/v1/system/readiness',
    {
      ...publicOp('getSystemReadiness', 'Readiness probe: 200 when the store answers and a page can be rendered, else 503 not_ready.', {
        503: Type.Ref(ErrorResponse),
      }),
      config: { behaviour: { store: true } },
    },
    async (req) => {
      // The renderer every collection is written by: a process that cannot render a page is not ready.
      const broken = app.svc.renderer.probe();
      if (broken !== null) {
        req.log.error(`not ready: the renderer cannot render a page: ${broken}`);
        throw new ApiError(RENDERER_BROKEN);
      }
      // From what the process knows when it can: a query begun after the store's last failure was
      // answered within the last second (so on a busy server, no query of its own to wait behind
      // the others'). Else one query, which also tells the store's health (store/health.ts) that
      // the store answers again.
      if (!app.svc.store.health.answeredWithin(ANSWERED_WITHIN_MS)) await pingWithin(app, PING_MS);
      // With replicas the store answers (ping) while the primary is down if a replica has every version served.
      const replicas = app.svc.store.replicas?.();
      if (!replicas) return { status: 'ready' };
      const primary = app.svc.store.primary?.();
      return {
        status: 'ready',
        ...(primary ? { primary: primary.up ? 'up' : 'down', writes_to: primary.host } : {}),
        replicas: replicas.map(({ up, primary, ...r }) => ({ ...r, state: primary ? 'primary' : up ? 'up' : 'down' })),
      };
    },
  );

  app.get('/api/v1/system/version', publicOp('getSystemVersion', 'Service version metadata.'), async () => ({
    name: pkg.name,
    version: pkg.version,
    api_version: 'v1',
    node: process.version,
  }));
}
