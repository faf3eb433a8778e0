/**
 * The market's mood as charts: breadth over the last trading days (advancers and decliners,
 * limit-up and limit-down counts, the highest 连板 streak), and the day's distribution of changes.
 */
import { HistogramSeries, LineSeries, type IChartApi } from 'lightweight-charts';
import type { Client } from './api.js';
import { QUIET, makeChart } from './chart-series.js';
import { distribution, type Changed } from './distribution.js';
import { h } from './dom.js';
import type { Palette } from './theme.js';

export interface BreadthDay {
  trade_date: string;
  advancers: number;
  decliners: number;
  limit_up: number;
  limit_down: number;
}

/** Days of breadth drawn, and of them the latest whose 连板 height is asked (one pool request a day). */
export const BREADTH_DAYS = 60;
export const STREAK_DAYS = 20;

/** The markets' breadth summed by day, oldest first. */
export function sumByDay(rows: BreadthDay[]): BreadthDay[] {
  const by = new Map<string, BreadthDay>();
  for (const r of rows) {
    const d = by.get(r.trade_date) ?? { trade_date: r.trade_date, advancers: 0, decliners: 0, limit_up: 0, limit_down: 0 };
    d.advancers += r.advancers;
    d.decliners += r.decliners;
    d.limit_up += r.limit_up;
    d.limit_down += r.limit_down;
    by.set(r.trade_date, d);
  }
  return [...by.values()].sort((a, b) => (a.trade_date < b.trade_date ? -1 : 1));
}

/** The highest 连板 streak of each day: the limit-up pool's largest consecutive_limit_ups. */
export async function streakHeights(client: Client, days: string[]): Promise<Map<string, number>> {
  const heights = await Promise.all(
    days.map((d) =>
      client
        .all<{ consecutive_limit_ups: number | null }>('/equities/pools/limit_up', { date: d, 'page[size]': 1000 }, 1000)
        .then((rows) => Math.max(0, ...rows.map((r) => r.consecutive_limit_ups ?? 0))),
    ),
  );
  return new Map(days.map((d, i) => [d, heights[i]]));
}

/** Breadth over time: advancers and decliners; limit-up (up) and limit-down (down, below zero) counts; 连板 height. */
export function breadthChart(box: HTMLElement, days: BreadthDay[], heights: Map<string, number>, p: Palette): IChartApi {
  const chart = makeChart(box, p, false);
  const line = (color: string, pane: number) =>
    chart.addSeries(LineSeries, { ...QUIET, color, lineWidth: 2, priceFormat: { type: 'volume' } }, pane);
  line(p.up, 0).setData(days.map((d) => ({ time: d.trade_date, value: d.advancers })));
  line(p.down, 0).setData(days.map((d) => ({ time: d.trade_date, value: d.decliners })));
  const limits = chart.addSeries(HistogramSeries, { ...QUIET, priceFormat: { type: 'volume' } }, 1);
  limits.setData(days.flatMap((d) => [{ time: d.trade_date, value: d.limit_up, color: p.up }]));
  const downs = chart.addSeries(HistogramSeries, { ...QUIET, priceFormat: { type: 'volume' } }, 1);
  downs.setData(days.map((d) => ({ time: d.trade_date, value: -d.limit_down, color: p.down })));
  const streak = chart.addSeries(
    LineSeries,
    { ...QUIET, color: p.average, lineWidth: 2, pointMarkersVisible: true, priceFormat: { type: 'volume' } },
    2,
  );
  streak.setData(days.filter((d) => heights.has(d.trade_date)).map((d) => ({ time: d.trade_date, value: heights.get(d.trade_date)! })));
  chart.timeScale().fitContent();
  return chart;
}

export function breadthKey(p: Palette): HTMLElement {
  const key = (colour: string, text: string) => h('span', {}, h('i', { style: `background:${colour}` }), text);
  return h(
    'div',
    { class: 'breadth-key' },
    key(p.up, '上涨家数 / 涨停（上）'),
    key(p.down, '下跌家数 / 跌停（下）'),
    key(p.average, `连板高度（近${STREAK_DAYS}日）`),
  );
}

/** The day's distribution of changes as bars, the count on each. */
export function distributionChart(rows: Changed[]): HTMLElement {
  const bins = distribution(rows);
  const max = Math.max(1, ...bins.map((b) => b.count));
  const bar = (b: (typeof bins)[number]) =>
    h(
      'div',
      { class: 'bar', 'data-bin': b.label, 'data-count': b.count },
      h('span', { class: 'n' }, b.count),
      h('div', { class: `fill ${b.side}`, style: `height:${(b.count / max) * 100}%` }),
    );
  const up = bins.filter((b) => b.side === 'up').reduce((n, b) => n + b.count, 0);
  const down = bins.filter((b) => b.side === 'down').reduce((n, b) => n + b.count, 0);
  return h(
    'div',
    { id: 'distribution' },
    h('div', { class: 'bars' }, ...bins.map(bar)),
    h('div', { class: 'bars-labels' }, ...bins.map((b) => h('span', {}, b.label))),
    h('p', { class: 'hint' }, `上涨 ${up} 家，下跌 ${down} 家，平盘 ${bins[6].count} 家（当日有成交的股票）`),
  );
}
