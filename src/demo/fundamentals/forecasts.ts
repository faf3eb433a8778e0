/**
 * Earnings forecasts (业绩预告) of net profit attributable to shareholders of the parent, made
 * before the report and always bracketing the figure later reported. Mandatory-style rules:
 * a loss, a turnaround or a change of at least 50% is forecast for most annual and half-year
 * periods; other periods only now and then. A forecast needs the same period of the previous
 * year among the published statements (the change is measured against it).
 *
 * Type, from the range [min, max] and last year's figure P:
 *   min < 0 < max: uncertain; max ≤ 0: continued_loss if P < 0, else loss; min ≥ 0 and P < 0:
 *   turnaround; otherwise by the midpoint m: m − P ≥ 50% of P increase, ≥ 0 slight_increase,
 *   > −50% slight_decrease, else decrease.
 */
import type { Rng } from '../random.js';
import type { EarningsForecastTable } from '../../store/schema-fundamentals.js';
import { formatScaled } from '../../lib/decimal.js';
import type { Statements } from './statements.js';
import { dayIn, ratio } from './util.js';

export type ForecastRow = Omit<EarningsForecastTable, 'inst'>;

/** Forecast amounts are rounded outwards to 10,000 CNY (1e6 fen), as announcements quote 万元. */
const WAN = 1_000_000;

export function forecastType(min: number, max: number, prev: number): EarningsForecastTable['type'] {
  if (min < 0 && max > 0) return 'uncertain';
  if (max <= 0) return prev < 0 ? 'continued_loss' : 'loss';
  if (prev < 0) return 'turnaround';
  const sum = min + max; // 2m; compare 2m with multiples of P exactly
  if (sum >= 3 * prev) return 'increase';
  if (sum >= 2 * prev) return 'slight_increase';
  if (sum > prev) return 'slight_decrease';
  return 'decrease';
}

const TYPE_CN: Record<string, string> = {
  increase: '预增',
  decrease: '预减',
  turnaround: '扭亏',
  loss: '首亏',
  continued_loss: '续亏',
  slight_increase: '略增',
  slight_decrease: '略减',
  uncertain: '不确定',
};
const LABEL = ['1-3月', '1-6月', '1-9月', '年度'];
const MANDATORY = [0.25, 0.7, 0.25, 0.95];
const VOLUNTARY = [0.03, 0.1, 0.03, 0.15];

/** Announcement window of a forecast for quarter q of year y, before the report's own window. */
function window(y: number, q: number): [number, number] {
  if (q === 1) return [y * 10000 + 401, y * 10000 + 414];
  if (q === 2) return [y * 10000 + 701, y * 10000 + 715];
  if (q === 3) return [y * 10000 + 1008, y * 10000 + 1014];
  return [(y + 1) * 10000 + 110, (y + 1) * 10000 + 131];
}

const wan = (fen: number) => formatScaled(fen, 6, 2);

/** Forecasts announced by `end`, for `all` statements (ascending, reported or not yet). */
export function forecastRows(r: Rng, all: Statements[], end: number): ForecastRow[] {
  const byDate = new Map(all.map((s) => [s.period.date, s]));
  const rows: ForecastRow[] = [];
  for (const s of all) {
    const { year, q, date, type } = s.period;
    const prev = byDate.get(date - 10000);
    const draw = r.next(),
      lo = r.uniform(0.03, 0.25),
      hi = r.uniform(0.03, 0.25);
    const [from, to] = window(year, q);
    const announce = dayIn(r, from, to);
    if (!prev || prev.period.announce > announce || announce > end || announce >= s.period.announce) continue;
    const a = s.income.net_profit_attributable,
      p = prev.income.net_profit_attributable;
    const notable = a < 0 || p < 0 || Math.abs(a - p) * 2 >= Math.abs(p);
    if (draw >= (notable ? MANDATORY : VOLUNTARY)[q - 1]) continue;
    const min = a === 0 ? -WAN : Math.floor((a - Math.abs(a) * lo) / WAN) * WAN;
    const max = a === 0 ? WAN : Math.ceil((a + Math.abs(a) * hi) / WAN) * WAN;
    const kind = forecastType(min, max, p);
    const cmin = p === 0 ? null : ratio(min - p, Math.abs(p), 10000);
    const cmax = p === 0 ? null : ratio(max - p, Math.abs(p), 10000);
    const change =
      cmin === null || cmax === null ? '' : `，上年同期为${wan(p)}万元，同比变动${formatScaled(cmin, 2, 2)}%至${formatScaled(cmax, 2, 2)}%`;
    rows.push({
      report_date: date,
      report_type: type,
      announce_date: announce,
      type: kind,
      net_profit_min: min,
      net_profit_max: max,
      previous_net_profit: p,
      change_min: cmin,
      change_max: cmax,
      summary: `预计${year}年${LABEL[q - 1]}归属于上市公司股东的净利润为${wan(min)}万元至${wan(max)}万元${change}。业绩预告类型：${TYPE_CN[kind]}。`,
    });
  }
  return rows;
}
