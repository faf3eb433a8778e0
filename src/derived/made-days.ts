/**
 * The days of the markets made in one transaction (market-days.ts `makeDays`), kept for a later
 * step of the same transaction that asks about them: ingest's price-limit check
 * (ingest/limit-check.ts) takes the loaded bars outside their limits from the days as the sweep
 * made them, instead of reading back and inflating every stored day of the load's span (a whole
 * market: 4,000 days, a tenth of the load's time). Only what that needs is kept: which days were
 * made, and each made day's equity records with a bar outside their limits (a few thousand over
 * a whole market), so memory does not grow with the days.
 */
import type { BulkSession } from '../store/types.js';
import type { DayRecord } from '../store/day-records.js';
import type { MadeDay } from './market-sweep.js';

/** An equity's record with a bar outside its day's limits (high above the up limit, low below the down limit). */
export const outsideLimits = (r: DayRecord, equity: boolean, bar: boolean): boolean =>
  equity && bar && r.up !== null && !(r.high <= r.up && r.low >= (r.down ?? -1));

/** The days made in a transaction, as stored: a later make from a date forgets what it made from then on first. */
export class MadeDays {
  /** Per market, the dates made. */
  private readonly dates = new Map<string, Set<number>>();
  /** Per market and date, the records outside their limits. */
  private readonly outside = new Map<string, Map<number, DayRecord[]>>();

  /** The days of `market` from `date` on are about to be deleted and made again. */
  from(market: string, date: number): void {
    for (const d of this.dates.get(market) ?? []) if (d >= date) this.dates.get(market)!.delete(d);
    for (const d of this.outside.get(market)?.keys() ?? []) if (d >= date) this.outside.get(market)!.delete(d);
  }

  /** A day made (and written); `isOutside` tells a record outside its limits. */
  add(day: MadeDay, isOutside: (r: DayRecord) => boolean): void {
    (this.dates.get(day.market) ?? this.dates.set(day.market, new Set()).get(day.market)!).add(day.date);
    const out = day.records.filter(isOutside);
    const m = this.outside.get(day.market) ?? this.outside.set(day.market, new Map()).get(day.market)!;
    if (out.length) m.set(day.date, out);
    else m.delete(day.date);
  }

  /** Whether the day of `market` on `date` was made in the transaction (and is stored as made). */
  has(market: string, date: number): boolean {
    return this.dates.get(market)?.has(date) ?? false;
  }

  /** The records outside their limits of the made days with from <= date <= to: `[date, record]`. */
  *outsideBetween(from: number, to: number): Generator<[number, DayRecord]> {
    for (const byDate of this.outside.values())
      for (const [date, recs] of byDate) if (date >= from && date <= to) for (const r of recs) yield [date, r];
  }
}

const tracked = new WeakMap<BulkSession, MadeDays>();

/** Keeps the days made through any of `sessions` (one transaction's, wrapped and not) in one MadeDays. */
export function trackMadeDays(...sessions: BulkSession[]): MadeDays {
  const made = new MadeDays();
  for (const s of sessions) tracked.set(s, made);
  return made;
}

/** The days made in the transaction of session `s`, when tracked. */
export const madeDaysOf = (s: BulkSession): MadeDays | undefined => tracked.get(s);
