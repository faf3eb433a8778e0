/**
 * Tables of API records as a user reads them: Chinese headers, money and share counts in 万/亿
 * and volumes in 手 (the exact value in each cell's tooltip and `data-value`), numbers
 * right-aligned, times in market time; sortable by a click on a header, scrolling inside their
 * panel.
 */
import { h } from './dom.js';
import { marketClock, volumeText, wanYi } from './format.js';
import { CODES, fieldKind, fieldTitle, type Kind } from './labels.js';

export type Row = Record<string, unknown>;

const SIGNED = ['change', 'pct_change'];
const NUMERIC: Kind[] = ['money', 'shares', 'volume', 'price', 'pct', 'ratio', 'int'];
const isDecimal = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));

/** A value as the API wrote it: strings and numbers as they are, nested values as JSON, null a dash. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A value as the table shows it, by its field's kind. */
export function shown(key: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  const kind = fieldKind(key);
  if (isDecimal(v)) {
    if (kind === 'money') return wanYi(String(v));
    if (kind === 'shares') return `${wanYi(String(v))}股`;
    if (kind === 'volume') return volumeText(String(v));
  }
  if (kind === 'time' && typeof v === 'string') return marketClock(v);
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v === 'string' && CODES[v]) return CODES[v];
  return cell(v);
}

function td(key: string, v: unknown, link?: (v: string) => string): HTMLElement {
  const text = shown(key, v);
  const exact = cell(v);
  const numeric = isDecimal(v) && NUMERIC.includes(fieldKind(key));
  // Changes in the up and down colours.
  const signed = numeric && SIGNED.includes(key) ? (String(v).startsWith('-') ? ' down' : /[1-9]/.test(String(v)) ? ' up' : '') : '';
  return h(
    'td',
    { class: numeric ? `num${signed}` : '', 'data-column': key, 'data-value': exact, title: text !== exact ? exact : undefined },
    link && typeof v === 'string' ? h('a', { href: link(v) }, text) : text,
  );
}

const compare = (key: string) => (a: Row, b: Row) => {
  const [x, y] = [a[key], b[key]];
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  if (isDecimal(x) && isDecimal(y)) return Number(x) - Number(y);
  return String(x).localeCompare(String(y), 'zh-CN');
};

export interface TableOptions {
  columns?: string[];
  links?: Record<string, (v: string) => string>;
  id?: string;
  /** Headers that differ from the fields' usual titles (breadth's limit_up is a count, not a price). */
  titles?: Record<string, string>;
  /** A click on a row (the pools: the list PageUp/PageDown walks). */
  onOpen?: (row: Row) => void;
}

/** A table of records, one row each; a click on a header sorts by it (again: the other way). */
export function recordTable(rows: Row[], opts: TableOptions = {}): HTMLElement {
  if (!rows.length) return h('p', { class: 'empty' }, '无记录。');
  const columns = opts.columns ?? Object.keys(rows[0]);
  const body = h('tbody', {});
  const fillBody = (rs: Row[]) =>
    body.replaceChildren(
      ...rs.map((r) => {
        const tr = h('tr', {}, ...columns.map((c) => td(c, r[c], opts.links?.[c])));
        if (opts.onOpen) tr.addEventListener('click', () => opts.onOpen!(r));
        return tr;
      }),
    );
  let sorted: { key: string; desc: boolean } | null = null;
  const heads = columns.map((c) => {
    const th = h(
      'th',
      { 'data-column': c, class: NUMERIC.includes(fieldKind(c)) ? 'num sortable' : 'sortable', title: `${c}（点击排序）` },
      opts.titles?.[c] ?? fieldTitle(c),
    );
    th.addEventListener('click', () => {
      sorted = { key: c, desc: sorted?.key === c ? !sorted.desc : NUMERIC.includes(fieldKind(c)) };
      const cmp = compare(c);
      fillBody(rows.slice().sort((a, b) => (sorted!.desc ? -cmp(a, b) : cmp(a, b))));
      for (const o of heads) o.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', sorted.desc ? 'descending' : 'ascending');
    });
    return th;
  });
  fillBody(rows);
  return h('div', { class: 'table-wrap' }, h('table', { id: opts.id }, h('thead', {}, h('tr', {}, ...heads)), body));
}

/**
 * Records side by side, one column each (a statement's periods), one row per field: how
 * statements are read. `head` names each record's column.
 */
export function transposedTable(rows: Row[], head: string, skip: string[] = []): HTMLElement {
  if (!rows.length) return h('p', { class: 'empty' }, '无记录。');
  const fields = Object.keys(rows[0]).filter((k) => k !== head && !skip.includes(k));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'transposed' },
      h('thead', {}, h('tr', {}, h('th', {}, fieldTitle(head)), ...rows.map((r) => h('th', { class: 'num' }, cell(r[head]))))),
      h(
        'tbody',
        {},
        ...fields.map((f) => h('tr', { 'data-field': f }, h('th', { title: f }, fieldTitle(f)), ...rows.map((r) => td(f, r[f])))),
      ),
    ),
  );
}
