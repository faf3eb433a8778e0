import { ApiFailure, type Client, type Page } from './api.js';
import { fill, h } from './dom.js';
import { recordTable, type Row } from './table.js';

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
  'limit_up',
  'limit_down',
  'consecutive_limit_ups',
  'first_limit_time',
  'last_limit_time',
  'broken_count',
  'sealed_amount',
  'turnover_rate',
  'amount',
  'strong_reason',
];
/** Pool members shown per pool (the API's pages beyond are a request away: see the requests panel). */
const POOL_ROWS = 500;

/**
 * A market's day: breadth per market (advancers, decliners, limit-ups, suspended, turnover), and
 * every pool of the day as a table whose members link to their charts. The date moves over
 * trading days; with none given, the latest day with bars.
 */
export async function marketView(root: HTMLElement, client: Client, date: string | null, go: (date: string) => void): Promise<void> {
  const body = h('div', { id: 'market-day', 'data-state': 'loading' });
  const picker = h('input', { type: 'date', id: 'market-date' });
  const prev = h('button', { type: 'button', id: 'prev-day', title: 'Previous trading day' }, '◀');
  const next = h('button', { type: 'button', id: 'next-day', title: 'Next trading day' }, '▶');
  fill(root, h('div', { class: 'instrument-head' }, h('h1', {}, 'Market day'), prev, picker, next), body);

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
      fill(body, h('p', { class: 'empty' }, 'The store holds no daily bars.'));
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

    const breadth = (
      await Promise.all(
        markets.map((m) =>
          client.get<Page<Breadth>>(`/markets/${m}/breadth`, { date: day }).catch((e) => {
            if (e instanceof ApiFailure && e.status === 400) return { data: [] } as unknown as Page<Breadth>;
            throw e;
          }),
        ),
      )
    ).flatMap((r) => r.data);
    if (!breadth.length) {
      fill(body, h('p', { class: 'error' }, `${day} is not a trading day with bars in this store.`));
      body.dataset.state = 'complete';
      return;
    }
    const types = (await client.get<Page<PoolType>>('/equities/pools')).data;
    const pools = await Promise.all(
      types.map((t) => client.all<Row>(`/equities/pools/${t.id}`, { date: day, 'page[size]': 500 }, POOL_ROWS)),
    );
    const chartLink = (id: string) => `#/chart/${id}`;
    fill(
      body,
      h('h2', {}, 'Breadth ', h('span', { class: 'muted' }, day)),
      recordTable(breadth, { id: 'breadth' }),
      ...types.flatMap((t, i) => {
        const rows = pools[i];
        const columns = rows.length ? POOL_COLUMNS.filter((c) => c in rows[0]) : [];
        return [
          h(
            'h2',
            { id: `pool-${t.id}` },
            `${t.name} `,
            h('span', { class: 'muted' }, `${t.id} · ${rows.length}${rows.length >= POOL_ROWS ? '+' : ''}`),
          ),
          h('p', { class: 'hint' }, t.description),
          recordTable(rows, { columns, links: { instrument_id: chartLink }, id: `pool-table-${t.id}` }),
        ];
      }),
    );
    body.dataset.state = 'complete';
  } catch (e) {
    fill(body, h('p', { class: 'error' }, e instanceof ApiFailure ? `${e.status} ${e.code}: ${e.message}` : String(e)));
    body.dataset.state = 'error';
  }
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
