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

/** Readiness refused because no page can be rendered (render/json-bytes.ts, Renderer.probe). */
const RENDERER_BROKEN = {
  code: 'not_ready',
  detail: 'This process cannot render responses at the moment; retry later or on another.',
} as const;

/** getSystemHealth, getSystemReadiness, getSystemVersion: public probes. */
export default async function systemRoutes(app: App) {
  // Probes: never kept by a cache; readiness reads the store (its own route says so).
  routeDefaults(app, { cache: 'no-store' });
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
      // One query: it also tells the store's health (store/health.ts) that the store answers again.
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          app.svc.store.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
          }),
        ]);
      } catch (e) {
        throw e instanceof StoreUnavailable ? e : new StoreUnavailable(e instanceof Error ? e.message : String(e));
      } finally {
        clearTimeout(timer);
      }
      const replicas = app.svc.store.replicas?.();
      if (!replicas) return { status: 'ready' };
      return { status: 'ready', replicas: replicas.map(({ up, ...r }) => ({ ...r, state: up ? 'up' : 'down' })) };
    },
  );

  app.get('/api/v1/system/version', publicOp('getSystemVersion', 'Service version metadata.'), async () => ({
    name: pkg.name,
    version: pkg.version,
    api_version: 'v1',
    node: process.version,
  }));
}
