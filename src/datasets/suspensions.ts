/**
 * Suspensions (停牌) of equities as an exchange announces them: intervals of whole trading days
 * (no trading, no bar), or an intraday halt of part of one day (a window in market time, the
 * day's bar still there). Where an equity has none loaded, the API derives its intervals from
 * its bars and the calendar (docs/fundamentals.md, "Suspensions").
 */
import { date, instrument, pattern, text } from './columns.js';
import { all, col, declare, orderCheck, type Problem, type Row } from './dataset.js';
import type { RowContext } from './context.js';

/** HH:MM within the trading sessions (09:30–11:30, 13:00–15:00). */
const SESSION_TIME = /^(09:(3\d|[45]\d)|10:[0-5]\d|11:([0-2]\d|30)|1[34]:[0-5]\d|15:00)$/;
const time = pattern(SESSION_TIME, 'a time HH:MM within the trading sessions (09:30–11:30, 13:00–15:00)');

export const suspensions = declare({
  name: 'suspensions',
  table: 'suspensions',
  doc: 'Suspension intervals of equities (停牌), whole days or an intraday halt, as announced.',
  record: { id: 'Suspension', description: 'A suspension of trading in one equity: whole trading days, or part of one day.' },
  columns: [
    col('instrument_id', instrument(['equity']), 'The equity (CODE.MARKET).', { column: 'inst' }),
    col('start_date', date, 'First trading day of the suspension (of the halt, for an intraday one).'),
    col('end_date', date, 'Last suspended trading day; null while still suspended.', { optional: true }),
    col('resume_date', date, 'Trading day trading resumed (复牌日); null while suspended or not yet known.', { optional: true }),
    col('halt_from', time, 'An intraday halt’s start, HH:MM market time; null for whole days.', { optional: true }),
    col('halt_to', time, 'An intraday halt’s end (trading resumes then), HH:MM market time; null for whole days.', {
      optional: true,
    }),
    col('reason', text(), 'The reason as announced (停牌原因), e.g. 重大事项, 重大资产重组, 股东大会; null when not given.', {
      optional: true,
    }),
    col('announce_date', date, 'Date the suspension was announced; null when not known.', { optional: true }),
  ],
  key: ['instrument_id', 'start_date'],
  // Read by the market-wide days: days suspended.
  feeds: ['market'],
  check: (ix) =>
    all(
      orderCheck(ix, 'start_date', 'end_date'),
      (r: Row): Problem | null => {
        const end = r[ix.end_date] as number | null,
          resume = r[ix.resume_date] as number | null;
        if (resume !== null && resume <= (end ?? (r[ix.start_date] as number)))
          return ['resume_date', 'expected resume_date after end_date (or start_date)'];
        const from = r[ix.halt_from] as string | null,
          to = r[ix.halt_to] as string | null;
        if ((from === null) !== (to === null)) return ['halt_to', 'expected halt_from and halt_to together (an intraday halt) or neither'];
        if (from !== null && (to as string) <= from) return ['halt_to', 'expected halt_to after halt_from'];
        if (from !== null && end !== r[ix.start_date]) return ['end_date', 'expected end_date = start_date for an intraday halt'];
        return null;
      },
      (r: Row, ctx: RowContext): Problem | null =>
        ctx.isTradingDay(ctx.marketOf(r[ix.instrument_id] as number), r[ix.start_date] as number)
          ? null
          : ['start_date', "expected a trading day (in the store or in this command's trading_days)"],
    ),
});
