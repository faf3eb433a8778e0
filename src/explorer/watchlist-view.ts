/**
 * The watchlist (自选股) as a market-day table: each instrument's latest close, change, % change,
 * volume, amount and (equities) turnover, sortable; a row opens its chart, and the list is the
 * one PageUp/PageDown walk from there.
 */
import { ApiFailure, type Client, type Page } from './api.js';
import { percentChange, subtract } from './decimal.js';
import { fill, h } from './dom.js';
import { kindPath, resolve } from './instruments.js';
import { setList } from './lists.js';
import { recordTable, type Row } from './table.js';
import { setWatched, watchlist } from './watchlist.js';

interface DayBar {
  trade_date: string;
  close: string;
  volume: number;
  amount: string | null;
}

const COLUMNS = ['instrument_id', 'name', 'close', 'change', 'pct_change', 'volume', 'amount', 'turnover_rate', 'trade_date'];

async function row(client: Client, id: string): Promise<Row> {
  const inst = await resolve(client, id);
  if (!inst) return { instrument_id: id, name: '（本库没有）' };
  const base = `${kindPath(inst.kind)}/${inst.id}`;
  const [bars, valuation] = await Promise.all([
    client.get<Page<DayBar>>(`${base}/bars`, { interval: '1d', order: 'desc', 'page[size]': 2 }),
    inst.kind === 'equity'
      ? client.get<Page<{ trade_date: string; turnover_rate: string | null }>>(`${base}/valuations`, { order: 'desc', 'page[size]': 1 })
      : null,
  ]);
  const [b, prev] = bars.data;
  const v = valuation?.data[0];
  return {
    instrument_id: inst.id,
    name: inst.name,
    close: b?.close ?? null,
    change: b && prev ? subtract(b.close, prev.close) : null,
    pct_change: b && prev ? percentChange(b.close, prev.close) : null,
    volume: b?.volume ?? null,
    amount: b?.amount ?? null,
    turnover_rate: v && b && v.trade_date === b.trade_date ? v.turnover_rate : null,
    trade_date: b?.trade_date ?? null,
  };
}

export async function watchlistView(root: HTMLElement, client: Client): Promise<void> {
  const body = h('div', { id: 'watchlist', 'data-state': 'loading' });
  fill(
    root,
    h('div', { class: 'instrument-head' }, h('h1', {}, '自选股'), h('span', { class: 'muted' }, '存于本浏览器；在K线页点 ☆ 加自选')),
    body,
  );
  const ids = watchlist();
  setList({ name: '自选', ids });
  if (!ids.length) {
    fill(body, h('p', { class: 'empty' }, '自选股为空。打开一只股票的K线，点 “☆ 加自选”。'));
    body.dataset.state = 'complete';
    return;
  }
  try {
    const rows = await Promise.all(ids.map((id) => row(client, id)));
    const table = recordTable(rows, { columns: COLUMNS, links: { instrument_id: (v) => `#/chart/${v}` }, id: 'watchlist-table' });
    table.querySelector('thead tr')?.append(h('th', {}, ''));
    for (const tr of table.querySelectorAll('tbody tr')) {
      const id = tr.querySelector('[data-column="instrument_id"]')!.getAttribute('data-value')!;
      const remove = h('button', { type: 'button', class: 'small', title: '移出自选' }, '✕');
      remove.addEventListener('click', () => {
        setWatched(id, false);
        tr.remove();
        setList({ name: '自选', ids: watchlist() });
      });
      tr.append(h('td', {}, remove));
    }
    fill(body, table);
    body.dataset.state = 'complete';
  } catch (e) {
    fill(body, h('p', { class: 'error' }, e instanceof ApiFailure ? `${e.status} ${e.code}: ${e.message}` : String(e)));
    body.dataset.state = 'error';
  }
}
