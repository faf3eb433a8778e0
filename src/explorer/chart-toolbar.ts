/**
 * The chart's toolbar, in Chinese: the ten intervals and 分时, adjustment, the day of an
 * intraday chart, limit lines on or off, up/down colours, an overlaid instrument, the
 * watchlist star, and the indicators.
 */
import type { Adjustment, ChartState } from './chart-data.js';
import { h } from './dom.js';
import { INDICATORS } from './indicators.js';
import type { Instrument } from './instruments.js';
import { redUp, toggleRedUp } from './theme.js';
import { INTERVALS, isIntraday, type Interval } from './time.js';
import { watchButton } from './watchlist.js';

export const INTERVAL_NAMES: Record<Interval, string> = {
  '1m': '1分',
  '5m': '5分',
  '15m': '15分',
  '30m': '30分',
  '60m': '60分',
  '1d': '日线',
  '1w': '周线',
  '1mo': '月线',
  '1q': '季线',
  '1y': '年线',
};

/** Overlays offered at one click: the main indices (any instrument can be typed). */
const OVERLAYS: [string, string][] = [
  ['000001.SH', '上证指数'],
  ['399001.SZ', '深证成指'],
  ['399006.SZ', '创业板指'],
  ['000300.SH', '沪深300'],
];

const LIMITS_KEY = 'mds.explorer.limits';
/** Whether the limit lines are drawn (kept in the browser; on by default). */
export const limitsOn = (): boolean => localStorage.getItem(LIMITS_KEY) !== '0';

export interface ToolbarActions {
  state: (s: ChartState) => void;
  toggleIndicator: (id: string) => void;
  /** Limit lines or colours changed: draw again. */
  redraw: () => void;
  /** Finds an instrument to overlay from what was typed. */
  overlay: (q: string) => void;
}

export function chartToolbar(inst: Instrument, state: ChartState, act: ToolbarActions): HTMLElement {
  const button = (attrs: Record<string, string>, pressed: boolean, text: string, onclick: () => void) =>
    h('button', { type: 'button', ...attrs, 'aria-pressed': String(pressed), onclick }, text);
  const intervals = INTERVALS.map((i) =>
    button({ 'data-interval': i, title: i }, i === state.interval, INTERVAL_NAMES[i], () => act.state({ ...state, interval: i })),
  );
  const adjustment = h(
    'select',
    { id: 'adjustment', title: '复权', onchange: () => act.state({ ...state, adjustment: adjustment.value as Adjustment }) },
    ...(['none', 'forward', 'backward'] as const).map((a) =>
      h('option', { value: a, selected: a === state.adjustment }, { none: '不复权', forward: '前复权', backward: '后复权' }[a]),
    ),
  );
  const day = isIntraday(state.interval)
    ? h('input', {
        type: 'date',
        id: 'chart-date',
        title: '分钟线的日期',
        value: state.date ?? '',
        onchange: (e: Event) => act.state({ ...state, date: (e.target as HTMLInputElement).value || undefined }),
      })
    : null;
  const limits = button({ id: 'limits', title: '涨跌停价线（不参与纵轴缩放）' }, limitsOn(), '涨跌停', () => {
    localStorage.setItem(LIMITS_KEY, limitsOn() ? '0' : '1');
    limits.setAttribute('aria-pressed', String(limitsOn()));
    act.redraw();
  });
  const colours = button({ id: 'colours', title: '红涨绿跌（A股）或相反' }, false, redUp() ? '红涨绿跌' : '绿涨红跌', () => {
    toggleRedUp();
    colours.textContent = redUp() ? '红涨绿跌' : '绿涨红跌';
  });
  colours.removeAttribute('aria-pressed');
  const overlaySelect = h(
    'select',
    {
      id: 'overlay',
      title: '叠加指数或个股（百分比）',
      onchange: () => act.state({ ...state, overlay: overlaySelect.value || undefined }),
    },
    h('option', { value: '' }, '叠加…'),
    ...OVERLAYS.filter(([id]) => id !== inst.id).map(([id, name]) => h('option', { value: id, selected: state.overlay === id }, name)),
    state.overlay && !OVERLAYS.some(([id]) => id === state.overlay)
      ? h('option', { value: state.overlay, selected: true }, state.overlay)
      : null,
  );
  const overlayInput = h('input', {
    type: 'search',
    id: 'overlay-input',
    class: 'small',
    placeholder: '叠加代码',
    size: 8,
    onkeydown: (e: Event) => {
      const k = e as KeyboardEvent;
      if (k.key === 'Enter' && overlayInput.value.trim()) act.overlay(overlayInput.value.trim());
      k.stopPropagation();
    },
  });
  const indicators = INDICATORS.map((look) =>
    button({ 'data-indicator': look.id }, state.indicators.includes(look.id), look.title, () => act.toggleIndicator(look.id)),
  );
  return h(
    'div',
    { class: 'toolbar' },
    h(
      'div',
      { class: 'group intervals' },
      h('a', { class: 'button', id: 'to-minute', href: `#/minute/${inst.id}`, title: '分时 (F5)' }, '分时'),
      ...intervals,
    ),
    h('div', { class: 'group' }, adjustment, day),
    h('div', { class: 'group' }, limits, colours, watchButton(inst)),
    h('div', { class: 'group' }, overlaySelect, overlayInput),
    h('div', { class: 'group indicators' }, ...indicators),
  );
}

/** Sets the pressed state of the indicator buttons. */
export function pressIndicators(toolbar: HTMLElement, on: string[]): void {
  for (const b of toolbar.querySelectorAll<HTMLElement>('[data-indicator]'))
    b.setAttribute('aria-pressed', String(on.includes(b.dataset.indicator!)));
}
