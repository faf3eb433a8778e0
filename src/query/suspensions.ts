/**
 * An equity's suspensions: the intervals loaded for it (dataset `suspensions`), or, where none
 * was loaded, the runs of trading days without a daily bar between its first and last bars,
 * marked `derived`. An equity whose bars stop before the data's last day may simply have no
 * more data: a suspension in progress is known from an announcement (a loaded interval without
 * an end, which keeps the equity suspended to the latest day in its price limits and the market
 * days: market/day-limits.ts suspendedToEnd), or once it trades again.
 */
import type { TradingCalendar } from '../market/calendar.js';
import type { InstrumentRow } from '../store/catalog.js';
import type { SuspensionTable } from '../store/schema-fundamentals.js';
import type { KeysetReader } from '../store/readers/keyset.js';
import type { EquityDayReader } from '../store/readers/equity-days.js';
import { compiled } from '../datasets/registry.js';
import { suspensions } from '../datasets/suspensions.js';
import type { Calendars } from './calendars.js';

const SUSPENSIONS = compiled(suspensions);
/** More intervals than any equity has had (000001.SZ: 109 runs in 20 years of bars). */
const MAX_ROWS = 100_000;

export type SuspensionSource = 'exchange' | 'derived';

export interface Suspension {
  start_date: number;
  end_date: number | null;
  resume_date: number | null;
  halt_from: string | null;
  halt_to: string | null;
  reason: string | null;
  announce_date: number | null;
  source: SuspensionSource;
}

/** The runs of trading days of `cal` between the first and last of `bars` (ascending dates) without a bar. */
export function derivedSuspensions(cal: TradingCalendar, bars: readonly number[]): Suspension[] {
  const out: Suspension[] = [];
  if (bars.length === 0) return out;
  const has = new Set(bars);
  let open: number | null = null,
    prev: number | null = null;
  for (const d of cal.between(bars[0], bars[bars.length - 1])) {
    if (has.has(d)) {
      if (open !== null) out.push(run(open, prev!, d));
      open = null;
    } else if (open === null) open = d;
    prev = d;
  }
  return out;
}

const run = (start: number, end: number | null, resume: number | null): Suspension => ({
  start_date: start,
  end_date: end,
  resume_date: resume,
  halt_from: null,
  halt_to: null,
  reason: null,
  announce_date: null,
  source: 'derived',
});

/** The loaded rows as suspensions. */
export const loadedSuspensions = (rows: readonly Omit<SuspensionTable, 'inst'>[]): Suspension[] =>
  rows.map((r) => ({ ...r, source: 'exchange' }));

/** Whether `s` is in force on `date`, or overlaps from..to. */
export const inForce = (s: Suspension, date: number) => s.start_date <= date && (s.end_date === null || date <= s.end_date);
export const overlaps = (s: Suspension, from: number, to: number) => s.start_date <= to && (s.end_date === null || s.end_date >= from);

/** The suspensions of equities, from one read snapshot. */
export class Suspensions {
  constructor(
    private readonly keyset: KeysetReader,
    private readonly days: EquityDayReader,
    private readonly calendars: Calendars,
  ) {}

  /** The equity's intervals by start date: loaded ones, else derived from its bars. */
  async of(inst: Pick<InstrumentRow, 'inst' | 'market'>): Promise<Suspension[]> {
    const loaded = await this.keyset.rows(SUSPENSIONS, inst.inst, null, { after: null, limit: MAX_ROWS });
    if (loaded.length) return loadedSuspensions(loaded);
    const [cal, bars] = await Promise.all([this.calendars.of(inst.market), this.days.barDates(inst.inst)]);
    return derivedSuspensions(cal, bars);
  }
}
