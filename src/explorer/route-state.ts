/**
 * The view a URL hash names, parsed once by one function for both scripts of the page: the early
 * script (early.ts), which asks for the first chart's data while the main script loads, and the
 * main script (main.ts), which draws it. Both build the same request URLs from it, so the main
 * script finds the early answers by their URL (chart-data.ts barsUrl, instruments.ts searchUrl).
 */
import type { ChartState, Adjustment } from './chart-data.js';
import { DEFAULT_INDICATORS, indicatorById } from './indicators.js';
import type { Instrument } from './instruments.js';
import { INTERVALS, type Interval } from './time.js';

export interface Route {
  /** The path's parts, decoded: `['chart', '600519.SH']`, `['market', '2026-11-20']`, `[]`. */
  parts: string[];
  query: URLSearchParams;
}

/** The route of a hash (`#/chart/600519.SH?interval=1d`). */
export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#/, '').split('?');
  let parts: string[];
  try {
    parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    // A malformed escape (`%E4%`) names nothing: the start page.
    parts = [];
  }
  return { parts, query: new URLSearchParams(query) };
}

/** The chart state a hash's query names (unknown values fall back to the defaults: daily, MA on). */
export function chartState(q: URLSearchParams): ChartState {
  const interval = (INTERVALS as readonly string[]).includes(q.get('interval') ?? '') ? (q.get('interval') as Interval) : '1d';
  const adj = q.get('adjustment');
  const adjustment: Adjustment = adj === 'forward' || adj === 'backward' ? adj : 'none';
  const named = q.get('indicators');
  const indicators = named === null ? DEFAULT_INDICATORS : named.split(',').filter((i) => indicatorById(i));
  const date = /^\d{4}-\d\d-\d\d$/.test(q.get('date') ?? '') ? q.get('date')! : undefined;
  return { interval, adjustment, indicators, date, overlay: q.get('overlay') || undefined };
}

/**
 * The kind an A-share id most likely is, by the exchanges' code ranges (SSE 000xxx and SZSE
 * 399xxx, BSE 899xxx indices; SSE 5xxxxx and SZSE 1xxxxx funds; the rest equities). Only a guess,
 * for asking early: the search says the kind, and an answer asked for another kind is not used.
 */
export function likelyKind(id: string): Instrument['kind'] {
  const m = /^(\d{6})\.(SH|SZ|BJ)$/.exec(id);
  if (!m) return 'equity';
  const [code, market] = [m[1], m[2]];
  if (
    (market === 'SH' && code.startsWith('000')) ||
    (market === 'SZ' && code.startsWith('399')) ||
    (market === 'BJ' && code.startsWith('899'))
  )
    return 'index';
  if ((market === 'SH' && code.startsWith('5')) || (market === 'SZ' && code.startsWith('1'))) return 'fund';
  return 'equity';
}
