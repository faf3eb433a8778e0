/**
 * Reporting periods and their announcement dates (CSRC deadlines: q1 by April 30, h1 by
 * August 31, q3 by October 31, annual by April 30 of the next year; a q1 report never before
 * the annual report, and the annual report before the dividend it pays is implemented).
 */
import type { Rng } from '../random.js';
import type { ReportType } from '../../store/schema-fundamentals.js';
import type { ActionIn } from './inputs.js';
import { addDays, dayIn, yearOf } from './util.js';

export const REPORT_TYPES: readonly ReportType[] = ['q1', 'h1', 'q3', 'annual'];
const ENDS = [331, 630, 930, 1231];

export interface Period {
  year: number;
  /** 1..4: the YTD period covers quarters 1..q. */
  q: number;
  type: ReportType;
  /** Period end, YYYYMMDD. */
  date: number;
  announce: number;
}

export const periodEnd = (year: number, q: number): number => year * 10000 + ENDS[q - 1];

/** Final dividends: ex-dates in January–August pay for the previous fiscal year (demo rule). */
export const fiscalYearOf = (a: ActionIn): number => yearOf(a.exDate) - 1;
export const isDistribution = (a: ActionIn): boolean => a.cash > 0 || a.bonus > 0 || a.transfer > 0;

/**
 * Every period from the first one to report (the first quarter end on or after both the listing
 * date and January 1 three years before the data starts) up to the last period end ≤ `end`,
 * with announcement dates; callers keep those announced by `end`.
 */
export function periods(r: Rng, listDate: number, dataStart: number, end: number, actions: ActionIn[]): Period[] {
  const from = Math.max(listDate, (yearOf(dataStart) - 3) * 10000 + 101);
  const implemented = new Map<number, number>();
  for (const a of actions) {
    if (!isDistribution(a)) continue;
    const y = fiscalYearOf(a);
    implemented.set(y, Math.min(implemented.get(y) ?? 99991231, a.announceDate));
  }
  const out: Period[] = [];
  let lastAnnual = 0;
  for (let y = yearOf(from); y <= yearOf(end); y++) {
    for (let q = 1; q <= 4; q++) {
      const date = periodEnd(y, q);
      if (date < from) continue;
      if (date > end) return out;
      let announce: number;
      if (q === 1) announce = Math.max(dayIn(r, y * 10000 + 416, y * 10000 + 430), lastAnnual);
      else if (q === 2) announce = dayIn(r, y * 10000 + 810, y * 10000 + 831);
      else if (q === 3) announce = dayIn(r, y * 10000 + 1016, y * 10000 + 1031);
      else {
        const impl = implemented.get(y);
        const latest = Math.min((y + 1) * 10000 + 429, impl === undefined ? 99991231 : addDays(impl, -21));
        announce = dayIn(r, Math.min((y + 1) * 10000 + 315, addDays(latest, -14)), latest);
        lastAnnual = announce;
      }
      out.push({ year: y, q, type: REPORT_TYPES[q - 1], date, announce });
    }
  }
  return out;
}
