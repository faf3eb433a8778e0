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

/** Columns of the statement tables by rendering: money (fen), per-share (1/10000 CNY), hundredths. */
export interface StatementFields {
  money?: string[];
  perShare?: string[];
  hundredths?: string[];
}

/**
 * The writer of a statement table's records (render/json-bytes.ts) in the context of the instrument's
 * id, fields in the order of the record's schema: the period's dates and type, then each column
 * at its scale. The routes make one per table when they are registered.
 */
export function statementWriter(table: string, record: TObject, f: StatementFields): RecordWriter<Record<string, any>, string> {
  const scales = new Map<string, [number, number]>();
  for (const c of f.money ?? []) scales.set(c, [MONEY_SCALE, 2]);
  for (const c of f.perShare ?? []) scales.set(c, [4, 4]);
  for (const c of f.hundredths ?? []) scales.set(c, [2, 2]);
  return recordWriter(
    Object.keys(record.properties).map((key): FieldSpec<Record<string, any>, string> => {
      if (key === 'instrument_id') return { key, string: (_r, id) => id };
      if (key === 'report_date' || key === 'announce_date') return { key, date: (r) => r[key] };
      if (key === 'report_type') return { key, string: (r) => r[key] };
      const s = scales.get(key);
      if (!s) throw new Error(`${table}.${key} has no rendering`);
      return { key, scaled: (r) => r[key], scale: s[0], digits: s[1] };
    }),
  );
}

export const dividendRecord = (instrumentId: string) => (r: Selectable<DividendTable>) => ({
  instrument_id: instrumentId,
  report_period: formatDate(r.report_period),
  announce_date: formatDate(r.announce_date),
  record_date: optDate(r.record_date),
  ex_date: optDate(r.ex_date),
  pay_date: optDate(r.pay_date),
  cash_per_share: formatScaled(r.cash_per_share, 5, 5),
  bonus_per_share: formatScaled(r.bonus_ratio, 6, 6),
  transfer_per_share: formatScaled(r.transfer_ratio, 6, 6),
  progress: r.progress,
});

export const forecastRecord = (instrumentId: string) => (r: Selectable<EarningsForecastTable>) => ({
  instrument_id: instrumentId,
  report_date: formatDate(r.report_date),
  report_type: r.report_type,
  announce_date: formatDate(r.announce_date),
  type: r.type,
  net_profit_min: money(r.net_profit_min),
  net_profit_max: money(r.net_profit_max),
  previous_net_profit: optMoney(r.previous_net_profit),
  change_min: hundredths(r.change_min),
  change_max: hundredths(r.change_max),
  summary: r.summary,
});

export const holdingRecord = (instrumentId: string) => (r: Selectable<InstitutionalHoldingTable>) => ({
  instrument_id: instrumentId,
  report_date: formatDate(r.report_date),
  announce_date: formatDate(r.announce_date),
  rank: r.rank,
  holder_name: r.holder_name,
  holder_type: r.holder_type,
  shares: r.shares,
  percent_of_float: formatScaled(r.percent_of_float, 2, 2),
  change: r.change,
});

export const managementRecord = (instrumentId: string) => (r: Selectable<ManagementTable>) => ({
  instrument_id: instrumentId,
  name: r.name,
  title: r.title,
  gender: r.gender,
  birth_year: r.birth_year,
  education: r.education,
  start_date: formatDate(r.start_date),
  end_date: optDate(r.end_date),
});

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
