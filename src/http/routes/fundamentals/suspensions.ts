import { Type } from '@sinclair/typebox';
import { instrumentScope } from '../../scopes.js';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage, pageOfList } from '../../collection.js';
import { dateQuery, dateWindowParams, dayOrWindow } from '../../params.js';
import { SuspensionCollectionResponse } from '../../schemas/fundamentals.js';

import { suspensions } from '../../../datasets/suspensions.js';
import { inForce, overlaps } from '../../../query/suspensions.js';
import { declaredItem } from './declared.js';

/** listSuspensions (CONTRACT.md §1): an equity's suspension intervals, loaded or derived from its bars. */
export function registerSuspensions(app: App) {
  const item = declaredItem(suspensions);
  app.get(
    '/api/v1/equities/:instrument_id/suspensions',
    {
      schema: operation({
        operationId: 'listSuspensions',
        tags: ['equities'],
        summary: 'Suspensions (停牌), ascending by start date.',
        description:
          'Whole trading days without trading (no daily bar; price limits mark them `suspended`), or an intraday halt of part of one day ' +
          '(`halt_from`..`halt_to`; the day keeps its bar). As announced where a suspension file was loaded for the equity (`source: exchange`); ' +
          'otherwise the runs of trading days without a bar between its first and last bars, `source: derived` (an equity whose bars stop early ' +
          'may simply have no more data: a suspension in progress is known from an announcement, end_date null, or once it trades again). ' +
          'from/to select the intervals overlapping the window; date the one in force that day.',
        params: instrumentIdParam,
        query: {
          ...dateWindowParams,
          date: Type.Optional(dateQuery('One trading day: the interval in force that day. Not with from/to.')),
        },
        response: SuspensionCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: instrumentScope(['suspensions', 'bars_1d', 'bars_1m', 'trading_days', 'markets']) } },
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      const q = req.query as { from?: string; to?: string; date?: string };
      const w = dayOrWindow(q);
      const pick = w.day
        ? (s: Parameters<typeof inForce>[0]) => inForce(s, w.from)
        : (s: Parameters<typeof overlaps>[0]) => overlaps(s, w.from, w.to);
      return sendPage(
        req,
        reply,
        app.svc,
        'listSuspensions',
        ['date'],
        schemaPlan(
          reply,
          SuspensionCollectionResponse,
          async (p) => {
            // An equity has at most a few hundred intervals: all of them, filtered and paged here.
            return pageOfList((await snapOf(req).suspensions.of(inst)).filter(pick), (s) => s.start_date, p);
          },
          (s) => [s.start_date],
          (s) => ({ ...item(s as never, inst.id), source: s.source }),
        ),
      );
    },
  );
}
