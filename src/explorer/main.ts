/**
 * The explorer (/explorer): a single page over the service's API. Views by URL hash:
 * `#/chart/ID?interval=1d&adjustment=none&indicators=ma,macd`, `#/minute/ID?date=D&days=5` (分时),
 * `#/market/DATE`, `#/fundamentals/ID`, `#/watchlist`.
 */
import './style.css';
import { Client } from './api.js';
import type { ChartPosition } from './chart-data.js';
import { chartView, type ChartState } from './chart-view.js';
import { fill, h } from './dom.js';
import { fundamentalsView } from './fundamentals-view.js';
import { resolve, search, type Instrument } from './instruments.js';
import { askKey } from './key.js';
import { liveBanner } from './live.js';
import { installKeyboard, type Mode } from './keyboard.js';
import { marketView } from './market-view.js';
import { minuteView } from './minute-view.js';
import { requestsPanel } from './requests.js';
import { chartState, parseRoute } from './route-state.js';
import { searchBox } from './search-box.js';
import { applyTheme, theme, toggleTheme } from './theme.js';
import { NO_VIEW, type View } from './view.js';
import { watchlistView } from './watchlist-view.js';

// The bundle evaluated: the main script starts (bench/explorer.ts reads it).
performance.mark('mds-main');
const client = new Client();
const view = h('main', { id: 'view' });
let current: View = NO_VIEW;
let asking: Promise<void> | null = null;
/** The instrument views: a hash `#/<view>/<id>`. */
const INSTRUMENT_VIEWS = ['chart', 'minute', 'fundamentals'] as const;
const instrumentViewOf = (parts: string[]) => (parts[1] ? INSTRUMENT_VIEWS.find((m) => m === parts[0]) : undefined);

/**
 * The instrument and view the URL names (the keyboard's PageUp/PageDown, F5, F10), read from the
 * hash, which a key's navigation changes at once: a key pressed again while the view loads steps
 * on from there.
 */
function here(): { id: string | null; mode: Mode } {
  const { parts } = parseRoute(location.hash);
  const of = instrumentViewOf(parts);
  return of ? { id: parts[1], mode: of } : { id: null, mode: 'other' };
}

function layout() {
  const keyButton = h('button', { type: 'button', id: 'key-button', onclick: () => void ensureKey('').then(() => route()) }, '密钥');
  const themeButton = h('button', { type: 'button', id: 'theme', title: '深色/浅色（存于本浏览器）' }, '');
  const themeLabel = () => (themeButton.textContent = theme() === 'dark' ? '☀ 浅色' : '☾ 深色');
  themeButton.addEventListener('click', () => (toggleTheme(), themeLabel()));
  themeLabel();
  const search = searchBox(client, (i: Instrument) => (location.hash = hashOf(here().mode === 'minute' ? 'minute' : 'chart', i.id)));
  document.body.append(
    h(
      'header',
      {},
      h('a', { class: 'brand', href: '#/' }, 'mds'),
      search.el,
      h(
        'nav',
        {},
        h('a', { href: '#/watchlist', id: 'nav-watchlist' }, '自选'),
        h('a', { href: '#/market', id: 'nav-market' }, '市场'),
        h('a', { href: '/docs' }, 'API'),
        themeButton,
        keyButton,
      ),
    ),
    liveBanner(client, () => void route(current.position?.())),
    view,
    requestsPanel(client),
  );
  installKeyboard({
    view: () => current,
    instrument: () => here().id,
    mode: () => here().mode,
    openSearch: search.open,
    hashOf,
  });
}

function ensureKey(reason: string): Promise<void> {
  asking ??= askKey(client, reason).finally(() => (asking = null));
  return asking;
}

const chartHash = (id: string, s: ChartState) =>
  `#/chart/${id}?interval=${s.interval}&adjustment=${s.adjustment}&indicators=${s.indicators.join(',')}` +
  `${s.date ? `&date=${s.date}` : ''}${s.overlay ? `&overlay=${s.overlay}` : ''}`;

/** The instrument's view of a mode; the chart keeps the current chart's interval and indicators. */
function hashOf(mode: Mode, id: string): string {
  if (mode === 'minute') return `#/minute/${id}`;
  if (mode === 'fundamentals') return `#/fundamentals/${id}`;
  const q = new URLSearchParams(location.hash.startsWith('#/chart/') ? (location.hash.split('?')[1] ?? '') : '');
  q.delete('overlay');
  return chartHash(id, chartState(q));
}

async function instrumentOr404(id: string): Promise<Instrument | null> {
  const inst = await resolve(client, id);
  if (!inst) fill(view, h('p', { class: 'error', id: 'not-found' }, `本库没有 ${id}。请在上方按代码、名称或拼音首字母搜索。`));
  return inst;
}

let routes = 0;

/** Draws the view the hash names; `at`: where the view being drawn again was (its position). */
async function route(at?: ChartPosition | null) {
  const mine = ++routes;
  current.close();
  current = NO_VIEW;
  const { parts, query: q } = parseRoute(location.hash);
  const of = instrumentViewOf(parts);
  client.clearLog();
  if (!client.key) await ensureKey('');
  // A later navigation (or a key entered meanwhile) draws instead.
  if (mine !== routes) return;
  try {
    if (of) {
      const inst = await instrumentOr404(parts[1]);
      if (!inst || mine !== routes) return;
      current = await instrumentView(of, inst, q, at);
    } else if (parts[0] === 'market') {
      document.title = '市场 · mds';
      await marketView(view, client, parts[1] ?? null, (d) => (location.hash = `#/market/${d}`));
    } else if (parts[0] === 'watchlist') {
      document.title = '自选 · mds';
      await watchlistView(view, client);
    } else {
      // The start: the SSE Composite where the store has it, else its first equity.
      const first = (await resolve(client, '000001.SH')) ?? (await search(client, '6', 1))[0] ?? (await search(client, '0', 1))[0];
      if (first) location.replace(chartHash(first.id, chartState(q)));
      else fill(view, h('p', { class: 'empty' }, '本库还没有任何证券。'));
    }
  } catch (e) {
    fill(view, h('p', { class: 'error' }, (e as Error).message));
  }
}

async function instrumentView(
  mode: 'chart' | 'minute' | 'fundamentals',
  inst: Instrument,
  q: URLSearchParams,
  at?: ChartPosition | null,
): Promise<View> {
  if (mode === 'minute') {
    document.title = `${inst.name} 分时 · mds`;
    return minuteView(view, client, inst, { date: q.get('date') ?? undefined, days: q.get('days') === '5' ? 5 : 1 }, (s) => {
      location.hash = `#/minute/${inst.id}?${s.date ? `date=${s.date}&` : ''}days=${s.days}`;
    });
  }
  if (mode === 'fundamentals') {
    document.title = `${inst.name} 资料 · mds`;
    await fundamentalsView(view, client, inst);
    return NO_VIEW;
  }
  document.title = `${inst.name} ${inst.id} · mds`;
  return chartView(view, client, inst, { ...chartState(q), at: at ?? undefined }, (s) => {
    const same = chartState(new URLSearchParams(location.hash.split('?')[1] ?? ''));
    const hash = chartHash(inst.id, s);
    const redraw = same.interval !== s.interval || same.adjustment !== s.adjustment || same.date !== s.date || same.overlay !== s.overlay;
    if (redraw) location.hash = hash;
    else history.replaceState(null, '', hash);
  });
}

client.onUnauthorized = () => {
  // A key being checked in the dialog answers there.
  if (asking) return;
  client.key = null;
  void ensureKey('密钥被拒绝：请输入有效的密钥。 The key was refused: enter a valid key.').then(() => route());
};
applyTheme();
layout();
window.addEventListener('hashchange', () => void route());
void route();
