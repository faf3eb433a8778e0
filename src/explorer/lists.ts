/**
 * The current list of instruments, which PageUp and PageDown walk: the last one the user came
 * from (search results, a pool of the market day, the watchlist). Kept for the browser tab.
 */
const LIST_KEY = 'mds.explorer.list';

export interface InstrumentList {
  /** What the list is, as the page says it (`自选`, `涨停股池 2026-11-20`, `搜索 gzmt`). */
  name: string;
  ids: string[];
}

export function setList(list: InstrumentList): void {
  sessionStorage.setItem(LIST_KEY, JSON.stringify(list));
}

export function currentList(): InstrumentList | null {
  try {
    const l = JSON.parse(sessionStorage.getItem(LIST_KEY) ?? 'null');
    return l && Array.isArray(l.ids) ? (l as InstrumentList) : null;
  } catch {
    return null;
  }
}

/** The instrument `step` places from `id` in the current list (wrapping round), or null. */
export function neighbour(id: string, step: number): string | null {
  const l = currentList();
  if (!l || !l.ids.length) return null;
  const i = l.ids.indexOf(id);
  const n = l.ids.length;
  return l.ids[((((i < 0 ? (step > 0 ? -1 : 0) : i) + step) % n) + n) % n];
}
