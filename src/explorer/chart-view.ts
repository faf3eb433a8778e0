/**
 * The chart of one instrument: candles and a volume pane, indicator panes of the API's own
 * points, price-limit lines, ex-rights markers and suspended days, an overlaid instrument, a
 * crosshair legend in market time, the keyboard, and older bars loaded as the view scrolls left.
 */
import type { IChartApi, MouseEventParams, Time } from 'lightweight-charts';
import { ApiFailure, type Client } from './api.js';
import { ChartData, type Bar, type ChartState, type Limit } from './chart-data.js';
import { chartKey, positionOf, rangeAt } from './chart-keys.js';
import { showBar, showSuspended } from './chart-legend.js';
import { exRights } from './chart-markers.js';
import { candleSeries, decimals, makeChart, type Series } from './chart-series.js';
import { chartToolbar, limitsOn, pressIndicators } from './chart-toolbar.js';
import { h } from './dom.js';
import { instrumentHead } from './instrument-head.js';
import { search, type Instrument } from './instruments.js';
import { onThemeChange, palette } from './theme.js';
import { chartTime, isIntraday, timeKey } from './time.js';
import type { View } from './view.js';

export type { Adjustment, ChartState } from './chart-data.js';

export function chartView(root: HTMLElement, client: Client, inst: Instrument, state: ChartState, onState: (s: ChartState) => void): View {
  return new ChartView(root, client, inst, state, onState);
}

class ChartView implements View {
  private data: ChartData;
  private chart: IChartApi | null = null;
  private series: Series | null = null;
  private loading = false;
  private closed = false;
  private shown = -1;
  private readonly legend = h('div', { class: 'legend', id: 'legend' });
  private readonly box: HTMLElement;
  private readonly note = h('p', { class: 'chart-note', id: 'chart-note' });
  private readonly toolbar: HTMLElement;
  private readonly unTheme: () => void;

  constructor(
    root: HTMLElement,
    private client: Client,
    private inst: Instrument,
    private state: ChartState,
    private onState: (s: ChartState) => void,
  ) {
    this.data = new ChartData(client, inst, state);
    // What the chart is of, and its state (loading, ready: candles drawn, complete, error), for a reader of the page.
    this.box = h('div', {
      class: 'chart',
      id: 'chart',
      'data-state': 'loading',
      'data-instrument': inst.id,
      'data-interval': state.interval,
      'data-adjustment': state.adjustment,
    });
    this.toolbar = chartToolbar(inst, state, {
      state: onState,
      toggleIndicator: (id) => this.toggleIndicator(id),
      redraw: () => this.build(),
      overlay: (q) => void this.findOverlay(q),
    });
    root.replaceChildren(instrumentHead(inst, 'chart'), this.toolbar, this.note, h('div', { class: 'chart-host' }, this.legend, this.box));
    this.unTheme = onThemeChange(() => this.build());
    void this.start();
  }

  close(): void {
    this.closed = true;
    this.unTheme();
    this.chart?.remove();
    this.chart = null;
  }

  position = () => positionOf(this.chart, this.data.bars.length);

  onKey(e: KeyboardEvent): boolean {
    if (!this.chart || !this.series) return false;
    const bars = this.data.bars;
    return chartKey(e, {
      chart: this.chart,
      series: this.series.candles,
      times: () => bars.map((b) => chartTime(b, this.state.interval)),
      price: (i) => +bars[i].close,
      current: () => (this.shown < 0 ? bars.length - 1 : this.shown),
      show: (i) => this.showIndex(i),
      older: () => void this.loadOlder(),
    });
  }

  // ---- loading -------------------------------------------------------------------------------

  private async start() {
    try {
      const bars = await this.data.page(true);
      if (this.closed) return;
      this.data.bars = bars;
      if (!bars.length) {
        this.note.textContent = `本库没有 ${this.inst.id} 的这一周期K线${this.state.date ? `（截至 ${this.state.date}）` : ''}。`;
        this.box.dataset.state = 'complete';
        return;
      }
      this.build();
      this.box.dataset.state = 'ready';
      performance.mark('mds-first-chart');
      // On screen: the chart draws in an animation frame; the task after that frame follows its paint.
      requestAnimationFrame(() => setTimeout(() => performance.mark('mds-first-chart-painted')));
      await Promise.all([
        this.data.loadPoints(this.state.indicators, bars),
        this.data.loadLimits(bars),
        this.data.loadEquityFacts(),
        this.loadOverlay(),
      ]);
      if (this.closed) return;
      this.render(0);
      this.box.dataset.state = 'complete';
      performance.mark('mds-chart-complete');
    } catch (e) {
      this.showError(e);
    }
  }

  private async loadOverlay() {
    if (!this.state.overlay) return;
    const [found] = await search(this.client, this.state.overlay, 1);
    if (found && found.id === this.state.overlay) await this.data.loadOverlay(found);
  }

  private async findOverlay(q: string) {
    const [found] = await search(this.client, q, 1).catch(() => []);
    if (found && found.id !== this.inst.id) this.onState({ ...this.state, overlay: found.id });
    else this.note.textContent = `没有找到可叠加的 ${q}。`;
  }

  private async loadOlder() {
    const data = this.data;
    if (this.loading || data.older === null || this.closed) return;
    this.loading = true;
    this.box.dataset.state = 'loading-older';
    try {
      const bars = await data.page(false);
      await Promise.all([data.loadPoints(this.state.indicators, bars), data.loadLimits(bars)]);
      if (this.closed) return;
      const before = this.slots().length;
      data.bars = bars.concat(data.bars);
      if (this.shown >= 0) this.shown += bars.length;
      if (data.overlay) await data.loadOverlay(data.overlay.inst);
      this.render(this.slots().length - before);
    } catch (e) {
      this.showError(e);
    } finally {
      this.loading = false;
      if (!this.closed) this.box.dataset.state = 'complete';
    }
  }

  private toggleIndicator(id: string) {
    const on = this.state.indicators.includes(id);
    this.state = { ...this.state, indicators: on ? this.state.indicators.filter((i) => i !== id) : [...this.state.indicators, id] };
    this.data.state.indicators = this.state.indicators;
    pressIndicators(this.toolbar, this.state.indicators);
    this.onState(this.state);
    if (on) return this.build();
    this.box.dataset.state = 'loading';
    this.data
      .loadPoints([id], this.data.bars)
      .then(() => {
        this.build();
        this.box.dataset.state = 'complete';
      })
      .catch((e) => this.showError(e));
  }

  private showError(e: unknown) {
    this.note.textContent = e instanceof ApiFailure ? `${e.status} ${e.code}: ${e.message}` : String(e);
    this.note.classList.add('error');
    this.box.dataset.state = 'error';
  }

  // ---- drawing -------------------------------------------------------------------------------

  /** Limit lines: on an equity's daily or intraday chart, unadjusted (limits are traded prices), when toggled on. */
  private get limitsDrawn() {
    return this.data.limitsApply && this.state.adjustment === 'none' && limitsOn();
  }

  /** Days the equity did not trade inside the loaded bars (daily bars only). */
  private suspendedDays(): string[] {
    const bars = this.data.bars;
    if (this.state.interval !== '1d' || !bars.length) return [];
    const [first, last] = [bars[0].trade_date, bars[bars.length - 1].trade_date];
    return [...this.data.limits.values()]
      .filter((l) => l.suspended && l.trade_date > first && l.trade_date < last)
      .map((l) => l.trade_date);
  }

  /** Every time the chart has a slot for: bars and suspended days. */
  private slots(): string[] {
    return [...new Set([...this.data.bars.map((b) => timeKey(chartTime(b, this.state.interval))), ...this.suspendedDays()])];
  }

  private build() {
    if (this.closed || !this.data.bars.length) return;
    const range = this.chart?.timeScale().getVisibleLogicalRange() ?? rangeAt(this.state.at, this.data.bars.length);
    this.chart?.remove();
    const p = palette();
    this.box.replaceChildren();
    this.chart = makeChart(this.box, p, isIntraday(this.state.interval));
    const bars = this.data.bars;
    this.series = candleSeries(this.chart, p, decimals(bars[bars.length - 1].close), this.state.indicators);
    this.chart.subscribeCrosshairMove((m) => this.onCrosshair(m));
    this.chart.timeScale().subscribeVisibleLogicalRangeChange((r) => {
      // How many bars the view spans (↑ ↓ zoom: read by the suite).
      if (r) this.box.dataset.span = String(Math.round(r.to - r.from));
      if (r && r.from < 20) void this.loadOlder();
    });
    this.render(0, range);
  }

  /** Puts the loaded data into the series; `shift` slots were added on the left (the view stays put). */
  private render(shift: number, keep = this.chart?.timeScale().getVisibleLogicalRange() ?? null) {
    const s = this.series;
    if (!this.chart || !s) return;
    const p = palette();
    const bars = this.data.bars;
    const t = (b: Bar) => chartTime(b, this.state.interval);
    s.candles.setData(bars.map((b) => ({ time: t(b), open: +b.open, high: +b.high, low: +b.low, close: +b.close })));
    s.volume.setData(bars.map((b) => ({ time: t(b), value: b.volume, color: (+b.close >= +b.open ? p.up : p.down) + '90' })));
    s.suspended.setData(this.suspendedDays().map((d) => ({ time: d, value: 1 })));
    const limit = (b: Bar) => this.data.limits.get(b.trade_date);
    // Series whose data has not come yet get none (not a blank point per bar: the first chart draws sooner).
    const limitLine = (pick: (l: Limit) => string) =>
      this.limitsDrawn && this.data.limits.size
        ? bars.map((b) => (limit(b) && !limit(b)!.suspended ? { time: t(b), value: +pick(limit(b)!) } : { time: t(b) }))
        : [];
    s.limitUp.setData(limitLine((l) => l.limit_up));
    s.limitDown.setData(limitLine((l) => l.limit_down));
    s.overlay.setData(this.overlayLine());
    for (const { look, key, s: line } of s.lines) {
      const points = this.data.points.get(look.id);
      const histogram = look.histogram?.includes(key);
      if (!points) {
        line.setData([]);
        continue;
      }
      (line as typeof s.limitUp).setData(
        bars.map((b) => {
          const v = points?.get(b.timestamp)?.[key];
          if (v === undefined) return { time: t(b) };
          return histogram ? { time: t(b), value: +v, color: +v >= 0 ? p.up : p.down } : { time: t(b), value: +v };
        }),
      );
    }
    const marks = exRights(this.data, p.marker);
    s.markers.setMarkers(marks.markers);
    // What is loaded, for a reader of the page (and its tests): bars, the first of them, ex-rights days.
    this.box.dataset.bars = String(bars.length);
    this.box.dataset.first = bars[0]?.trade_date ?? '';
    this.box.dataset.exRights = marks.days.join(',');
    if (keep) this.chart.timeScale().setVisibleLogicalRange({ from: keep.from + shift, to: keep.to + shift });
    this.note.textContent = this.noteText();
    this.note.classList.remove('error');
    this.showIndex(this.shown);
  }

  private noteText(): string {
    if (this.data.limitsApply && this.state.adjustment !== 'none' && limitsOn()) return '涨跌停价是成交价：仅在不复权时画出。';
    if (this.data.overlay) return `叠加 ${this.data.overlay.inst.name}：按首根共同K线缩放到本股价格，图例为区间涨幅。`;
    return this.data.older === null ? '已到本库第一根K线。' : '';
  }

  /** The overlaid instrument's closes scaled to this one's price at their first common bar. */
  private overlayLine() {
    const ov = this.data.overlay;
    const base = this.overlayBase();
    if (!ov || !base) return [];
    const own = this.data.bars.find((b) => b.timestamp === base.timestamp)!;
    const k = +own.close / +base.close;
    return this.data.bars.map((b) => {
      const o = ov.bars.get(b.timestamp);
      return o ? { time: chartTime(b, this.state.interval), value: +o.close * k } : { time: chartTime(b, this.state.interval) };
    });
  }

  private overlayBase(): Bar | null {
    const ov = this.data.overlay;
    if (!ov) return null;
    for (const b of this.data.bars) if (ov.bars.has(b.timestamp)) return ov.bars.get(b.timestamp)!;
    return null;
  }

  private onCrosshair(m: MouseEventParams<Time>) {
    // A move made by the keyboard (setCrosshairPosition: a point, no source event) shows its bar itself.
    if (!m.sourceEvent && m.point) return;
    const key = m.time !== undefined ? timeKey(m.time) : null;
    if (key === null) return this.showIndex(-1);
    const i = this.data.bars.findIndex((b) => timeKey(chartTime(b, this.state.interval)) === key);
    if (i >= 0) return this.showIndex(i);
    if (this.suspendedDays().includes(key)) showSuspended(this.legend, key);
  }

  /** The legend of bar `i` (-1: the latest). */
  private showIndex(i: number) {
    const bars = this.data.bars;
    if (!bars.length) return;
    this.shown = i >= bars.length ? bars.length - 1 : i;
    showBar(this.legend, this.data, this.shown < 0 ? bars.length - 1 : this.shown, palette(), this.limitsDrawn, this.overlayBase());
  }
}
