/**
 * The chart's legend: the bar under the crosshair (else the latest) as Tongdaxin's status line
 * says it: market time, open/high/low/close, change and % against the previous bar, volume in 手
 * and amount in 万/亿 (exact values in the tooltip and `data-exact`), turnover from the float
 * shares in force, the day's limits, the overlaid instrument and each indicator's values.
 */
import type { ChartData, Bar } from './chart-data.js';
import { percentChange, round, subtract } from './decimal.js';
import { decimals } from './chart-series.js';
import { fill, h } from './dom.js';
import { moneyText, turnoverRate, volumeExact, volumeText } from './format.js';
import { indicatorById } from './indicators.js';
import type { Palette } from './theme.js';
import { label } from './time.js';

export const direction = (change: string | null) =>
  change === null ? '' : change.startsWith('-') ? 'down' : /[1-9]/.test(change) ? 'up' : '';

/** A legend field; `exact`: the value the shown one is made from (its `data-exact`), `tip` its tooltip. */
export const field = (name: string, title: string, value: string | null, cls = '', exact?: string | null, tip = exact) =>
  h(
    'span',
    { class: 'field' },
    h('span', { class: 'k' }, title),
    h('span', { class: `v ${cls}`, 'data-field': name, 'data-exact': exact ?? undefined, title: tip ?? undefined }, value ?? '—'),
  );

/** The legend of bar `i` of the loaded bars; `limits`: whether the limit lines are drawn. */
export function showBar(legend: HTMLElement, data: ChartData, i: number, p: Palette, limits: boolean, overlayBase: Bar | null): void {
  const bars = data.bars;
  const b = bars[i];
  const prev = bars[i - 1]?.close ?? null;
  const change = prev === null ? null : subtract(b.close, prev);
  const pct = prev === null ? null : percentChange(b.close, prev);
  const dir = direction(change);
  const limit = data.limits.get(b.trade_date);
  const float = data.equity ? data.floatOn(b.trade_date) : null;
  const ov = data.overlay?.bars.get(b.timestamp) ?? null;
  const rows = [
    h(
      'div',
      { class: 'row' },
      h('span', { class: 'time', 'data-field': 'time' }, label(b, data.state.interval)),
      field('open', '开', b.open),
      field('high', '高', b.high),
      field('low', '低', b.low),
      field('close', '收', b.close, dir),
      field('change', '涨跌', change, dir),
      field('pct_change', '涨幅%', pct, dir),
      field('volume', '量', volumeText(b.volume), '', String(b.volume), volumeExact(b.volume)),
      field('amount', '额', moneyText(b.amount), '', b.amount),
      float ? field('turnover', '换手%', turnoverRate(b.volume, float), '', `${b.volume} / ${float} 流通股`) : null,
      limit && limits ? field('limit', '涨停/跌停', `${limit.limit_up} / ${limit.limit_down}`) : null,
    ),
    data.overlay
      ? h(
          'div',
          { class: 'row', 'data-overlay': data.overlay.inst.id },
          h('span', { class: 'k', style: `color:${p.overlay}` }, `叠加 ${data.overlay.inst.name}`),
          field('overlay.close', '收', ov?.close ?? null),
          field(
            'overlay.pct',
            '区间%',
            ov && overlayBase ? percentChange(ov.close, overlayBase.close) : null,
            direction(ov && overlayBase ? subtract(ov.close, overlayBase.close) : null),
          ),
        )
      : null,
    ...data.state.indicators.map((id) => {
      const look = indicatorById(id)!;
      const values = data.points.get(id)?.get(b.timestamp) ?? {};
      return h(
        'div',
        { class: 'row', 'data-indicator': id },
        h('span', { class: 'k' }, look.title),
        ...look.keys.map((k, n) =>
          h(
            'span',
            { class: 'field' },
            h('span', { class: 'k', style: `color:${p.lines[n % p.lines.length]}` }, k.toUpperCase()),
            indicatorValue(`${id}.${k}`, values[k], look.overlay ? decimals(b.close) : null),
          ),
        ),
      );
    }),
  ];
  fill(legend, ...rows);
  legend.dataset.timestamp = b.timestamp;
  legend.dataset.index = String(i);
}

/**
 * An indicator's value: a line over the candles (MA, EMA, BOLL) at the price's decimals, as
 * Tongdaxin shows it (`MA5 1446.91`), the API's exact value in its tooltip and `data-exact`;
 * others as the API wrote them.
 */
function indicatorValue(name: string, v: string | undefined, places: number | null): HTMLElement {
  if (v === undefined) return h('span', { class: 'v', 'data-field': name }, '—');
  if (places === null) return h('span', { class: 'v', 'data-field': name }, v);
  const shown = round(v, places);
  return h('span', { class: 'v', 'data-field': name, 'data-exact': v, title: shown === v ? undefined : v }, shown);
}

/** The legend of a suspended day (no bar). */
export function showSuspended(legend: HTMLElement, day: string): void {
  fill(legend, h('span', { 'data-field': 'time' }, day), h('span', { class: 'suspended', 'data-field': 'suspended' }, '停牌'));
}
