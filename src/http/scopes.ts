import type { FastifyRequest } from 'fastify';
import type { Scope } from '../query/change-index.js';
import { parseDate } from '../lib/time.js';
import { dayOrWindow } from './params.js';

/**
 * What versioned responses depend on (route-config.ts `scope`), from a request's path and
 * query as sent: their ETags then name the last data version that changed that, so a commit
 * elsewhere leaves them valid (docs/api.md, "Caching"). Each returns null (the snapshot's
 * version) when the request is not one it can read; they never need to be exact, only to hold
 * everything the response shows. (An instrument's bars and indicators: routes/series/bars.ts barScope.)
 */

/** A market-wide page of one trading day given by `date` (a cross-section, a pool); null without it (the latest day). */
export function dayScope(req: FastifyRequest): Scope | null {
  const date = (req.query as Record<string, unknown>).date;
  if (typeof date !== 'string') return null;
  const d = parseDate(date);
  return d === null ? null : { kind: 'market', to: d };
}

/** A market-wide page of days from/to (or one `date`): up to its last day. */
export function daysScope(req: FastifyRequest): Scope | null {
  const q = req.query as Record<string, unknown>;
  for (const k of ['from', 'to', 'date']) if (q[k] !== undefined && typeof q[k] !== 'string') return null;
  return { kind: 'market', to: dayOrWindow(q as { from?: string; to?: string; date?: string }).to };
}
