import { BarCollectionResponse } from '../../schemas/market-data.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import type { InstrumentKind } from '../../../market/kinds.js';
import { sendPage } from '../../collection.js';
import { adjustmentQuery, intervalQuery, timeWindow, timeWindowParams, type TimeWindow } from '../../params.js';

import { periodEnd, periodStart } from '../../../query/bars.js';
import { planBars } from '../../../query/plan-bars.js';
import { epochToMarketDate, formatDate, marketEpoch, parseDate } from '../../../lib/time.js';
import type { Scope } from '../../../query/change-index.js';
import type { FastifyRequest } from 'fastify';
import type { Snapshot } from '../../../query/snapshot.js';
import type { AdjustmentId, IntervalId } from '../../../market/types.js';
import { INTERVALS } from '../../../market/intervals.js';

/** Bars and indicator points (query/plan-bars.ts, BarKey): the bar's end (epoch seconds), then the adjustment basis (ex-date, 0 for none). */
export const BAR_KEY = ['time', 'date'] as const;

export interface BarQuery {
  interval: IntervalId;
  adjustment?: AdjustmentId;
  from?: string;
  to?: string;
  date?: string;
}

/** The instant window of a bar query; `date` with a period interval means the period holding it. */
export function barWindow(q: BarQuery): TimeWindow {
  const win = timeWindow(q);
  if (q.date === undefined || INTERVALS[q.interval].kind !== 'period') return win;
  const d = parseDate(q.date)!;
  return { fromMs: marketEpoch(periodStart(d, q.interval), 0) * 1000, toMs: marketEpoch(periodEnd(d, q.interval), 1440) * 1000 - 1 };
}

const FIRST = 0,
  LAST = 99991231;

/** The dates (YYYYMMDD) of an instant window's ends, open ends as the first and last dates. */
function windowDates(q: BarQuery): { from: number; to: number } {
  const w = barWindow(q);
  return {
    from: w.fromMs <= -8.64e15 ? FIRST : epochToMarketDate(Math.floor(w.fromMs / 1000)),
    to: w.toMs >= 8.64e15 ? LAST : epochToMarketDate(Math.floor(w.toMs / 1000)),
  };
}

/**
 * A page of an instrument's bars (`indicator`: of an indicator over them), by the instrument id
 * in the path. Unadjusted bars depend on the instrument's bar rows of their window only (a
 * period bar on those of its whole period, up to a year before the window); an indicator's
 * values on every bar up to the window's end; adjusted prices on the factors, so on every date
 * of the instrument. Any other dataset of the instrument counts whatever its dates, and the
 * first date of the window on where the store's data end (pastTheData's notice).
 */
export function barScope(indicator: boolean) {
  return (req: FastifyRequest): Scope | null => {
    const id = (req.params as { instrument_id?: unknown }).instrument_id;
    const q = req.query as Record<string, unknown>;
    const interval = q.interval as IntervalId;
    if (typeof id !== 'string' || typeof interval !== 'string' || !Object.hasOwn(INTERVALS, interval)) return null;
    for (const k of ['from', 'to', 'date', 'adjustment']) if (q[k] !== undefined && typeof q[k] !== 'string') return null;
    const { from, to } = windowDates(q as unknown as BarQuery);
    // Empty window pages say where the data end (also when the store has none: 1, never 0).
    const pastData = Math.max(from, 1);
    if ((q.adjustment ?? 'none') !== 'none') return { kind: 'instrument', id, pastData };
    const lo = indicator ? FIRST : INTERVALS[interval].kind === 'period' ? Math.max(FIRST, from - 10000) : from;
    return { kind: 'instrument', id, bars: { from: lo, to }, pastData };
  };
}

/**
 * Why a window's first page is empty when it begins after the store's data (its latest day of
 * daily bars): `The store's data ends on 2026-11-20, before this window.` Null otherwise.
 */
export async function pastTheData(snap: Snapshot, window: TimeWindow): Promise<string | null> {
  const latest = await snap.equityDays.latestDate();
  if (latest === null) return 'The store holds no bars yet.';
  return window.fromMs >= marketEpoch(latest, 1440) * 1000 ? `The store's data ends on ${formatDate(latest)}, before this window.` : null;
}

/** listEquityBars, listIndexBars and listFundBars. */
export function registerBars(app: App, kind: InstrumentKind, path: string, operationId: string) {
  app.get(
    `/api/v1/${path}/:instrument_id/bars`,
    {
      schema: operation({
        operationId,
        tags: [path],
        summary: 'OHLCV bars of any interval, ascending by time.',
        description:
          '1m and 1d bars are stored; 5m-60m are aggregated from 1m (buckets never span the lunch break), ' +
          "1w/1mo/1q/1y from trading days (labelled by the period's last trading day). Bars are selected by their end " +
          'timestamp. With `date`, intraday and daily intervals give that day, period intervals the period holding it. ' +
          'Adjusted prices (forward/backward ratio factors: published ones where loaded, else from corporate actions; see listAdjustmentFactors) are rounded half-up to the tick; volume is scaled inversely. ' +
          'Indices are never adjusted; a fund only by factors loaded for it (a split), its prices have 3 decimals.',
        params: instrumentIdParam,
        query: { interval: intervalQuery, adjustment: Type.Optional(adjustmentQuery), ...timeWindowParams },
        response: BarCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: barScope(false) } },
    },
    async (req, reply) => {
      const q = req.query as unknown as BarQuery;
      const inst = await pathInstrument(req, kind);
      const [snap, window] = [snapOf(req), barWindow(q)];
      const plan = planBars(snap, { inst, interval: q.interval, adjustment: q.adjustment, window });
      return sendPage(req, reply, app.svc, operationId, BAR_KEY, { ...plan, notice: () => pastTheData(snap, window) });
    },
  );
}
