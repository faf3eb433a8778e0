import { ApiFailure, type Client, type Page } from './api.js';
import { fill, h } from './dom.js';
import { instrumentHead } from './instrument-head.js';
import type { Instrument } from './instruments.js';
import { recordTable, transposedTable, type Row } from './table.js';

/** A statement's period, as its records name it. */
const PERIOD_KEYS = ['report_date', 'report_period', 'end_date'];
/** Statements and indicators: the latest periods side by side. */
const PERIODS = 8;
const SECTIONS: { id: string; title: string; path: string; transposed: boolean; size: number }[] = [
  { id: 'income', title: '利润表', path: 'income-statements', transposed: true, size: PERIODS },
  { id: 'balance', title: '资产负债表', path: 'balance-sheets', transposed: true, size: PERIODS },
  { id: 'cash-flow', title: '现金流量表', path: 'cash-flow-statements', transposed: true, size: PERIODS },
  { id: 'indicators', title: '财务指标', path: 'financial-indicators', transposed: true, size: PERIODS },
  { id: 'valuations', title: '估值（近30日）', path: 'valuations', transposed: false, size: 30 },
  { id: 'dividends', title: '分红送转', path: 'dividends', transposed: false, size: 100 },
  { id: 'share-capital', title: '股本变动', path: 'share-capital', transposed: false, size: 100 },
];

/** An equity's fundamentals as tables: statements, indicators, valuations, dividends, share capital. */
export async function fundamentalsView(root: HTMLElement, client: Client, inst: Instrument): Promise<void> {
  const body = h('div', { id: 'fundamentals', 'data-state': 'loading' });
  fill(
    root,
    instrumentHead(inst, 'fundamentals'),
    h(
      'nav',
      { class: 'sections' },
      ...SECTIONS.map((s) =>
        h('a', { href: `#/fundamentals/${inst.id}`, 'data-jump': s.id, onclick: (e: Event) => jump(e, s.id) }, s.title),
      ),
    ),
    body,
  );
  if (inst.kind !== 'equity') {
    fill(body, h('p', { class: 'empty' }, `${inst.id} 是${inst.kind === 'index' ? '指数' : '基金'}：财务资料只有股票才有。`));
    body.dataset.state = 'complete';
    return;
  }
  const pages = await Promise.all(
    SECTIONS.map((s) =>
      client
        .get<Page<Row>>(`/equities/${inst.id}/${s.path}`, { order: 'desc', 'page[size]': s.size })
        .then((p) => p.data)
        .catch((e: unknown) => (e instanceof ApiFailure ? e : Promise.reject(e))),
    ),
  );
  fill(
    body,
    ...SECTIONS.flatMap((s, i) => {
      const rows = pages[i];
      const table =
        rows instanceof ApiFailure
          ? h('p', { class: 'error' }, `${rows.status} ${rows.code}: ${rows.message}`)
          : s.transposed
            ? transposedTable(rows.map(strip), PERIOD_KEYS.find((k) => rows.length && k in rows[0]) ?? 'report_period')
            : recordTable(rows.map(strip));
      return [h('h2', { id: `section-${s.id}` }, s.title), h('div', { 'data-section': s.id }, table)];
    }),
  );
  body.dataset.state = 'complete';
}

/** A record without its instrument id (the page says whose it is). */
const strip = ({ instrument_id: _, ...rest }: Row): Row => rest;

function jump(e: Event, id: string) {
  e.preventDefault();
  document.getElementById(`section-${id}`)?.scrollIntoView({ behavior: 'smooth' });
}
