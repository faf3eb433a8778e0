import { BarCollectionResponse } from '../../schemas/market-data.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import type { InstrumentKind } from '../../../market/kinds.js';
import { sendPage } from '../../collection.js';
import { adjustmentQuery, intervalQuery, timeWindow, timeWindowParams, type TimeWindow } from '../../params.js';

import { periodEnd, periodStart } from '../../../query/bars.js';
import { planBars } from '../../../query/plan-bars.js';
import { formatDate, marketEpoch, parseDate } from '../../../lib/time.js';
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
