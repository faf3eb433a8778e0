import { Type } from '@sinclair/typebox';
import { dayScope } from '../../scopes.js';
import type { App } from '../../services.js';
import { operation, snapOf } from '../../route.js';
import { schemaPlan, sendPage, pageOfList } from '../../collection.js';
import { dateQuery } from '../../params.js';
import { PoolConstituentCollectionResponse } from '../../schemas/analytics.js';
import { formatScaled, MONEY_SCALE, PRICE_SCALE } from '../../../lib/decimal.js';
import { pctChange, turnoverRate } from '../../../query/derived-fields.js';
import { formatDate, formatTimestamp, parseDate } from '../../../lib/time.js';
import { ApiError, invalid, notFound } from '../../../lib/errors.js';
import { POOL_TYPES } from '../../../market/pool-types.js';
import type { PoolTypeId } from '../../../market/pools.js';
import type { PoolMember } from '../../../query/pools.js';
import { indexMembers, indexQuery } from '../../index-filter.js';

const px = (v: number | null) => (v === null ? null : formatScaled(v, PRICE_SCALE, 2));
const IDS = new Set<string>(POOL_TYPES.map((t) => t.id));

/** listPoolConstituents: members of one pool on one trading day. */
export default async function poolRoutes(app: App) {
  app.get(
    '/api/v1/equities/pools/:pool_type',
    {
      schema: operation({
        operationId: 'listPoolConstituents',
        tags: ['equities'],
        summary: 'Constituents of a stock pool on a trading day, ordered by instrument id.',
        description:
          'Pools are derived from daily bars, price limits and (for limit-up timing) 1m bars and the closing quote. Rules: see listPoolTypes and docs/analytics.md.',
        params: {
          pool_type: Type.String({ description: 'PoolTypeId: limit_up, limit_down, broken_limit_up, previous_limit_up, strong, sub_new.' }),
        },
        query: { date: Type.Optional(dateQuery('Trading day (default: the latest stored trading day).')), index: indexQuery },
        response: PoolConstituentCollectionResponse,
        notFound: true,
        collection: true,
      }),
      config: { behaviour: { scope: dayScope } },
    },
    async (req, reply) => {
      const type = req.params.pool_type;
      if (!IDS.has(type)) throw notFound(`No pool type ${type}; pool types are ${[...IDS].join(', ')}`);
      const q = req.query as { date?: string; index?: string };
      const index = indexMembers(snapOf(req), q.index);
      let date: number;
      if (q.date !== undefined) {
        date = parseDate(q.date)!;
        if (!(await snapOf(req).calendars.anyTradingDay(date))) throw new ApiError(invalid('date', `${q.date} is not a trading day`));
      } else {
        const latest = await snapOf(req).equityDays.latestDate();
        if (latest === null) throw new ApiError(invalid('date', 'the store holds no daily bars yet; give a date'));
        date = latest;
      }
      const all = await snapOf(req).pools.members(type as PoolTypeId, date);
      const within = index ? await index.on(date) : null;
      const catalog = snapOf(req).catalog;
      const members = within ? all.filter((m) => within.has(catalog.get(m.id)!.inst)) : all;
      return sendPage(
        req,
        reply,
        app.svc,
        'listPoolConstituents',
        ['str'],
        schemaPlan(
          reply,
          PoolConstituentCollectionResponse,
          async (p) => pageOfList(members, (m) => m.id, p),
          (m: PoolMember) => [m.id],
          (m: PoolMember) => {
            const bar = m.day.bar!;
            const limitType = type === 'limit_up' || type === 'broken_limit_up';
            return {
              instrument_id: m.id,
              name: m.name,
              pool_type: type,
              trade_date: formatDate(date),
              close: px(bar.close)!,
              pre_close: px(m.day.preClose),
              pct_change: pctChange(bar.close, m.day.preClose),
              volume: bar.volume,
              amount: bar.amount === null ? null : formatScaled(bar.amount, MONEY_SCALE, 2),
              turnover_rate: turnoverRate(bar.volume, m.floatShares),
              limit_up: px(m.day.up),
              limit_down: px(m.day.down),
              consecutive_limit_ups: type === 'limit_up' ? m.streak : type === 'previous_limit_up' ? m.previousStreak : null,
              first_limit_time: limitType && m.firstLimit !== null ? formatTimestamp(m.firstLimit) : null,
              last_limit_time: type === 'limit_up' && m.lastLimit !== null ? formatTimestamp(m.lastLimit) : null,
              broken_count: limitType ? m.broken : null,
              sealed_amount: type === 'limit_up' && m.sealedAmount !== null ? formatScaled(m.sealedAmount, MONEY_SCALE, 2) : null,
              strong_reason: type === 'strong' ? m.strongReason : null,
            };
          },
        ),
      );
    },
  );
}
