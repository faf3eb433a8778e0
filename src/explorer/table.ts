import { h } from './dom.js';

export type Row = Record<string, unknown>;

/** A cell as the API wrote it: strings and numbers as they are, booleans and nested values as JSON. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));

/**
 * A table of API records, one row each, columns in the record's order (or those given). A column
 * named in `links` becomes a link made from its value.
 */
export function recordTable(
  rows: Row[],
  opts: { columns?: string[]; links?: Record<string, (v: string) => string>; id?: string } = {},
): HTMLElement {
  if (!rows.length) return h('p', { class: 'empty' }, 'No records.');
  const columns = opts.columns ?? Object.keys(rows[0]);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: opts.id },
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
      h(
        'tbody',
        {},
        ...rows.map((r) =>
          h(
            'tr',
            {},
            ...columns.map((c) => {
              const v = r[c];
              const link = opts.links?.[c];
              const text = cell(v);
              return h(
                'td',
                { class: numeric(v) ? 'num' : '', 'data-column': c },
                link && typeof v === 'string' ? h('a', { href: link(v) }, text) : text,
              );
            }),
          ),
        ),
      ),
    ),
  );
}

/**
 * Records side by side, one column each (a statement's periods), one row per field: how
 * statements are read. `head` names each record's column.
 */
export function transposedTable(rows: Row[], head: string, skip: string[] = []): HTMLElement {
  if (!rows.length) return h('p', { class: 'empty' }, 'No records.');
  const fields = Object.keys(rows[0]).filter((k) => k !== head && !skip.includes(k));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'transposed' },
      h('thead', {}, h('tr', {}, h('th', {}, head), ...rows.map((r) => h('th', {}, cell(r[head]))))),
      h(
        'tbody',
        {},
        ...fields.map((f) => h('tr', {}, h('th', {}, f), ...rows.map((r) => h('td', { class: numeric(r[f]) ? 'num' : '' }, cell(r[f]))))),
      ),
    ),
  );
}
