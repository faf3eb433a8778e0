/**
 * Light and dark: dark by default where the system asks for it (`prefers-color-scheme: dark`,
 * Tongdaxin's black), else light; the toggle's choice is kept in this browser. The page's
 * colours are CSS variables under `html[data-theme]`; the charts read theirs from `palette()`.
 */
const THEME_KEY = 'mds.explorer.theme';
const COLOURS_KEY = 'mds.explorer.redUp';
export type Theme = 'light' | 'dark';

const media = () => window.matchMedia('(prefers-color-scheme: dark)');

/** The theme in force: the one chosen here, else the system's. */
export function theme(): Theme {
  const kept = localStorage.getItem(THEME_KEY);
  if (kept === 'light' || kept === 'dark') return kept;
  return media().matches ? 'dark' : 'light';
}

const listeners = new Set<() => void>();
/** Calls `f` whenever the theme or the up/down colours change; returns its removal. */
export function onThemeChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

function changed(): void {
  document.documentElement.dataset.theme = theme();
  for (const f of listeners) f();
}

/** Sets the page's theme and follows the system's until one is chosen. */
export function applyTheme(): void {
  document.documentElement.dataset.theme = theme();
  media().addEventListener('change', () => {
    if (!localStorage.getItem(THEME_KEY)) changed();
  });
}

export function toggleTheme(): void {
  localStorage.setItem(THEME_KEY, theme() === 'dark' ? 'light' : 'dark');
  changed();
}

/** Up red, down green (the A-share convention), or the other way round. */
export const redUp = (): boolean => localStorage.getItem(COLOURS_KEY) !== '0';
export function toggleRedUp(): void {
  localStorage.setItem(COLOURS_KEY, redUp() ? '0' : '1');
  changed();
}

export interface Palette {
  background: string;
  text: string;
  grid: string;
  border: string;
  up: string;
  down: string;
  /** The 分时 price line, its average line, the zero (previous close) line. */
  price: string;
  average: string;
  zero: string;
  overlay: string;
  marker: string;
  suspended: string;
  /** Indicator lines by a key's place (Tongdaxin's white/yellow/magenta/green… on black). */
  lines: string[];
}

const LIGHT = {
  background: '#ffffff',
  text: '#333333',
  grid: '#f0f0f0',
  border: '#d9d9d9',
  price: '#1f4fa8',
  average: '#e39d00',
  zero: '#8a8f99',
  overlay: '#7a4fc4',
  marker: '#7a4fc4',
  suspended: 'rgba(130,130,130,0.18)',
  lines: ['#e39d00', '#1f6fd1', '#c2369a', '#2e9c55', '#7a4fc4'],
};
const DARK = {
  background: '#000000',
  text: '#c8c8c8',
  grid: '#1c1c1c',
  border: '#7a1f1f',
  price: '#e8e8e8',
  average: '#f2d20c',
  zero: '#8a8a8a',
  overlay: '#4fa3ff',
  marker: '#d67cff',
  suspended: 'rgba(160,160,160,0.16)',
  lines: ['#e8e8e8', '#f2d20c', '#ff5cf0', '#28d94e', '#4fa3ff'],
};

export function palette(): Palette {
  const base = theme() === 'dark' ? DARK : LIGHT;
  const red = theme() === 'dark' ? '#ff3c3c' : '#e03c3c';
  const green = theme() === 'dark' ? '#00e0e0' : '#15a05a';
  return redUp() ? { ...base, up: red, down: green } : { ...base, up: green, down: red };
}
