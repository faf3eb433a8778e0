/**
 * The chart's panes and series, made for one state and palette: candles over suspended-day
 * bands, limit lines (outside the autoscale: the candles use the pane), indicator overlays, an
 * overlaid instrument, volume in 手 with a 万/亿 axis, and a pane per other indicator.
 */
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  LineStyle,
  LineType,
  type IChartApi,
  type ISeriesApi,
  type Time,
} from 'lightweight-charts';
import { axisWanYi } from './format.js';
import { indicatorById, type IndicatorLook } from './indicators.js';
import type { Palette } from './theme.js';
import { chartTimeLabel, tickLabel } from './time.js';

export interface Series {
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  suspended: ISeriesApi<'Histogram'>;
  limitUp: ISeriesApi<'Line'>;
  limitDown: ISeriesApi<'Line'>;
  overlay: ISeriesApi<'Line'>;
  lines: { look: IndicatorLook; key: string; n: number; s: ISeriesApi<'Line'> | ISeriesApi<'Histogram'> }[];
  markers: ReturnType<typeof createSeriesMarkers<Time>>;
}

export const QUIET = { priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false } as const;

/** A chart in the palette's colours, market-time labels and Chinese dates (`ticks`: the time axis's marks). */
export function makeChart(box: HTMLElement, p: Palette, intraday: boolean, ticks = tickLabel): IChartApi {
  return createChart(box, {
    autoSize: true,
    layout: {
      background: { color: p.background },
      textColor: p.text,
      fontSize: 12,
      panes: { separatorColor: p.border },
      attributionLogo: false,
    },
    grid: { vertLines: { color: p.grid }, horzLines: { color: p.grid } },
    crosshair: { mode: CrosshairMode.Normal },
    rightPriceScale: { borderColor: p.border, scaleMargins: { top: 0.06, bottom: 0.04 } },
    timeScale: {
      borderColor: p.border,
      timeVisible: intraday,
      secondsVisible: false,
      rightOffset: 4,
      minBarSpacing: 0.5,
      tickMarkFormatter: ticks,
    },
    localization: { locale: 'zh-CN', timeFormatter: (t: Time) => chartTimeLabel(t, intraday) },
  });
}

/** The series of a candle chart with its indicators (`indicators`: ids, in the URL's order). */
export function candleSeries(chart: IChartApi, p: Palette, precision: number, indicators: string[]): Series {
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: p.up,
    downColor: p.down,
    borderUpColor: p.up,
    borderDownColor: p.down,
    wickUpColor: p.up,
    wickDownColor: p.down,
    priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
  });
  const suspended = chart.addSeries(HistogramSeries, { ...QUIET, priceScaleId: 'suspended', color: p.suspended }, 0);
  chart.priceScale('suspended', 0).applyOptions({ visible: false, scaleMargins: { top: 0, bottom: 0 } });
  const line = (color: string, dashed: boolean) =>
    chart.addSeries(
      LineSeries,
      {
        ...QUIET,
        color,
        lineWidth: 1,
        lineStyle: dashed ? LineStyle.Dashed : LineStyle.Solid,
        lineType: dashed ? LineType.WithSteps : LineType.Simple,
        // Out of the autoscale: the candles fill the pane; a limit beyond it is off-screen.
        autoscaleInfoProvider: dashed ? () => null : undefined,
        priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
      },
      0,
    );
  const limitUp = line(`${p.up}99`, true);
  const limitDown = line(`${p.down}99`, true);
  const overlay = line(p.overlay, false);
  const volume = chart.addSeries(
    HistogramSeries,
    { ...QUIET, priceFormat: { type: 'custom', formatter: (v: number) => axisWanYi(v / 100), minMove: 1 } },
    1,
  );
  const lines: Series['lines'] = [];
  let pane = 2;
  for (const id of indicators) {
    const look = indicatorById(id);
    if (!look) continue;
    const at = look.overlay ? 0 : pane++;
    look.keys.forEach((key, n) => {
      const s = look.histogram?.includes(key)
        ? chart.addSeries(HistogramSeries, { ...QUIET, priceFormat: { type: 'price', precision: 4, minMove: 0.0001 } }, at)
        : chart.addSeries(
            LineSeries,
            {
              ...QUIET,
              color: p.lines[n % p.lines.length],
              lineWidth: 1,
              priceFormat: { type: 'price', precision: look.overlay ? precision : 2, minMove: 0.0001 },
            },
            at,
          );
      lines.push({ look, key, n, s });
    });
  }
  const panes = chart.panes();
  panes[0]?.setStretchFactor(3);
  for (const pn of panes.slice(1)) pn.setStretchFactor(1);
  return { candles, volume, suspended, limitUp, limitDown, overlay, lines, markers: createSeriesMarkers(candles, []) };
}

/** Digits after the point of a decimal string (2 for `1447.01`), at most 4. */
export const decimals = (s: string): number => Math.min(4, (s.split('.')[1] ?? '').length);
