import type { TickMarkType, Time, UTCTimestamp } from 'lightweight-charts';

/** The bar intervals of the API, and which of them are within one day. */
export const INTERVALS = ['1m', '5m', '15m', '30m', '60m', '1d', '1w', '1mo', '1q', '1y'] as const;
export type Interval = (typeof INTERVALS)[number];
export const isIntraday = (i: Interval): boolean => i.endsWith('m') && i !== '1mo';

/** What a bar of the API carries of its time. */
export interface Timed {
  timestamp: string;
  trade_date: string;
}

/**
 * A bar's place on the chart. The chart library has no time zones (it shows UTC), so a bar is
 * placed by its market-time wall clock read as UTC: daily and longer bars by their trade date,
 * intraday bars by their end in +08:00 (`2026-11-20T09:35:00+08:00` is drawn at 09:35).
 */
export function chartTime(bar: Timed, interval: Interval): Time {
  if (!isIntraday(interval)) return bar.trade_date;
  return wallSeconds(bar.timestamp);
}

/** The wall-clock seconds of an RFC 3339 time in market time, read as if UTC. */
export function wallSeconds(timestamp: string): UTCTimestamp {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?/.exec(timestamp);
  if (!m) throw new Error(`not a timestamp: ${timestamp}`);
  const [, y, mo, d, hh, mi, ss] = m;
  return (Date.UTC(+y, +mo - 1, +d, +hh, +mi, +(ss ?? 0)) / 1000) as UTCTimestamp;
}

/** A bar's time as the legend says it, in market time: `2026-11-20` or `2026-11-20 09:35`. */
export function label(bar: Timed, interval: Interval): string {
  return isIntraday(interval) ? `${bar.timestamp.slice(0, 10)} ${bar.timestamp.slice(11, 16)}` : bar.trade_date;
}

/** The chart's own time value as a key (a business-day string or seconds). */
export const timeKey = (t: Time): string => (typeof t === 'object' ? `${t.year}-${t.month}-${t.day}` : String(t));

const pad = (n: number) => String(n).padStart(2, '0');

/** The crosshair's time label, in market time: `2026-11-20` or `2026-11-20 14:39`. */
export function chartTimeLabel(t: Time, intraday: boolean): string {
  if (typeof t === 'string') return t;
  if (typeof t === 'object') return `${t.year}-${pad(t.month)}-${pad(t.day)}`;
  const d = new Date(t * 1000);
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return intraday ? `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : day;
}

/**
 * 分时's time axis: as tickLabel, but the afternoon's first minute (the bar ending 13:01) marked
 * `13:00`, the session's opening, as Tongdaxin marks it.
 */
export const minuteTickLabel = (t: Time, type: TickMarkType): string => {
  const s = tickLabel(t, type);
  return s === '13:01' ? '13:00' : s;
};

/** The time axis's marks in Chinese: years `2026年`, months `11月`, days `20日`, times `14:30`. */
export function tickLabel(t: Time, type: TickMarkType): string {
  const s = chartTimeLabel(t, true);
  const [y, m, d] = s.slice(0, 10).split('-');
  // TickMarkType's values (a const enum of the library's types): Year 0, Month 1, DayOfMonth 2.
  if (type === 0) return `${y}年`;
  if (type === 1) return `${+m}月`;
  if (type === 2) return `${+m}/${+d}`;
  return s.slice(11, 16);
}
