import { Type } from '@sinclair/typebox';
import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, type Kind } from '../../route.js';
import { RowSlices, sendPageJson, sendPageSlices, type KeyOf } from '../../collection.js';
import type { PageRequest } from '../../../store/readers/page.js';
import { indicatorWriter, type JsonBytes } from '../../../render/json-bytes.js';
import { adjustmentQuery, intervalQuery, timeWindowParams } from '../../params.js';
import { TechnicalIndicatorCollectionResponse } from '../../schemas/analytics.js';
import { BAR_KEY, barWindow, type BarQuery } from '../series/bars.js';
import { INDICATOR_IDS, INDICATORS, type IndicatorId, type Values } from '../../../indicators/registry.js';
import { windowSeconds } from '../../../lib/time.js';
import type { Bar } from '../../../market/types.js';
import { KINDS } from '../../../market/kinds.js';
import type { Adjuster } from '../../../query/analytics.js';
import { dailyTs, readDailyPage } from '../../../query/bars.js';

const KEYS = INDICATOR_IDS.map((id) => `${id}: ${INDICATORS[id].keys.join(', ')}`).join('; ');

/** listEquityTechnicalIndicators and listIndexTechnicalIndicators. */
export function registerIndicators(app: App, kind: Kind, path: string, operationId: string) {
  const { analytics, catalog, codec, marketData, renderer } = app.svc;
  app.get(`/api/v1/${path}/:instrument_id/technical-indicators/:indicator`, {
    schema: operation({
      operationId, tags: [path], summary: 'Technical indicator points, one per bar, ascending by time.',
      description: `Computed over the instrument's whole history at the interval and adjustment asked for, so a point's values `
        + `never depend on the window or page that selected it; a value without enough history is absent. Keys: ${KEYS}. `
        + 'Definitions follow Tongdaxin (see docs/analytics.md).',
      params: { ...instrumentIdParam, indicator: Type.Unsafe<IndicatorId>({ type: 'string', enum: [...INDICATOR_IDS], description: 'IndicatorId.' }) },
      query: { interval: intervalQuery, adjustment: Type.Optional(adjustmentQuery), ...timeWindowParams },
      response: TechnicalIndicatorCollectionResponse, notFound: true, collection: true,
    }),
  }, async (req, reply) => {
    const q = req.query as unknown as BarQuery;
    const indicator = req.params.indicator as IndicatorId;
    const inst = await pathInstrument(app.svc, req.params.instrument_id, kind);
    const adjustment = KINDS[kind].adjustable ? (q.adjustment ?? 'none') : 'none';
    const win = barWindow(q);
    const { from, to } = windowSeconds(win);
    let adj: Adjuster;
    let values: Values[] = [];
    const write = indicatorWriter(inst.id, indicator, q.interval, adjustment);
    const writePoint = (w: JsonBytes, x: { bar: Bar; i: number }) => write(w, x.bar, values[x.i]);
    const points = async (p: PageRequest<KeyOf<typeof BAR_KEY>>) => {
      adj = await analytics.adjuster(inst, adjustment, p.after ? p.after[1] : null);
      const lo = p.after ? Math.max(from, p.after[0] + 1) : from;
      const r = await analytics.indicatorPage(inst, q.interval, adj, indicator, lo, to, p.limit);
      values = r.values;
      const out: { bar: Bar; i: number }[] = [];
      for (let i = r.start; i < r.bars.length && r.bars[i].ts <= to && out.length < p.limit; i++) out.push({ bar: r.bars[i], i });
      return out;
    };
    if (q.interval === '1d' && adjustment === 'none' && (await catalog.precomputed()).has(indicator)) {
      // Precomputed (derived/indicator-pages.ts): the points' JSON is stored, as the daily bars' is.
      let basis = 0;
      return sendPageSlices(req, reply, codec, renderer, operationId, async (p) => {
        basis = p.after ? p.after[1] : 0;
        const pages = await readDailyPage(marketData, inst.inst, win, p.after ? p.after[0] : null, p.limit, indicator);
        // None stored for the window: it holds no bar, or the indicator is no longer precomputed
        // and the catalog has not seen it yet. Computed either way.
        return pages.keys.length > 0 ? pages : new RowSlices(await points(p), (x) => x.bar.date, writePoint);
      }, BAR_KEY, (date) => [dailyTs(date), basis]);
    }
    return sendPageJson(req, reply, codec, renderer, operationId, points, BAR_KEY, (x) => [x.bar.ts, adj.basis], writePoint);
  });
}
