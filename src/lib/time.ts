/**
 * Dates are carried as integers `YYYYMMDD` (compact, ordered, identical on every store);
 * instants as epoch seconds (or milliseconds where stated). All three markets keep
 * Asia/Shanghai time, which has had no daylight saving since 1991, so the offset is fixed.
 */
export const MARKET_OFFSET_SECONDS = 8 * 3600;
export const MARKET_OFFSET = '+08:00';

/** 20240301 -> "2024-03-01" */
export function formatDate(d: number): string {
  const y = Math.floor(d / 10000);
  const m = Math.floor(d / 100) % 100;
  const day = d % 100;
  return `${y}-${m < 10 ? '0' : ''}${m}-${day < 10 ? '0' : ''}${day}`;
}

/** "2024-03-01" -> 20240301, or null when not a real calendar date. */
export function parseDate(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const y = +m[1],
    mo = +m[2],
    d = +m[3];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return y * 10000 + mo * 100 + d;
}

/** Whether yyyymmdd `d` is a real calendar date (isDate(20240230) -> false). */
export function isDate(d: number): boolean {
  if (!Number.isSafeInteger(d) || d < 10000101 || d > 99991231) return false;
  const y = Math.floor(d / 10000),
    m = Math.floor(d / 100) % 100,
    day = d % 100;
  return m >= 1 && m <= 12 && day >= 1 && day <= daysInMonth(y, m);
}

/** Days in month `m` of year `y`, proleptic Gregorian for every year 0..9999 (Date.UTC reads years 0..99 as 1900..1999). */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

export function dateParts(d: number): [number, number, number] {
  return [Math.floor(d / 10000), Math.floor(d / 100) % 100, d % 100];
}

/**
 * Days since 1970-01-01 of a date int: proleptic Gregorian arithmetic (days from civil, as in
 * Howard Hinnant's date algorithms), the same as Date.UTC without a Date on the hot path.
 */
export function dateToDays(d: number): number {
  // Division and floor, not %: dates read from packs are doubles, and % on doubles is fmod.
  const ym = Math.floor(d / 100),
    day = d - ym * 100,
    yy = Math.floor(ym / 100),
    m = ym - yy * 100;
  const y = yy - (m <= 2 ? 1 : 0);
  const era = Math.floor(y / 400),
    yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** The date int of a day count since 1970-01-01 (the inverse of dateToDays). */
export function daysToDate(days: number): number {
  const z = days + 719_468,
    era = Math.floor(z / 146_097),
    doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1,
    m = mp < 10 ? mp + 3 : mp - 9;
  return (yoe + era * 400 + (m <= 2 ? 1 : 0)) * 10000 + m * 100 + day;
}

export function addDays(d: number, n: number): number {
  return daysToDate(dateToDays(d) + n);
}

/** ISO weekday, 1 = Monday .. 7 = Sunday. */
export function weekday(d: number): number {
  const w = new Date(dateToDays(d) * 86_400_000).getUTCDay();
  return w === 0 ? 7 : w;
}

/** Epoch seconds of market-local wall time `minuteOfDay` (minutes after midnight) on date d. */
export function marketEpoch(d: number, minuteOfDay: number): number {
  return dateToDays(d) * 86_400 + minuteOfDay * 60 - MARKET_OFFSET_SECONDS;
}

/** Market-local date int of an epoch-seconds instant. */
export function epochToMarketDate(sec: number): number {
  return daysToDate(Math.floor((sec + MARKET_OFFSET_SECONDS) / 86_400));
}

const pad2 = (n: number) => (n < 10 ? '0' + n : '' + n);

/** Epoch seconds (fractional part ignored unless `ms` given) -> "2024-03-01T10:30:00+08:00". */
export function formatTimestamp(sec: number, ms?: number): string {
  const local = sec + MARKET_OFFSET_SECONDS;
  const days = Math.floor(local / 86_400);
  const rem = local - days * 86_400;
  const hh = Math.floor(rem / 3600),
    mi = Math.floor(rem / 60) % 60,
    ss = rem % 60;
  const frac = ms === undefined ? '' : '.' + String(ms).padStart(3, '0');
  return `${formatDate(daysToDate(days))}T${pad2(hh)}:${pad2(mi)}:${pad2(ss)}${frac}${MARKET_OFFSET}`;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2})?)?$/;

/** A real calendar date YYYY-MM-DD, as parseDate takes it (leap days in leap years only). */
const CALENDAR_DATE =
  '\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)' +
  '|(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29';
/**
 * What parseDateTime takes, as a regular expression (a JSON Schema `pattern`, ECMA-262): a bare
 * date, or a date and a time of day (seconds and up to 9 decimals optional) with an optional
 * offset (none: market time). The OpenAPI document declares `from` and `to` with it, as any
 * validator reads a pattern alike, where `format: date-time` would refuse a bare date or a time
 * without an offset (time.test.ts checks it accepts what parseDateTime accepts, and only that).
 */
export const DATE_TIME_PATTERN =
  `^(?:${CALENDAR_DATE})` + '(?:[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)?)?$';

/**
 * Parses a query date-time (RFC 3339; without an offset it is market time; a bare date is the
 * start of that day). Returns epoch milliseconds and whether only a date was given, or null.
 */
export function parseDateTime(s: string): { ms: number; dateOnly: boolean } | null {
  const m = DATE_TIME.exec(s);
  if (!m) return null;
  const d = parseDate(m[1]);
  if (d === null) return null;
  if (m[2] === undefined) return { ms: marketEpoch(d, 0) * 1000, dateOnly: true };
  const hh = +m[2],
    mi = +m[3],
    ss = m[4] ? +m[4] : 0;
  if (hh > 23 || mi > 59 || ss > 59) return null;
  const fracMs = m[5] ? Math.floor(Number('0.' + m[5]) * 1000) : 0;
  let offsetMin = 8 * 60;
  if (m[6] && m[6].toUpperCase() !== 'Z') {
    const sign = m[6][0] === '-' ? -1 : 1;
    const oh = +m[6].slice(1, 3),
      om = +m[6].slice(4, 6);
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  } else if (m[6]) offsetMin = 0;
  const ms = dateToDays(d) * 86_400_000 + ((hh * 60 + mi) * 60 + ss) * 1000 + fracMs - offsetMin * 60_000;
  return { ms, dateOnly: false };
}

const MIN_SEC = -62135596800; // 0001-01-01T00:00:00Z
const MAX_SEC = 253402300799; // 9999-12-31T23:59:59Z

/** An inclusive millisecond window as whole epoch seconds, clamped to years 1..9999. */
export function windowSeconds(w: { fromMs: number; toMs: number }): { from: number; to: number } {
  return { from: Math.max(MIN_SEC, Math.ceil(w.fromMs / 1000)), to: Math.min(MAX_SEC, Math.floor(w.toMs / 1000)) };
}
