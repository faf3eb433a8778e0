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

/** Whatever an instrument's page reads of its own instrument row: its existence, kind, name, dates, share counts. */
const OWN = ['instruments'];

/**
 * A page of the instrument in the path that reads only `datasets` of it (and of all instruments,
 * or what names none of them: a calendar), besides its own row: a commit of its other datasets,
 * or of other instruments, leaves it valid.
 */
export function instrumentScope(datasets: readonly string[]): (req: FastifyRequest) => Scope | null {
  const all = [...new Set([...OWN, ...datasets])].sort();
  return (req) => {
    const id = (req.params as { instrument_id?: unknown }).instrument_id;
    return typeof id === 'string' ? { kind: 'instrument', id, datasets: all } : null;
  };
}

/** An equity's price limits (query/equity-days.ts limits): what its daily states read. */
const LIMITS = ['st_periods', 'corporate_actions', 'bars_1d', 'bars_1m', 'suspensions', 'trading_days', 'markets'];
const limitsOf = instrumentScope(LIMITS);

/**
 * listPriceLimits of days up to `to`: the equity's corporate actions, ST periods, suspensions,
 * its market's calendar and its bars dated up to `to` (the window's, the close before it, the
 * first bar); the rows run to its last bar, so a version that may move that date matters while
 * it is before `to`, and while a loaded suspension is open to its market's latest bar date, so
 * one that may move that date too.
 */
export function limitsScope(req: FastifyRequest): Scope | null {
  const base = limitsOf(req);
  const q = req.query as Record<string, unknown>;
  for (const k of ['from', 'to', 'date']) if (q[k] !== undefined && typeof q[k] !== 'string') return null;
  if (base === null || base.kind !== 'instrument') return null;
  const { to } = dayOrWindow(q as { from?: string; to?: string; date?: string });
  return { ...base, bars: { from: 0, to }, ownEnd: to, marketEnd: to };
}

/** listValuations: the equity's bars of the window, and its statements, share capital and dividends whatever their dates. */
const valuationsOf = instrumentScope(['bars_1d', 'bars_1m', 'income_statements', 'balance_sheets', 'share_capital', 'dividends']);
export function valuationsScope(req: FastifyRequest): Scope | null {
  const base = valuationsOf(req);
  const q = req.query as Record<string, unknown>;
  for (const k of ['from', 'to', 'date']) if (q[k] !== undefined && typeof q[k] !== 'string') return null;
  if (base === null || base.kind !== 'instrument') return null;
  const { from, to } = dayOrWindow(q as { from?: string; to?: string; date?: string });
  return { ...base, bars: { from, to } };
}

/**
 * A page that reads only `datasets`, of whatever instrument (markets, a calendar, the
 * classifications; none: a list that ships with the service): a commit of others leaves it valid.
 */
export const datasetsScope = (datasets: readonly string[]) => (): Scope => ({ kind: 'datasets', datasets });

/** An instrument list or search: the catalog (instruments, their ST flags). */
export const catalogScope = (): Scope => ({ kind: 'catalog' });
