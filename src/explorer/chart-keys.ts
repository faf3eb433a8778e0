/**
 * The keyboard on a chart, as in Tongdaxin: ← → move the crosshair bar by bar (scrolling the
 * view along), ↑ ↓ zoom in and out around it, Home and End go to the first loaded and the latest
 * bar. The legend follows (`show`).
 */
import type { IChartApi, ISeriesApi, LogicalRange, SeriesType, Time } from 'lightweight-charts';
import type { ChartPosition } from './chart-data.js';

export interface KeyTarget {
  chart: IChartApi;
  series: ISeriesApi<SeriesType>;
  /** The bars' chart times and the prices the crosshair sits at. */
  times: () => Time[];
  price: (i: number) => number;
  /** The bar the legend shows now (the latest when none). */
  current: () => number;
  show: (i: number) => void;
  /** Asked when ← goes past the first loaded bar. */
  older?: () => void;
}

export function chartKey(e: KeyboardEvent, t: KeyTarget): boolean {
  const n = t.times().length;
  if (!n) return false;
  const ts = t.chart.timeScale();
  const go = (i: number) => {
    const at = Math.max(0, Math.min(n - 1, i));
    const range = ts.getVisibleLogicalRange();
    if (range && (at < range.from || at > range.to)) {
      const width = range.to - range.from;
      const from = at < range.from ? at - 2 : at - width + 6;
      ts.setVisibleLogicalRange({ from, to: from + width });
    }
    t.chart.setCrosshairPosition(t.price(at), t.times()[at], t.series);
    t.show(at);
  };
  const zoom = (factor: number) => {
    const range = ts.getVisibleLogicalRange();
    if (!range) return;
    const at = t.current();
    const width = Math.max(10, Math.min(n + 20, (range.to - range.from) * factor));
    // Keep the bar under the crosshair where it is on the screen.
    const share = (at - range.from) / (range.to - range.from);
    const from = at - width * Math.max(0, Math.min(1, share));
    ts.setVisibleLogicalRange({ from, to: from + width });
  };
  switch (e.key) {
    case 'ArrowLeft':
      if (t.current() === 0) t.older?.();
      go(t.current() - 1);
      return true;
    case 'ArrowRight':
      go(t.current() + 1);
      return true;
    case 'ArrowUp':
      zoom(0.7);
      return true;
    case 'ArrowDown':
      zoom(1 / 0.7);
      return true;
    case 'Home':
      go(0);
      return true;
    case 'End':
      go(n - 1);
      ts.scrollToRealTime();
      return true;
    default:
      return false;
  }
}

/** Where `chart`'s view of `n` bars is, counted from the latest (kept over a reload), or null before it has one. */
export function positionOf(chart: IChartApi | null, n: number): ChartPosition | null {
  const r = chart?.timeScale().getVisibleLogicalRange();
  return r ? { end: n - 1 - r.to, span: r.to - r.from } : null;
}

/** The view of `n` bars at `p`: the same span, as far from the latest bar. */
export function rangeAt(p: ChartPosition | undefined, n: number): LogicalRange | null {
  return p ? ({ from: n - 1 - p.end - p.span, to: n - 1 - p.end } as LogicalRange) : null;
}
