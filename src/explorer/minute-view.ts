/**
 * 分时: an instrument's minute price line with its average-price line (each day's running amount
 * over volume), volume in 手, the previous close as the zero line (percent on the left axis), and
 * the day's limits; one day (any with minute bars) or five.
 */
import { LineSeries, HistogramSeries, LineStyle, type IChartApi, type ISeriesApi, type Time, type UTCTimestamp } from 'lightweight-charts';
import { ApiFailure, type Client } from './api.js';
import { chartKey } from './chart-keys.js';
import { direction, field } from './chart-legend.js';
import { makeChart, QUIET } from './chart-series.js';
import { percentChange, subtract } from './decimal.js';
import { fill, h } from './dom.js';
import { axisWanYi, moneyText, volumeExact, volumeText } from './format.js';
import { instrumentHead } from './instrument-head.js';
import type { Instrument } from './instruments.js';
import { averageLine, symmetricRange } from './minute-data.js';
import { loadMinutes, type MinuteDays } from './minute-load.js';
import { onThemeChange, palette } from './theme.js';
import { minuteTickLabel, wallSeconds } from './time.js';
import type { View } from './view.js';

export interface MinuteState {
  date?: string;
  days: 1 | 5;
}

export function minuteView(root: HTMLElement, client: Client, inst: Instrument, state: MinuteState, go: (s: MinuteState) => void): View {
  return new MinuteView(root, client, inst, state, go);
}

class MinuteView implements View {
  private readonly box: HTMLElement;
  private readonly legend = h('div', { class: 'legend beside-left-axis', id: 'legend' });
  private readonly note = h('p', { class: 'chart-note', id: 'chart-note' });
  private readonly picker: HTMLInputElement;
  private chart: IChartApi | null = null;
  private price: ISeriesApi<'Line'> | null = null;
  private data: MinuteDays | null = null;
  private avg: (string | null)[] = [];
  private shown = -1;
  private closed = false;
  private readonly places: number;
  private readonly unTheme: () => void;

  constructor(
    root: HTMLElement,
    private client: Client,
    private inst: Instrument,
    private state: MinuteState,
    go: (s: MinuteState) => void,
  ) {
    this.places = inst.kind === 'fund' ? 3 : 2;
    this.box = h('div', {
      class: 'chart minute',
      id: 'minute',
      'data-state': 'loading',
      'data-instrument': inst.id,
      'data-days': state.days,
    });
    this.picker = h('input', { type: 'date', id: 'minute-date', title: '日期', value: state.date ?? '' });
    this.picker.addEventListener('change', () => go({ ...state, date: this.picker.value || undefined }));
    const dayButton = (n: 1 | 5) =>
      h(
        'button',
        { type: 'button', id: `days-${n}`, 'aria-pressed': String(state.days === n), onclick: () => go({ ...state, days: n }) },
        n === 1 ? '当日' : '五日',
      );
    const bars1m = h('a', { href: `#/chart/${inst.id}?interval=1m${state.date ? `&date=${state.date}` : ''}` }, '1分钟K线');
    fill(
      root,
      instrumentHead(inst, 'minute'),
      h('div', { class: 'toolbar' }, h('div', { class: 'group' }, dayButton(1), dayButton(5)), this.picker, bars1m),
      this.note,
      h('div', { class: 'chart-host' }, this.legend, this.box),
    );
    this.unTheme = onThemeChange(() => this.draw());
    void this.start();
  }

  close(): void {
    this.closed = true;
    this.unTheme();
    this.chart?.remove();
  }

  onKey(e: KeyboardEvent): boolean {
    const { chart, price, data } = this;
    if (!chart || !price || !data) return false;
    const bars = data.bars;
    return chartKey(e, {
      chart,
      series: price,
      times: () => bars.map((b) => wallSeconds(b.timestamp) as Time),
      price: (i) => +bars[i].close,
      current: () => (this.shown < 0 ? bars.length - 1 : this.shown),
      show: (i) => this.show(i),
    });
  }

  private async start() {
    const { inst, box, note } = this;
    try {
      const data = await loadMinutes(this.client, inst, this.state.date, this.state.days);
      if (this.closed) return;
      this.data = data;
      if (!data.bars.length) {
        note.textContent = `本库没有 ${inst.id} ${this.state.date ?? ''} 的分钟线。`;
        box.dataset.state = 'complete';
        return;
      }
      this.avg = inst.kind === 'index' ? [] : averageLine(data.bars, this.places);
      this.picker.value = data.days[data.days.length - 1];
      // What is drawn, for a reader of the page (and its tests).
      Object.assign(box.dataset, {
        date: this.picker.value,
        preClose: data.preClose ?? '',
        bars: String(data.bars.length),
        daysShown: data.days.join(','),
      });
      const limits = data.limit ? `　涨停 ${data.limit.limit_up}　跌停 ${data.limit.limit_down}` : '';
      note.textContent = `${data.days.join('、')}　昨收 ${data.preClose ?? '—'}${limits}${inst.kind === 'index' ? '　（指数无均价线）' : ''}`;
      this.draw();
      box.dataset.state = 'complete';
    } catch (e) {
      note.textContent = e instanceof ApiFailure ? `${e.status} ${e.code}: ${e.message}` : String(e);
      box.dataset.state = 'error';
    }
  }

  private draw() {
    const data = this.data;
    if (!data || !data.bars.length || this.closed) return;
    this.chart?.remove();
    this.box.replaceChildren();
    const drawn = drawMinutes(this.box, data, this.inst, this.places);
    this.chart = drawn.chart;
    this.price = drawn.price;
    this.chart.subscribeCrosshairMove((m) => {
      // A move made by the keyboard (a point, no source event) shows its minute itself.
      if (!m.sourceEvent && m.point) return;
      this.show(m.time === undefined ? -1 : data.bars.findIndex((b) => wallSeconds(b.timestamp) === m.time));
    });
    this.show(this.shown);
  }

  private show(i: number) {
    const data = this.data;
    if (!data || !data.bars.length) return;
    this.shown = i;
    minuteLegend(this.legend, data, i < 0 ? data.bars.length - 1 : i, this.avg);
  }
}

/** The 分时 chart: price and average lines, the zero line, limits, volume. */
function drawMinutes(box: HTMLElement, data: MinuteDays, inst: Instrument, places: number) {
  const p = palette();
  const chart = makeChart(box, p, true, minuteTickLabel);
  const bars = data.bars;
  const pre = data.preClose === null ? +bars[0].close : +data.preClose;
  const closes = bars.map((b) => +b.close);
  const range = () => ({ priceRange: symmetricRange(closes, pre) });
  const fmt = { type: 'price' as const, precision: places, minMove: 10 ** -places };
  const price = chart.addSeries(LineSeries, {
    color: p.price,
    lineWidth: 1,
    priceFormat: fmt,
    autoscaleInfoProvider: range,
    lastValueVisible: true,
  });
  // The left axis in percent of the previous close: the same line, invisible, on its own scale with the same range.
  const pct = chart.addSeries(LineSeries, {
    ...QUIET,
    color: 'rgba(0,0,0,0)',
    priceScaleId: 'left',
    autoscaleInfoProvider: range,
    priceFormat: { type: 'custom', minMove: 0.0001, formatter: (v: number) => `${(((v - pre) / pre) * 100).toFixed(2)}%` },
  });
  chart.priceScale('left').applyOptions({ visible: true, borderColor: p.border, scaleMargins: { top: 0.06, bottom: 0.04 } });
  const t = (ts: string) => wallSeconds(ts) as UTCTimestamp;
  price.setData(bars.map((b) => ({ time: t(b.timestamp), value: +b.close })));
  pct.setData(bars.map((b) => ({ time: t(b.timestamp), value: +b.close })));
  price.createPriceLine({ price: pre, color: p.zero, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '昨收' });
  if (data.limit) {
    price.createPriceLine({
      price: +data.limit.limit_up,
      color: p.up,
      lineWidth: 1,
      lineStyle: LineStyle.Dotted,
      axisLabelVisible: false,
      title: '涨停',
    });
    price.createPriceLine({
      price: +data.limit.limit_down,
      color: p.down,
      lineWidth: 1,
      lineStyle: LineStyle.Dotted,
      axisLabelVisible: false,
      title: '跌停',
    });
  }
  if (inst.kind !== 'index') {
    const average = chart.addSeries(LineSeries, {
      ...QUIET,
      color: p.average,
      lineWidth: 1,
      priceFormat: fmt,
      autoscaleInfoProvider: range,
    });
    average.setData(
      averageLine(bars, places).map((v, i) => (v === null ? { time: t(bars[i].timestamp) } : { time: t(bars[i].timestamp), value: +v })),
    );
  }
  const volume = chart.addSeries(
    HistogramSeries,
    { ...QUIET, priceFormat: { type: 'custom', minMove: 1, formatter: (v: number) => axisWanYi(v / 100) } },
    1,
  );
  volume.setData(
    bars.map((b, i) => ({ time: t(b.timestamp), value: b.volume, color: +b.close >= +(bars[i - 1]?.close ?? pre) ? p.up : p.down })),
  );
  chart.panes()[0]?.setStretchFactor(3);
  chart.timeScale().fitContent();
  return { chart, price };
}

/** The legend of minute `i`: time, price, average, change and % against its day's previous close, volume, amount. */
function minuteLegend(legend: HTMLElement, data: MinuteDays, i: number, avg: (string | null)[]): void {
  const b = data.bars[i];
  // Against the minute's own day's previous close (on five days, each day's).
  const pre = data.preCloses.get(b.trade_date) ?? null;
  const change = pre === null ? null : subtract(b.close, pre);
  const pct = pre === null ? null : percentChange(b.close, pre);
  const dir = direction(change);
  fill(
    legend,
    h(
      'div',
      { class: 'row' },
      h('span', { class: 'time', 'data-field': 'time' }, `${b.trade_date} ${b.timestamp.slice(11, 16)}`),
      field('price', '价格', b.close, dir),
      field('average', '均价', avg[i] ?? null),
      field('change', '涨跌', change, dir),
      field('pct_change', '涨幅%', pct, dir),
      field('volume', '量', volumeText(b.volume), '', String(b.volume), volumeExact(b.volume)),
      field('amount', '额', moneyText(b.amount), '', b.amount),
    ),
  );
  legend.dataset.timestamp = b.timestamp;
}
