/** Row -> response record mappers of the fundamentals routes (units: schema-fundamentals.ts). */
import type { Selectable } from 'kysely';
import type { TObject } from '@sinclair/typebox';
import { recordWriter, type FieldSpec, type RecordWriter } from '../../../render/record-writer.js';
import { formatScaled, MONEY_SCALE } from '../../../lib/decimal.js';
import { formatDate, formatTimestamp } from '../../../lib/time.js';
import { closeEpoch } from '../../../market/sessions.js';
import type {
  CapitalFlowTable,
  DividendTable,
  EarningsForecastTable,
  InstitutionalHoldingTable,
  ManagementTable,
} from '../../../store/schema-fundamentals.js';

const money = (v: number) => formatScaled(v, MONEY_SCALE, 2);
const optMoney = (v: number | null) => (v === null ? null : money(v));
const hundredths = (v: number | null) => (v === null ? null : formatScaled(v, 2, 2));
const optDate = (d: number | null) => (d === null ? null : formatDate(d));

/** net / amount × 100 in hundredths, half away from zero, exactly; null for a day without turnover. */
function netRatio(net: number, amount: number): string | null {
  if (amount === 0) return null;
  const n = BigInt(Math.abs(net)) * 10000n,
    a = BigInt(amount);
  const q = Number((n * 2n + a) / (a * 2n));
  return formatScaled(net < 0 ? -q : q, 2, 2);
}

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
    out[`${key}_net_ratio`] = netRatio(buy - sell, r.amount);
  };
  cls('extra_large', r.xl_buy, r.xl_sell);
  cls('large', r.l_buy, r.l_sell);
  cls('medium', r.m_buy, r.m_sell);
  cls('small', r.s_buy, r.s_sell);
  cls('main', r.xl_buy + r.l_buy, r.xl_sell + r.l_sell);
  return out;
};
