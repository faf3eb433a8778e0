import type { Client } from './api.js';
import { fill, h } from './dom.js';
import { search, type Instrument } from './instruments.js';

const KIND = { equity: '股票', index: '指数', fund: '基金' } as const;

/**
 * The search box: code, name (Chinese too) or pinyin initials (`gzmt`), across equities, indices
 * and funds, as the API's searchInstruments ranks them. Enter or a click opens the chart.
 */
export function searchBox(client: Client, open: (i: Instrument) => void): HTMLElement {
  const input = h('input', {
    type: 'search',
    id: 'search',
    placeholder: '代码 / 名称 / 拼音  (600519, 贵州茅台, gzmt)',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const list = h('ul', { class: 'search-results', id: 'search-results', role: 'listbox' });
  let results: Instrument[] = [];
  let active = 0;
  let seq = 0;
  let timer: number | undefined;

  const choose = (i: Instrument | undefined) => {
    if (!i) return;
    input.value = '';
    fill(list);
    results = [];
    open(i);
  };
  const render = () =>
    fill(
      list,
      ...results.map((r, n) =>
        h(
          'li',
          { class: n === active ? 'active' : '', role: 'option', 'data-id': r.id, onmousedown: () => choose(r) },
          h('span', { class: 'id' }, r.id),
          h('span', { class: 'name' }, r.name),
          h('span', { class: 'kind' }, KIND[r.kind]),
        ),
      ),
    );
  const lookup = async () => {
    const q = input.value.trim();
    const mine = ++seq;
    if (!q) {
      results = [];
      return render();
    }
    try {
      const found = await search(client, q);
      if (mine !== seq) return;
      results = found;
      active = 0;
      render();
    } catch {
      /* a query the API refuses (too long, say) shows nothing */
    }
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(lookup, 120);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      active = Math.max(0, Math.min(results.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1)));
      render();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(results[active]);
    } else if (e.key === 'Escape') {
      fill(list);
    }
  });
  input.addEventListener('blur', () => setTimeout(() => fill(list), 150));
  return h('div', { class: 'search' }, input, list);
}
