/**
 * The explorer (/explorer): a single page over the service's API. Views by URL hash:
 * `#/chart/ID?interval=1d&adjustment=none&indicators=macd`, `#/market/DATE`, `#/fundamentals/ID`.
 */
import './style.css';
import { Client } from './api.js';
import { chartView, type ChartState, type Adjustment } from './chart-view.js';
import { fill, h } from './dom.js';
import { fundamentalsView } from './fundamentals-view.js';
import { indicatorById } from './indicators.js';
import { resolve, search, type Instrument } from './instruments.js';
import { askKey } from './key.js';
import { marketView } from './market-view.js';
import { requestsPanel } from './requests.js';
import { searchBox } from './search-box.js';
import { INTERVALS, type Interval } from './time.js';

const client = new Client();
const view = h('main', { id: 'view' });
let close: () => void = () => {};
let asking: Promise<void> | null = null;

function layout() {
  const keyButton = h('button', { type: 'button', id: 'key-button', onclick: () => void ensureKey('').then(route) }, 'API key');
  document.body.append(
    h(
      'header',
      {},
      h('a', { class: 'brand', href: '#/' }, 'mds explorer'),
      searchBox(client, (i: Instrument) => (location.hash = `#/chart/${i.id}`)),
      h('nav', {}, h('a', { href: '#/market', id: 'nav-market' }, '市场 Market day'), h('a', { href: '/docs' }, 'API docs')),
      keyButton,
    ),
    view,
    requestsPanel(client),
  );
}

function ensureKey(reason: string): Promise<void> {
  asking ??= askKey(client, reason).finally(() => (asking = null));
  return asking;
}

/** The chart state a hash's query names (unknown values fall back to the defaults). */
function chartState(q: URLSearchParams): ChartState {
  const interval = (INTERVALS as readonly string[]).includes(q.get('interval') ?? '') ? (q.get('interval') as Interval) : '1d';
  const adj = q.get('adjustment');
  const adjustment: Adjustment = adj === 'forward' || adj === 'backward' ? adj : 'none';
  const indicators = (q.get('indicators') ?? '').split(',').filter((i) => indicatorById(i));
  return { interval, adjustment, indicators };
}

const chartHash = (id: string, s: ChartState) =>
  `#/chart/${id}?interval=${s.interval}&adjustment=${s.adjustment}${s.indicators.length ? `&indicators=${s.indicators.join(',')}` : ''}`;

async function instrumentOr404(id: string): Promise<Instrument | null> {
  const inst = await resolve(client, id);
  if (!inst)
    fill(view, h('p', { class: 'error', id: 'not-found' }, `No instrument ${id} in this store. Search by code, name or pinyin above.`));
  return inst;
}

let routes = 0;

async function route() {
  const mine = ++routes;
  close();
  close = () => {};
  client.clearLog();
  if (!client.key) await ensureKey('');
  // A later navigation (or a key entered meanwhile) draws instead.
  if (mine !== routes) return;
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const q = new URLSearchParams(query);
  try {
    if (parts[0] === 'chart' && parts[1]) {
      const inst = await instrumentOr404(parts[1]);
      if (!inst || mine !== routes) return;
      document.title = `${inst.name} ${inst.id} · mds explorer`;
      close = chartView(view, client, inst, chartState(q), (s) => {
        const same = chartState(new URLSearchParams(location.hash.split('?')[1] ?? ''));
        const hash = chartHash(inst.id, s);
        if (same.interval === s.interval && same.adjustment === s.adjustment) history.replaceState(null, '', hash);
        else location.hash = hash;
      });
    } else if (parts[0] === 'market') {
      document.title = 'Market day · mds explorer';
      await marketView(view, client, parts[1] ?? null, (d) => (location.hash = `#/market/${d}`));
    } else if (parts[0] === 'fundamentals' && parts[1]) {
      const inst = await instrumentOr404(parts[1]);
      if (!inst || mine !== routes) return;
      document.title = `${inst.name} fundamentals · mds explorer`;
      await fundamentalsView(view, client, inst);
    } else {
      // The start: the SSE Composite where the store has it, else its first equity.
      const first = (await resolve(client, '000001.SH')) ?? (await search(client, '6', 1))[0] ?? (await search(client, '0', 1))[0];
      if (first) location.replace(chartHash(first.id, chartState(q)));
      else fill(view, h('p', { class: 'empty' }, 'The store holds no instruments yet.'));
    }
  } catch (e) {
    fill(view, h('p', { class: 'error' }, (e as Error).message));
  }
}

client.onUnauthorized = () => {
  // A key being checked in the dialog answers there.
  if (asking) return;
  client.key = null;
  void ensureKey('The key was refused: enter a valid key.').then(route);
};
layout();
window.addEventListener('hashchange', () => void route());
void route();
