/** The watchlist (自选股): instrument ids kept in this browser, in the order added. */
import { h } from './dom.js';
import type { Instrument } from './instruments.js';

const WATCH_KEY = 'mds.explorer.watchlist';

export function watchlist(): string[] {
  try {
    const ids = JSON.parse(localStorage.getItem(WATCH_KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((i) => typeof i === 'string') : [];
  } catch {
    return [];
  }
}

export function setWatched(id: string, on: boolean): void {
  const ids = watchlist().filter((i) => i !== id);
  localStorage.setItem(WATCH_KEY, JSON.stringify(on ? [...ids, id] : ids));
}

/** A star that adds the instrument to the watchlist or removes it. */
export function watchButton(inst: Instrument): HTMLElement {
  const on = () => watchlist().includes(inst.id);
  const text = () => (on() ? '★ 已自选' : '☆ 加自选');
  const b = h('button', { type: 'button', id: 'watch', 'aria-pressed': String(on()), title: '自选股（存于本浏览器）' }, text());
  b.addEventListener('click', () => {
    setWatched(inst.id, !on());
    b.textContent = text();
    b.setAttribute('aria-pressed', String(on()));
  });
  return b;
}
