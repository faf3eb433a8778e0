import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  LineStyle,
  LineType,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type SeriesMarker,
  type Time,
} from 'lightweight-charts';
import { ApiFailure, type Client, type Page } from './api.js';
import { percentChange, subtract, timesTen } from './decimal.js';
import { fill, h } from './dom.js';
import { indicatorById, INDICATORS, LINE_COLOURS, type IndicatorLook } from './indicators.js';
import { kindPath, type Instrument } from './instruments.js';
import { chartTime, INTERVALS, isIntraday, label, timeKey, type Interval } from './time.js';

export interface Bar {
  timestamp: string;
  trade_date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
  amount: string | null;
}
interface Point {
  timestamp: string;
  values: Record<string, string>;
}
interface Limit {
  trade_date: string;
  limit_up: string;
  limit_down: string;
  suspended: boolean;
}
interface Dividend {
  ex_date: string | null;
  cash_per_share: string | null;
  bonus_per_share: string | null;
  transfer_per_share: string | null;
}

interface Factor {
  trade_date: string;
  backward_factor: string;
}

export type Adjustment = 'none' | 'forward' | 'backward';
export interface ChartState {
  interval: Interval;
  adjustment: Adjustment;
  indicators: string[];
}

/** Bars a request asks for: the first view and each step left. */
const PAGE = 320;
const COLOURS_KEY = 'mds.explorer.redUp';

/** Up red, down green (the A-share convention), or the other way round. */
export const redUp = (): boolean => localStorage.getItem(COLOURS_KEY) !== '0';
const colours = () => {
  const red = '#e03c3c';
  const green = '#15a05a';
  return redUp() ? { up: red, down: green } : { up: green, down: red };
};

/** The data of one chart (an instrument at one interval and adjustment), oldest first. */
class Loaded {
  bars: Bar[] = [];
  /** The cursor to the next older page (order=desc), or null at the first bar. */
  older: string | null = null;
  points = new Map<string, Map<string, Record<string, string>>>();
  limits = new Map<string, Limit>();
  dividends: Dividend[] = [];
  /** Ex-rights days: where the adjustment factor in use changes (listAdjustmentFactors: published factors or corporate actions). */
  exDates: string[] = [];
}

/**
 * The chart of one instrument: candles and a volume pane, indicator panes of the API's own
 * points, price-limit lines, ex-rights markers and suspended days, a crosshair legend in market
 * time, and older bars loaded as the view scrolls left.
 */
export function chartView(
  root: HTMLElement,
  client: Client,
  inst: Instrument,
  state: ChartState,
  onState: (s: ChartState) => void,
): () => void {
  const base = `${kindPath(inst.kind)}/${inst.id}`;
  const equity = inst.kind === 'equity';
  const data = new Loaded();
  let chart: IChartApi | null = null;
  let series: {
    candles: ISeriesApi<'Candlestick'>;
    volume: ISeriesApi<'Histogram'>;
    suspended: ISeriesApi<'Histogram'>;
    limitUp: ISeriesApi<'Line'>;
    limitDown: ISeriesApi<'Line'>;
    lines: { look: IndicatorLook; key: string; s: ISeriesApi<'Line'> | ISeriesApi<'Histogram'> }[];
    markers: ReturnType<typeof createSeriesMarkers<Time>>;
  } | null = null;
  let loading = false;
  let closed = false;

  const legend = h('div', { class: 'legend', id: 'legend' });
  // What the chart is of, and its state (loading, ready: candles drawn, complete, error), for a reader of the page.
  const box = h('div', {
    class: 'chart',
    id: 'chart',
    'data-state': 'loading',
    'data-instrument': inst.id,
    'data-interval': state.interval,
    'data-adjustment': state.adjustment,
  });
  const note = h('p', { class: 'chart-note', id: 'chart-note' });
  const host = h('div', { class: 'chart-host' }, box, legend);

  const intervalButtons = INTERVALS.map((i) =>
    h(
      'button',
      {
        type: 'button',
        'data-interval': i,
        'aria-pressed': String(i === state.interval),
        onclick: () => onState({ ...state, interval: i }),
      },
      i,
    ),
  );
  const adjustment = h(
    'select',
    { id: 'adjustment', title: 'Adjustment', onchange: () => onState({ ...state, adjustment: adjustment.value as Adjustment }) },
    ...(['none', 'forward', 'backward'] as const).map((a) =>
      h(
        'option',
        { value: a, selected: a === state.adjustment },
        { none: '不复权 none', forward: '前复权 forward', backward: '后复权 backward' }[a],
      ),
    ),
  );
  const indicatorButtons = INDICATORS.map((look) =>
    h(
      'button',
      {
        type: 'button',
        'data-indicator': look.id,
        'aria-pressed': String(state.indicators.includes(look.id)),
        onclick: () => toggleIndicator(look.id),
      },
      look.title,
    ),
  );
  const colourToggle = h(
    'button',
    {
      type: 'button',
      id: 'colours',
      title: 'Up red, down green (A-share), or the reverse',
      onclick: () => {
        localStorage.setItem(COLOURS_KEY, redUp() ? '0' : '1');
        colourToggle.textContent = colourLabel();
        build();
      },
    },
    '',
  );
  const colourLabel = () => (redUp() ? '红涨绿跌' : '绿涨红跌');
  colourToggle.textContent = colourLabel();

  fill(
    root,
    h(
      'div',
      { class: 'instrument-head' },
      h('h1', {}, h('span', { id: 'instrument-name' }, inst.name), ' ', h('span', { class: 'muted', id: 'instrument-id' }, inst.id)),
      h('span', { class: 'tag' }, inst.kind),
      inst.board ? h('span', { class: 'tag' }, inst.board) : null,
      inst.is_st ? h('span', { class: 'tag st' }, 'ST') : null,
      equity ? h('a', { href: `#/fundamentals/${inst.id}`, id: 'to-fundamentals' }, 'Fundamentals →') : null,
    ),
    h(
      'div',
      { class: 'toolbar' },
      h('div', { class: 'group intervals' }, ...intervalButtons),
      adjustment,
      colourToggle,
      h('div', { class: 'group indicators' }, ...indicatorButtons),
    ),
    note,
    host,
  );

  function toggleIndicator(id: string) {
    const on = state.indicators.includes(id);
    state = { ...state, indicators: on ? state.indicators.filter((i) => i !== id) : [...state.indicators, id] };
    for (const b of indicatorButtons) b.setAttribute('aria-pressed', String(state.indicators.includes(b.dataset.indicator!)));
    onState(state);
    if (on) return build();
    box.dataset.state = 'loading';
    loadPoints([id], data.bars)
      .then(() => {
        build();
        box.dataset.state = 'complete';
      })
      .catch(showError);
  }

  // ---- loading -------------------------------------------------------------------------------

  const limitsDrawn = () => equity && (isIntraday(state.interval) || state.interval === '1d');

  /** Indicator points for the bars of [first, last] (one window per request: chart and API agree). */
  async function loadPoints(ids: string[], bars: Bar[]) {
    if (!bars.length) return;
    await Promise.all(
      ids.map(async (id) => {
        const points = await client.all<Point>(`${base}/technical-indicators/${id}`, {
          interval: state.interval,
          adjustment: state.adjustment,
          from: bars[0].timestamp,
          to: bars[bars.length - 1].timestamp,
        });
        const m = data.points.get(id) ?? new Map();
        for (const p of points) m.set(p.timestamp, p.values);
        data.points.set(id, m);
      }),
    );
  }

  async function loadLimits(bars: Bar[]) {
    if (!bars.length || !limitsDrawn()) return;
    const rows = await client.all<Limit>(`${base}/price-limits`, { from: bars[0].trade_date, to: bars[bars.length - 1].trade_date });
    for (const r of rows) data.limits.set(r.trade_date, r);
  }

  /** A page of bars older than those loaded (the latest first), then what is drawn over them. */
  async function loadPage(first: boolean) {
    const page = await client.get<Page<Bar>>(`${base}/bars`, {
      interval: state.interval,
      adjustment: state.adjustment,
      order: 'desc',
      'page[size]': PAGE,
      'page[after]': first ? undefined : (data.older ?? undefined),
    });
    const bars = page.data.slice().reverse();
    data.older = page.meta.next_cursor;
    return bars;
  }

  async function start() {
    try {
      const bars = await loadPage(true);
      if (closed) return;
      data.bars = bars;
      if (!bars.length) {
        note.textContent = `No ${state.interval} bars for ${inst.id} in this store.`;
        box.dataset.state = 'complete';
        return;
      }
      build();
      box.dataset.state = 'ready';
      performance.mark('mds-first-chart');
      const extra: Promise<unknown>[] = [loadPoints(state.indicators, bars), loadLimits(bars)];
      if (equity)
        extra.push(
          client.all<Dividend>(`${base}/dividends`).then((d) => (data.dividends = d)),
          client.all<Factor>(`${base}/adjustment-factors`).then((f) => (data.exDates = factorChanges(f))),
        );
      await Promise.all(extra);
      if (closed) return;
      render(0);
      box.dataset.state = 'complete';
      performance.mark('mds-chart-complete');
    } catch (e) {
      showError(e);
    }
  }

  async function loadOlder() {
    if (loading || data.older === null || closed) return;
    loading = true;
    box.dataset.state = 'loading-older';
    try {
      const bars = await loadPage(false);
      await Promise.all([loadPoints(state.indicators, bars), loadLimits(bars)]);
      if (closed) return;
      const before = slots().length;
      data.bars = bars.concat(data.bars);
      render(slots().length - before);
    } catch (e) {
      showError(e);
    } finally {
      loading = false;
      if (!closed) box.dataset.state = 'complete';
    }
  }

  function showError(e: unknown) {
    note.textContent = e instanceof ApiFailure ? `${e.status} ${e.code}: ${e.message}` : String(e);
    note.classList.add('error');
    box.dataset.state = 'error';
  }

  // ---- drawing -------------------------------------------------------------------------------

  /** Days the equity did not trade inside the loaded bars (daily bars only). */
  const suspendedDays = (): string[] =>
    state.interval !== '1d' || !data.bars.length
      ? []
      : [...data.limits.values()]
          .filter((l) => l.suspended && l.trade_date > data.bars[0].trade_date && l.trade_date < data.bars[data.bars.length - 1].trade_date)
          .map((l) => l.trade_date);

  /** Every time the chart has a slot for: bars and suspended days. */
  const slots = (): string[] => [...new Set([...data.bars.map((b) => timeKey(chartTime(b, state.interval))), ...suspendedDays()])];

  function build() {
    const range = chart?.timeScale().getVisibleLogicalRange() ?? null;
    chart?.remove();
    const c = colours();
    const intraday = isIntraday(state.interval);
    chart = createChart(box, {
      autoSize: true,
      layout: {
        background: { color: '#ffffff' },
        textColor: '#333',
        fontSize: 12,
        panes: { separatorColor: '#d9d9d9' },
        attributionLogo: false,
      },
      grid: { vertLines: { color: '#f0f0f0' }, horzLines: { color: '#f0f0f0' } },
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: { borderColor: '#d9d9d9' },
      timeScale: { borderColor: '#d9d9d9', timeVisible: intraday, secondsVisible: false, rightOffset: 4, minBarSpacing: 0.5 },
      localization: { locale: 'zh-CN', dateFormat: 'yyyy-MM-dd' },
    });
    const precision = decimals(data.bars[data.bars.length - 1]?.close ?? '0.01');
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: c.up,
      downColor: c.down,
      borderUpColor: c.up,
      borderDownColor: c.down,
      wickUpColor: c.up,
      wickDownColor: c.down,
      priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
    });
    const quiet = { priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false } as const;
    const suspended = chart.addSeries(HistogramSeries, { ...quiet, priceScaleId: 'suspended', color: 'rgba(130,130,130,0.18)' }, 0);
    chart.priceScale('suspended', 0).applyOptions({ visible: false, scaleMargins: { top: 0, bottom: 0 } });
    const limit = (color: string) =>
      chart!.addSeries(
        LineSeries,
        { ...quiet, color, lineWidth: 1, lineStyle: LineStyle.Dashed, lineType: LineType.WithSteps, autoscaleInfoProvider: () => null },
        0,
      );
    const limitUp = limit(`${c.up}99`);
    const limitDown = limit(`${c.down}99`);
    const volume = chart.addSeries(HistogramSeries, { ...quiet, priceFormat: { type: 'volume' } }, 1);
    const lines: NonNullable<typeof series>['lines'] = [];
    let pane = 2;
    for (const id of state.indicators) {
      const look = indicatorById(id);
      if (!look) continue;
      const at = look.overlay ? 0 : pane++;
      look.keys.forEach((key, n) => {
        const s = look.histogram?.includes(key)
          ? chart!.addSeries(HistogramSeries, { ...quiet, priceFormat: { type: 'price', precision: 4, minMove: 0.0001 } }, at)
          : chart!.addSeries(
              LineSeries,
              {
                ...quiet,
                color: LINE_COLOURS[n % LINE_COLOURS.length],
                lineWidth: 1,
                priceFormat: { type: 'price', precision: look.overlay ? precision : 2, minMove: 0.0001 },
              },
              at,
            );
        lines.push({ look, key, s });
      });
    }
    const panes = chart.panes();
    panes[0]?.setStretchFactor(3);
    for (const p of panes.slice(1)) p.setStretchFactor(1);
    series = { candles, volume, suspended, limitUp, limitDown, lines, markers: createSeriesMarkers(candles, []) };
    chart.subscribeCrosshairMove(showLegend);
    chart.timeScale().subscribeVisibleLogicalRangeChange((r) => {
      if (r && r.from < 20) void loadOlder();
    });
    render(0, range);
  }

  /** Puts the loaded data into the series; `shift` slots were added on the left (the view stays put). */
  function render(shift: number, keep: { from: number; to: number } | null = chart?.timeScale().getVisibleLogicalRange() ?? null) {
    if (!chart || !series) return;
    const c = colours();
    const bars = data.bars;
    const t = (b: Bar) => chartTime(b, state.interval);
    series.candles.setData(bars.map((b) => ({ time: t(b), open: +b.open, high: +b.high, low: +b.low, close: +b.close })));
    series.volume.setData(bars.map((b) => ({ time: t(b), value: b.volume, color: (+b.close >= +b.open ? c.up : c.down) + '80' })));
    series.suspended.setData(suspendedDays().map((d) => ({ time: d, value: 1 })));
    const drawLimits = limitsDrawn() && state.adjustment === 'none';
    const limitOf = (b: Bar) => data.limits.get(b.trade_date);
    const limitLine = (pick: (l: Limit) => string) =>
      drawLimits
        ? bars.map((b) => (limitOf(b) && !limitOf(b)!.suspended ? { time: t(b), value: +pick(limitOf(b)!) } : { time: t(b) }))
        : [];
    series.limitUp.setData(limitLine((l) => l.limit_up));
    series.limitDown.setData(limitLine((l) => l.limit_down));
    for (const { look, key, s } of series.lines) {
      const points = data.points.get(look.id);
      const histogram = look.histogram?.includes(key);
      (s as ISeriesApi<'Line'>).setData(
        bars.map((b) => {
          const v = points?.get(b.timestamp)?.[key];
          if (v === undefined) return { time: t(b) };
          return histogram ? { time: t(b), value: +v, color: +v >= 0 ? c.up : c.down } : { time: t(b), value: +v };
        }),
      );
    }
    series.markers.setMarkers(exRights());
    // What is loaded, for a reader of the page (and its tests): bars and the first of them.
    box.dataset.bars = String(bars.length);
    box.dataset.first = bars[0]?.trade_date ?? '';
    if (keep) chart.timeScale().setVisibleLogicalRange({ from: keep.from + shift, to: keep.to + shift });
    note.textContent =
      limitsDrawn() && state.adjustment !== 'none'
        ? 'Price-limit lines are in traded prices: shown without adjustment.'
        : data.older === null
          ? 'From the first stored bar.'
          : '';
    note.classList.remove('error');
    showLegend(null);
  }

  /** Ex-rights days on the bar that holds them: Tongdaxin's 10派/10送/10转 per ten shares. */
  function exRights(): SeriesMarker<Time>[] {
    const bars = data.bars;
    if (!bars.length) return [];
    const words = new Map(data.dividends.filter((d) => d.ex_date).map((d) => [d.ex_date!, dividendWords(d)]));
    const days = [...new Set([...data.exDates, ...words.keys()])].filter(
      (d) => d >= bars[0].trade_date && d <= bars[bars.length - 1].trade_date,
    );
    const out: SeriesMarker<Time>[] = days.map((day) => ({
      // The bar that holds the day: its own, or the period's (1w..1y).
      time: chartTime(
        bars.find((b) => b.trade_date >= day)!,
        state.interval,
      ),
      position: 'belowBar',
      shape: 'arrowUp',
      color: '#7a4fc4',
      text: `除权 ${words.get(day) ?? ''}`.trim(),
      id: day,
    }));
    box.dataset.exRights = days.sort().join(',');
    return out.sort((a, b) => (timeKey(a.time) < timeKey(b.time) ? -1 : 1));
  }

  function showLegend(p: MouseEventParams<Time> | null) {
    const bars = data.bars;
    if (!bars.length) return;
    const key = p?.time !== undefined ? timeKey(p.time) : null;
    const i = key === null ? bars.length - 1 : bars.findIndex((b) => timeKey(chartTime(b, state.interval)) === key);
    if (i < 0) {
      if (key && suspendedDays().includes(key))
        fill(
          legend,
          h('span', { 'data-field': 'time' }, key),
          h('span', { class: 'suspended', 'data-field': 'suspended' }, '停牌 suspended'),
        );
      return;
    }
    const b = bars[i];
    const prev = bars[i - 1]?.close ?? null;
    const change = prev === null ? null : subtract(b.close, prev);
    const pct = prev === null ? null : percentChange(b.close, prev);
    const dir = change === null ? '' : change.startsWith('-') ? 'down' : /[1-9]/.test(change) ? 'up' : '';
    const field = (name: string, title: string, value: string | null, cls = '') =>
      h('span', { class: 'field' }, h('span', { class: 'k' }, title), h('span', { class: `v ${cls}`, 'data-field': name }, value ?? '—'));
    const limit = data.limits.get(b.trade_date);
    const rows = [
      h(
        'div',
        { class: 'row' },
        h('span', { class: 'time', 'data-field': 'time' }, label(b, state.interval)),
        field('open', '开', b.open),
        field('high', '高', b.high),
        field('low', '低', b.low),
        field('close', '收', b.close, dir),
        field('change', '涨跌', change, dir),
        field('pct_change', '涨幅%', pct, dir),
        field('volume', '量', String(b.volume)),
        field('amount', '额', b.amount),
        limit && limitsDrawn() && state.adjustment === 'none'
          ? field('limit', '涨停/跌停', `${limit.limit_up} / ${limit.limit_down}`)
          : null,
      ),
      ...state.indicators.map((id) => {
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
              h('span', { class: 'k', style: `color:${LINE_COLOURS[n % LINE_COLOURS.length]}` }, k),
              h('span', { class: 'v', 'data-field': `${id}.${k}` }, values[k] ?? '—'),
            ),
          ),
        );
      }),
    ];
    fill(legend, ...rows);
    legend.dataset.timestamp = b.timestamp;
  }

  void start();
  return () => {
    closed = true;
    chart?.remove();
    chart = null;
  };
}

/** Tongdaxin's words for a dividend, per ten shares: `10派191.16 10送3 10转2`. */
function dividendWords(d: Dividend): string {
  const per10 = (v: string | null, word: string) => (v !== null && /[1-9]/.test(v) ? `10${word}${timesTen(v)}` : '');
  return [per10(d.cash_per_share, '派'), per10(d.bonus_per_share, '送'), per10(d.transfer_per_share, '转')].filter(Boolean).join(' ');
}

/** The days the backward factor changes, from 1 before any (a published series starts at 1 on its first day: no change there). */
const factorChanges = (factors: Factor[]): string[] =>
  factors.filter((f, i) => Number(f.backward_factor) !== Number(i > 0 ? factors[i - 1].backward_factor : 1)).map((f) => f.trade_date);

/** Digits after the point of a decimal string (2 for `1447.01`), at most 4. */
const decimals = (s: string): number => Math.min(4, (s.split('.')[1] ?? '').length);
