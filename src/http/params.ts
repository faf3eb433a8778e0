import { Type } from '@sinclair/typebox';
import { ADJUSTMENT_IDS, BOARD_IDS, MARKET_IDS } from '../market/types.js';
import { INTERVAL_IDS } from '../market/intervals.js';
import { ApiError, invalid, type ApiErrorItem } from '../lib/errors.js';
import { DATE_TIME_PATTERN, formatDate, parseDate, parseDateTime } from '../lib/time.js';

/** Query parameter schemas, reused with the same meaning on every endpoint (spec §4). */
export const MAX_PAGE_SIZE = 1000;
/** Most records a newest-first walk reads of its window (collection.ts, sendPage): narrow from/to past it. */
export const MAX_DESC_RECORDS = 100_000;

/** Order of a time series' pages (docs/api.md, "Newest first"). */
export const orderParam = {
  order: Type.Optional(
    Type.Unsafe<'asc' | 'desc'>({
      type: 'string',
      enum: ['asc', 'desc'],
      default: 'asc',
      description: `asc (default): oldest first; desc: newest first, the same pages walked from the end (\`order=desc&page[size]=60\`: the last 60). A desc walk reads its window: at most ${MAX_DESC_RECORDS.toLocaleString('en-US')} records (narrow from/to past that).`,
    }),
  ),
};

export const pageParams = {
  'page[size]': Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: 100,
      description: `Rows per page, 1..${MAX_PAGE_SIZE} (default 100).`,
    }),
  ),
  'page[after]': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'Cursor from meta.next_cursor of the previous page.',
    }),
  ),
};

const DIGITS = /^[0-9]+$/;

/**
 * `page[size]` is validated as an integer, but the validator's coercion would read `Infinity`,
 * `1e3`, `0x10`, `+5`, ` 100` or `1.0` as numbers; called before validation, this wraps any
 * value that is not decimal digits in an array, which the validator refuses as not an integer
 * (reported with the request's other problems). Digits pass on to the 1..1000 bounds; a run of
 * them too long for a finite number (which the validator would not bound) is cut to ten
 * digits after its leading zeros, still above the bound.
 */
export function guardPageSize(query: Record<string, unknown>): void {
  const size = query['page[size]'];
  if (typeof size !== 'string') return;
  if (!DIGITS.test(size)) query['page[size]'] = [size];
  else if (size.length > 10) query['page[size]'] = size.replace(/^0+(?=[0-9])/, '').slice(0, 10);
}

/** C0 control characters (U+0000..U+001F): no id, code, date, name, enum value or cursor holds one. */
const CONTROL = /[\u0000-\u001f]/;

/**
 * The path and query values holding a control character (a NUL among them, which PostgreSQL
 * cannot even compare), each as `400 invalid_parameter` naming its parameter: refused before
 * any store is read, so both stores answer alike.
 */
export function controlCharacters(values: { params: unknown; query: unknown }): ApiErrorItem[] {
  const out: ApiErrorItem[] = [];
  for (const source of [values.params, values.query]) {
    for (const [name, v] of Object.entries((source ?? {}) as Record<string, unknown>)) {
      if ((Array.isArray(v) ? v : [v]).some((x) => typeof x === 'string' && CONTROL.test(x))) {
        out.push(invalid(name, `${name} must not hold a control character (U+0000..U+001F)`));
      }
    }
  }
  return out;
}

export const enumOf = (values: readonly string[], description: string, dflt?: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], ...(dflt === undefined ? {} : { default: dflt }), description });

export const marketQuery = enumOf(MARKET_IDS, 'Market: SH (Shanghai), SZ (Shenzhen), BJ (Beijing).');
export const boardQuery = enumOf(BOARD_IDS, 'Board: main, chinext, star, bse.');
export const intervalQuery = enumOf(INTERVAL_IDS, 'Bar interval.');
/** With a `default`: written out or not, it is the same query (a cursor binds alike, collection.ts fingerprint). */
export const adjustmentQuery = enumOf(ADJUSTMENT_IDS, 'Price adjustment: none (default), forward, backward.', 'none');

/** Longest value of a date and of a date-time (RFC 3339 with nanoseconds and an offset). */
export const MAX_DATE = 10,
  MAX_DATE_TIME = 35;
export const dateQuery = (description: string) => Type.String({ format: 'date', maxLength: MAX_DATE, description });
/**
 * A date or a date-time: `pattern` rather than `format: date-time`, which validators other than
 * ours (a validating proxy, a generated client) read as RFC 3339 with an offset, refusing the
 * bare dates and market-time date-times this accepts (DATE_TIME_PATTERN is what parseDateTime takes).
 */
export const dateTimeQuery = (description: string) =>
  Type.String({
    pattern: DATE_TIME_PATTERN,
    maxLength: MAX_DATE_TIME,
    description: `${description} RFC 3339; without an offset it is market time (UTC+8); a bare date is the start of that day for \`from\` and the whole day for \`to\`.`,
  });

export const dateWindowParams = {
  from: Type.Optional(dateQuery('First date, inclusive.')),
  to: Type.Optional(dateQuery('Last date, inclusive.')),
};
/** from/to, or one `date` (dayOrWindow). */
export const dayWindowParams = {
  ...dateWindowParams,
  date: Type.Optional(dateQuery('One trading day. Not with from/to.')),
};
export const timeWindowParams = {
  from: Type.Optional(dateTimeQuery('Start, inclusive.')),
  to: Type.Optional(dateTimeQuery('End, inclusive.')),
  date: Type.Optional(dateQuery('One trading day (market time). Not with from/to.')),
};

/** Inclusive window in epoch milliseconds. */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

const DAY_MS = 86_400_000;

/** `date` sent with `from` or `to`. */
export const conflictingDate = (): ApiErrorItem => ({
  code: 'conflicting_parameters',
  parameter: 'date',
  detail: 'date selects one trading day and cannot be combined with from or to',
});
const fromAfterTo = () => invalid('from', 'from must not be after to');
/** Last instant of a `to`: a bare date covers that whole day. */
const endOf = (p: { ms: number; dateOnly: boolean }) => (p.dateOnly ? p.ms + DAY_MS - 1 : p.ms);

/**
 * The problems between from, to and date, for a request whose parameters failed validation
 * (`reported`), so that all its problems are answered together: `date` with `from`/`to`
 * (parameters of the operation, valid or not), `from` after `to` (both valid).
 */
export function windowProblems(q: Record<string, unknown>, reported: ApiErrorItem[]): ApiErrorItem[] {
  const unknown = new Set(reported.filter((i) => i.code === 'unknown_parameter').map((i) => i.parameter));
  const bad = new Set(reported.map((i) => i.parameter));
  const sent = (k: string) => typeof q[k] === 'string' && !unknown.has(k);
  if (sent('date') && (sent('from') || sent('to'))) return [conflictingDate()];
  if (!sent('from') || !sent('to') || bad.has('from') || bad.has('to')) return [];
  const f = parseDateTime(q.from as string),
    t = parseDateTime(q.to as string);
  return f && t && f.ms > endOf(t) ? [fromAfterTo()] : [];
}

/**
 * Resolves from/to/date into one inclusive instant window. A bare-date `to` covers that whole
 * day (as users of date-based APIs expect); `date` may not be combined with `from`/`to`.
 */
export function timeWindow(q: { from?: string; to?: string; date?: string }): TimeWindow {
  const errors: ApiErrorItem[] = [];
  if (q.date !== undefined && (q.from !== undefined || q.to !== undefined)) throw new ApiError(conflictingDate());
  let fromMs = -8.64e15,
    toMs = 8.64e15;
  if (q.date !== undefined) {
    const p = parseDateTime(q.date)!;
    return { fromMs: p.ms, toMs: p.ms + DAY_MS - 1 };
  }
  if (q.from !== undefined) {
    const p = parseDateTime(q.from);
    if (!p) errors.push(invalid('from', 'from must be an RFC 3339 date-time or a date (YYYY-MM-DD)'));
    else fromMs = p.ms;
  }
  if (q.to !== undefined) {
    const p = parseDateTime(q.to);
    if (!p) errors.push(invalid('to', 'to must be an RFC 3339 date-time or a date (YYYY-MM-DD)'));
    else toMs = endOf(p);
  }
  if (!errors.length && fromMs > toMs) errors.push(fromAfterTo());
  if (errors.length) throw new ApiError(errors);
  return { fromMs, toMs };
}

/** Resolves date-only from/to into inclusive YYYYMMDD integers. */
/** The dates of a query with from/to or one `date` (not with them: 400 conflicting_parameters); `day`: `date` was given. */
export function dayOrWindow(q: { from?: string; to?: string; date?: string }): { from: number; to: number; day: boolean } {
  if (q.date !== undefined && (q.from !== undefined || q.to !== undefined)) throw new ApiError(conflictingDate());
  return { ...dateWindow(q.date !== undefined ? { from: q.date, to: q.date } : q), day: q.date !== undefined };
}

export function dateWindow(q: { from?: string; to?: string }): { from: number; to: number } {
  const from = q.from !== undefined ? parseDate(q.from) : 0;
  const to = q.to !== undefined ? parseDate(q.to) : 99991231;
  const errors: ApiErrorItem[] = [];
  if (from === null) errors.push(invalid('from', 'from must be a date (YYYY-MM-DD)'));
  if (to === null) errors.push(invalid('to', 'to must be a date (YYYY-MM-DD)'));
  if (!errors.length && from! > to!) errors.push(invalid('from', `from (${formatDate(from!)}) must not be after to (${formatDate(to!)})`));
  if (errors.length) throw new ApiError(errors);
  return { from: from!, to: to! };
}
