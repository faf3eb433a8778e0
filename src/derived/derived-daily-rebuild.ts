/**
 * Daily bars derived from 1m bars (derived-daily.ts) as a derivation of registry.ts. Ingest
 * derives them as it writes 1m bars (DerivedDaily, not a pack merge: they are made from 1m rows,
 * and are bars themselves, packed like loaded ones); this is what a change of the derivation
 * (aggregateDaily, or how its bar is stored) needs: a version, the hash of the rows derived from
 * the 1m fixture (fixture.ts), in `meta` as `derived_daily`; a rebuild that derives every marked
 * day again from its stored 1m bars (through the session's upsert, so the packs and what is made
 * of them follow; an equal bar is left alone); and a check that every marked day's bar is what
 * its 1m bars derive.
 */
import type { BulkSession, UpsertTarget } from '../store/types.js';
import { dailyBarRows } from '../store/tables/bars.js';
import { markedDaysOf, markedInstruments } from '../store/tables/derived-daily-marks.js';
import { versionedInMeta } from './derivation.js';
import { CHUNK, chunks, derivedRow, storedMinutes } from './derived-daily.js';
import { MINUTE_FIXTURE } from './fixture.js';

const FIELDS = ['open', 'high', 'low', 'close', 'volume', 'amount'];
const DAILY: UpsertTarget = { table: 'bars_1d', columns: ['inst', 'date', ...FIELDS], key: ['inst', 'date'] };

/** The daily rows derived from the 1m fixture, one JSON a line: what versions the derivation. */
export function derivedDailyOutput(derive: typeof derivedRow = derivedRow): string {
  return MINUTE_FIXTURE.map((m) => JSON.stringify(derive(1, m[0].date, m, DAILY.columns))).join('\n');
}

/** The days marked derived, by instrument, at most CHUNK days at a time, in key order. */
async function* markedDays(s: BulkSession): AsyncGenerator<[number, number[]]> {
  for (const inst of await markedInstruments(s)) {
    for (const part of chunks(await markedDaysOf(s, inst), CHUNK)) yield [inst, part];
  }
}

/** Derives every marked day again from its stored 1m bars; returns the days derived. */
async function rebuildDerived(s: BulkSession): Promise<number> {
  let days = 0;
  for await (const [inst, part] of markedDays(s)) {
    const minutes = await storedMinutes(s, inst, part);
    const rows = part.filter((d) => minutes.has(d)).map((d) => derivedRow(inst, d, minutes.get(d)!, DAILY.columns));
    if (rows.length) await s.upsert(DAILY, rows);
    days += rows.length;
  }
  return days;
}

/**
 * Checks, in session `s`, that every marked day has 1m bars and the daily bar they derive;
 * reports each problem through `problem` and returns the days that are right.
 */
async function checkDerived(s: BulkSession, problem: (p: string) => void): Promise<number> {
  let right = 0;
  for await (const [inst, part] of markedDays(s)) {
    const minutes = await storedMinutes(s, inst, part);
    const stored = new Map(
      (await dailyBarRows(s, inst, part[0], part[part.length - 1])).map((r) => [Number(r[0]), r.slice(1).map(Number)]),
    );
    for (const d of part) {
      const m = minutes.get(d),
        row = stored.get(d);
      if (!m) problem(`bars_1d_derived ${inst}/${d}: no 1m bars`);
      else if (!row) problem(`bars_1d ${inst}/${d}: missing (marked derived)`);
      else if (derivedRow(inst, d, m, FIELDS).some((v, i) => v !== row[i])) problem(`bars_1d ${inst}/${d}: differs from its 1m bars`);
      else right++;
    }
  }
  return right;
}

export const DERIVED_DAILY = versionedInMeta({
  name: 'derived_daily',
  unit: 'days',
  output: () => derivedDailyOutput(),
  make: rebuildDerived,
  check: checkDerived,
});
