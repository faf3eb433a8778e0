import type { Client } from './api.js';
import { fill, h } from './dom.js';
import { KIND_NAMES } from './instrument-head.js';
import { search, type Instrument } from './instruments.js';
import { setList } from './lists.js';

/**
 * The search box: code, name (Chinese too) or pinyin initials (`gzmt`), across equities, indices
 * and funds, as the API's searchInstruments ranks them. Enter (the first hit, or the one chosen
 * with ↑ ↓) or a click opens the chart, and the results become the list PageUp/PageDown walk.
 * `open(text)` starts a search with text typed (a key pressed anywhere on the page: 键盘精灵).
 */
export function searchBox(client: Client, open: (i: Instrument) => void): { el: HTMLElement; open: (text: string) => void } {
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
  let pending: Promise<void> = Promise.resolve();

  const choose = (i: Instrument | undefined) => {
    if (!i) return;
    setList({ name: `搜索 ${input.value.trim()}`, ids: results.map((r) => r.id) });
    input.value = '';
    input.blur();
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
          h('span', { class: 'kind' }, KIND_NAMES[r.kind]),
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
    timer = window.setTimeout(() => {
      timer = undefined;
      pending = lookup();
    }, 120);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      active = Math.max(0, Math.min(results.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1)));
      render();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      // Typed faster than the lookup: wait for the hits of what is typed.
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
        pending = lookup();
      }
      void pending.then(() => choose(results[active]));
    } else if (e.key === 'Escape') {
      fill(list);
      input.value = '';
      input.blur();
    }
    e.stopPropagation();
  });
  input.addEventListener('blur', () => setTimeout(() => fill(list), 150));
  const openWith = (text: string) => {
    input.focus();
    input.value = text;
    input.dispatchEvent(new Event('input'));
  };
  return { el: h('div', { class: 'search' }, input, list), open: openWith };
}
