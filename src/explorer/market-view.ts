import { ApiFailure, type Client, type Page } from './api.js';
import { fill, h } from './dom.js';
import {
  distributionChart,
  breadthChart,
  breadthKey,
  sumByDay,
  streakHeights,
  BREADTH_DAYS,
  STREAK_DAYS,
  type BreadthDay,
} from './market-charts.js';
import type { Changed } from './distribution.js';
import { POOL_NOTES } from './labels.js';
import { setList } from './lists.js';
import { recordTable, type Row } from './table.js';
import { palette } from './theme.js';

interface PoolType {
  id: string;
  name: string;
  description: string;
}
interface Breadth extends Row {
  market: string;
  trade_date: string;
}

/** Columns of a pool's table, in this order, when the records have them. */
const POOL_COLUMNS = [
  'instrument_id',
  'name',
  'close',
  'pct_change',
  'consecutive_limit_ups',
  'first_limit_time',
  'last_limit_time',
  'broken_count',
  'sealed_amount',
  'turnover_rate',
  'amount',
  'limit_up',
  'limit_down',
  'strong_reason',
];
const BREADTH_COLUMNS = [
  'market',
  'listed',
  'advancers',
  'decliners',
  'unchanged',
  'limit_up',
  'limit_down',
  'suspended',
  'volume',
  'amount',
];
/** Pool members shown per pool (the API's pages beyond are a request away: see the requests panel). */
const POOL_ROWS = 500;

/**
 * A market's day: the mood as charts (breadth over the last days, the day's distribution of
 * changes), breadth per market, and every pool of the day as a table (streaks, first-limit
 * times) whose members open their charts. The date moves over trading days; with none given,
 * the latest day with bars.
 */
export async function marketView(root: HTMLElement, client: Client, date: string | null, go: (date: string) => void): Promise<void> {
  const body = h('div', { id: 'market-day', 'data-state': 'loading' });
  const picker = h('input', { type: 'date', id: 'market-date' });
  const prev = h('button', { type: 'button', id: 'prev-day', title: '上一交易日' }, '◀');
  const next = h('button', { type: 'button', id: 'next-day', title: '下一交易日' }, '▶');
  fill(root, h('div', { class: 'instrument-head' }, h('h1', {}, '市场'), prev, picker, next), body);

  try {
    const markets = (await client.get<Page<{ id: string }>>('/markets')).data.map((m) => m.id);
    // The latest day with bars, when no date is asked for; the calendar's days around it.
    const latest = (
      await Promise.all(markets.map((m) => client.get<Page<Breadth>>(`/markets/${m}/breadth`, { order: 'desc', 'page[size]': 1 })))
    )
      .flatMap((p) => p.data)
      .map((b) => b.trade_date)
      .sort()
      .pop();
    if (!latest) {
      fill(body, h('p', { class: 'empty' }, '本库没有日线。'));
      return;
    }
    if (date !== null && !isDate(date)) {
      fill(body, h('p', { class: 'error' }, `${date} is not a date (YYYY-MM-DD).`));
      body.dataset.state = 'complete';
      return;
    }
    const day = date ?? latest;
    body.dataset.date = day;
    picker.value = day;
    picker.max = latest;
    picker.onchange = () => picker.value && go(picker.value);
    const { p, n } = await neighbours(client, markets, day, latest);
    prev.disabled = !p;
    next.disabled = !n;
    prev.onclick = () => p && go(p);
    next.onclick = () => n && go(n);
    await drawDay(body, client, markets, day);
  } catch (e) {
    fill(body, h('p', { class: 'error' }, e instanceof ApiFailure ? `${e.status} ${e.code}: ${e.message}` : String(e)));
    body.dataset.state = 'error';
  }
}

async function drawDay(body: HTMLElement, client: Client, markets: string[], day: string): Promise<void> {
  const orNone = <T>(e: unknown): Page<T> => {
    if (e instanceof ApiFailure && e.status === 400) return { data: [] } as unknown as Page<T>;
    throw e;
  };
  const [breadth, history, changes, types] = await Promise.all([
    Promise.all(markets.map((m) => client.get<Page<Breadth>>(`/markets/${m}/breadth`, { date: day }).catch(orNone<Breadth>))),
    Promise.all(
      markets.map((m) => client.get<Page<BreadthDay>>(`/markets/${m}/breadth`, { to: day, order: 'desc', 'page[size]': BREADTH_DAYS })),
    ),
    Promise.all(
      markets.map((m) =>
        client.all<Changed>(`/markets/${m}/bars`, { date: day, kind: 'equity', 'page[size]': 1000 }, 20_000).catch(() => []),
      ),
    ),
    client.get<Page<PoolType>>('/equities/pools'),
  ]);
  const rows = breadth.flatMap((r) => r.data);
  if (!rows.length) {
    fill(body, h('p', { class: 'error' }, `${day} 不是本库有日线的交易日。`));
    body.dataset.state = 'complete';
    return;
  }
  const pools = await Promise.all(
    types.data.map((t) => client.all<Row>(`/equities/pools/${t.id}`, { date: day, 'page[size]': 500 }, POOL_ROWS)),
  );
  const days = sumByDay(history.flatMap((r) => r.data));
  const breadthBox = h('div', { class: 'mini-chart', id: 'breadth-chart' });
  fill(
    body,
    h(
      'div',
      { class: 'charts' },
      h('div', { class: 'panel' }, h('h3', {}, `涨跌家数 · 涨跌停 · 连板高度（近${days.length}日）`), breadthKey(palette()), breadthBox),
      h('div', { class: 'panel' }, h('h3', {}, `${day} 涨跌分布`), distributionChart(changes.flat())),
    ),
    h('h2', {}, '市场宽度 ', h('span', { class: 'muted' }, day)),
    recordTable(rows, {
      id: 'breadth',
      columns: BREADTH_COLUMNS.filter((c) => c in rows[0]),
      titles: { limit_up: '涨停', limit_down: '跌停' },
    }),
    ...types.data.flatMap((t, i) => poolSection(t, pools[i], day)),
  );
  body.dataset.state = 'complete';
  // The streak heights: a pool request per day, drawn when they come.
  const recent = days.slice(-STREAK_DAYS).map((d) => d.trade_date);
  let chart = breadthChart(breadthBox, days, new Map(), palette());
  const heights = await streakHeights(client, recent).catch(() => new Map<string, number>());
  if (!breadthBox.isConnected) return;
  chart.remove();
  chart = breadthChart(breadthBox, days, heights, palette());
  breadthBox.dataset.streaks = recent.map((d) => `${d}:${heights.get(d) ?? ''}`).join(',');
}

function poolSection(t: PoolType, rows: Row[], day: string): HTMLElement[] {
  const columns = rows.length ? POOL_COLUMNS.filter((c) => c in rows[0]) : [];
  const ids = rows.map((r) => String(r.instrument_id));
  return [
    h('h2', { id: `pool-${t.id}` }, `${t.name} `, h('span', { class: 'muted' }, `${rows.length}${rows.length >= POOL_ROWS ? '+' : ''} 只`)),
    h('p', { class: 'hint', title: t.description }, POOL_NOTES[t.id] ?? t.description),
    recordTable(rows, {
      columns,
      links: { instrument_id: (v) => `#/chart/${v}` },
      id: `pool-table-${t.id}`,
      // The pool becomes the list PageUp/PageDown walk from the member opened.
      onOpen: () => setList({ name: `${t.name} ${day}`, ids }),
    }),
  ];
}

/**
 * The trading days before and after `day` (up to `latest`) over the union of the markets'
 * calendars: the nearest of each market's own, since the markets' calendars differ (BJ opened on
 * 2021-11-15, and `/markets` lists it first).
 */
async function neighbours(client: Client, markets: string[], day: string, latest: string): Promise<{ p?: string; n?: string }> {
  type Days = Page<{ date: string }>;
  const around = await Promise.all(
    markets.map((m) =>
      Promise.all([
        client.get<Days>(`/markets/${m}/trading-days`, { to: prevDay(day), order: 'desc', 'page[size]': 1 }),
        day >= latest ? { data: [] } : client.get<Days>(`/markets/${m}/trading-days`, { from: nextDay(day), to: latest, 'page[size]': 1 }),
      ]),
    ),
  );
  const befores = around.flatMap(([b]) => b.data.map((d) => d.date)).sort();
  const afters = around.flatMap(([, a]) => a.data.map((d) => d.date)).sort();
  return { p: befores.pop(), n: afters[0] };
}

/** A real calendar date written YYYY-MM-DD. */
const isDate = (d: string) => {
  const t = /^\d{4}-\d\d-\d\d$/.test(d) ? Date.parse(`${d}T00:00:00Z`) : NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
};

const shift = (d: string, days: number) => new Date(Date.parse(`${d}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const prevDay = (d: string) => shift(d, -1);
const nextDay = (d: string) => shift(d, 1);
