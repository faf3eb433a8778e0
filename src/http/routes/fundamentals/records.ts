/** The capital flow record: stored turnover by class, with the net inflows and their ratios (query/derived-fields.ts). */
import type { Selectable } from 'kysely';
import { formatScaled, MONEY_SCALE } from '../../../lib/decimal.js';
import { formatDate, formatTimestamp } from '../../../lib/time.js';
import { closeEpoch } from '../../../market/sessions.js';
import type { CapitalFlowTable } from '../../../store/schema-fundamentals.js';
import { netInflowRatio } from '../../../query/derived-fields.js';

const money = (v: number) => formatScaled(v, MONEY_SCALE, 2);

export const capitalFlowRecord = (instrumentId: string) => (r: Selectable<CapitalFlowTable>) => {
  const out: Record<string, unknown> = {
    instrument_id: instrumentId,
    timestamp: formatTimestamp(closeEpoch(r.date)),
    trade_date: formatDate(r.date),
    amount: money(r.amount),
  };
  const cls = (key: string, buy: number, sell: number) => {
    out[`${key}_buy`] = money(buy);
    out[`${key}_sell`] = money(sell);
    out[`${key}_net`] = money(buy - sell);
    out[`${key}_net_ratio`] = netInflowRatio(buy - sell, r.amount);
  };
  cls('extra_large', r.xl_buy, r.xl_sell);
  cls('large', r.l_buy, r.l_sell);
  cls('medium', r.m_buy, r.m_sell);
  cls('small', r.s_buy, r.s_sell);
  cls('main', r.xl_buy + r.l_buy, r.xl_sell + r.l_sell);
  return out;
};
