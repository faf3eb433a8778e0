/**
 * The page's keyboard, Tongdaxin's (outside any input field): any digit or letter opens the
 * search with it typed (键盘精灵), PageUp/PageDown the previous and next instrument of the
 * current list, F5 toggles K线 and 分时, F10 the fundamentals, Esc goes back; the view answers
 * the rest itself (the chart's arrows, Home and End).
 */
import { neighbour } from './lists.js';
import type { View } from './view.js';

export type Mode = 'chart' | 'minute' | 'fundamentals' | 'other';

export interface KeyContext {
  view: () => View;
  /** The instrument of the view, if any, and which view of it. */
  instrument: () => string | null;
  mode: () => Mode;
  openSearch: (text: string) => void;
  /** The hash of the instrument's view of this mode (the chart keeps its interval and indicators). */
  hashOf: (mode: Mode, id: string) => string;
}

const editable = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName));

export function installKeyboard(ctx: KeyContext): void {
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || editable(e.target) || document.querySelector('dialog[open]')) return;
    if (handle(e, ctx)) e.preventDefault();
  });
}

function handle(e: KeyboardEvent, ctx: KeyContext): boolean {
  const id = ctx.instrument();
  const mode = ctx.mode();
  if (/^[0-9a-zA-Z]$/.test(e.key)) {
    ctx.openSearch(e.key);
    return true;
  }
  switch (e.key) {
    case 'F5':
      if (!id) return false;
      location.hash = ctx.hashOf(mode === 'minute' ? 'chart' : 'minute', id);
      return true;
    case 'F10':
      if (!id) return false;
      location.hash = ctx.hashOf(mode === 'fundamentals' ? 'chart' : 'fundamentals', id);
      return true;
    case 'Escape':
      history.back();
      return true;
    case 'PageUp':
    case 'PageDown': {
      const next = id ? neighbour(id, e.key === 'PageDown' ? 1 : -1) : null;
      if (!next) return false;
      location.hash = ctx.hashOf(mode === 'other' ? 'chart' : mode, next);
      return true;
    }
    default:
      return ctx.view().onKey?.(e) ?? false;
  }
}
