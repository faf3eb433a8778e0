/**
 * Statements on the stored bars, `bars_1d` and `bars_1m`, outside the request path (whose reads
 * are store/readers/market-data.ts): what ingest's checks, the daily bars derived from 1m bars,
 * the bar packs' check and the demo read of them. Bars are written by `BulkSession.upsert` only.
 */
import type { BulkSession, Store } from '../types.js';

/** Whether the store holds a bar, daily or 1m (a load into one that holds none is its first: BulkOptions.firstLoad). */
export async function holdsBars(store: Pick<Store, 'selectRows'>): Promise<boolean> {
  const [[held]] = await store.selectRows('select exists (select 1 from bars_1d) or exists (select 1 from bars_1m)', []);
  return Number(held) > 0;
}

/** A daily bar's columns after its date. */
const DAILY = 'date, open, high, low, close, volume, amount';
const DAILY_BETWEEN = `select ${DAILY} from bars_1d where inst = ? and date >= ? and date <= ?`;

/** The stored daily bars of `inst` with lo <= date <= hi, as rows `[date, open, high, low, close, volume, amount]` in no order. */
export function dailyBarRows(s: BulkSession, inst: number, lo: number, hi: number): Promise<unknown[][]> {
  return s.queryRows(DAILY_BETWEEN, [inst, lo, hi]);
}

/** The stored daily bars of `inst` with lo <= date <= hi, by date (values as stored: numbers, or numeric text on PostgreSQL). */
export function dailyBars(s: BulkSession, inst: number, lo: number, hi: number): Promise<Record<string, unknown>[]> {
  return s.query(`${DAILY_BETWEEN} order by date`, [inst, lo, hi]);
}

/** The last stored daily bar of `inst` before `date`, if any (as `dailyBars`). */
export async function dailyBarBefore(s: BulkSession, inst: number, date: number): Promise<Record<string, unknown> | undefined> {
  const [bar] = await s.query<Record<string, unknown>>(
    `select ${DAILY} from bars_1d where inst = ? and date < ? order by date desc limit 1`,
    [inst, date],
  );
  return bar;
}

/** The dates of the stored daily bars of `inst` with lo <= date <= hi, ascending. */
export async function dailyBarDates(s: BulkSession, inst: number, lo: number, hi: number): Promise<number[]> {
  return (await s.queryRows('select date from bars_1d where inst = ? and date >= ? and date <= ? order by date', [inst, lo, hi])).map((r) =>
    Number(r[0]),
  );
}

/** The stored 1m bars of `inst` with from <= ts < to, by ts, as rows `[ts, open, high, low, close, volume, amount, date]`. */
export function minuteBarRows(s: BulkSession, inst: number, from: number, to: number): Promise<unknown[][]> {
  return s.queryRows(
    'select ts, open, high, low, close, volume, amount, date from bars_1m where inst = ? and ts >= ? and ts < ? order by ts',
    [inst, from, to],
  );
}

/** How many 1m bars of `inst` with from <= ts < to are stored, by date. */
export async function minuteCounts(s: BulkSession, inst: number, from: number, to: number): Promise<Map<number, number>> {
  const rows = await s.queryRows(`select date, count(*) from bars_1m where inst = ? and ts >= ? and ts < ? group by date`, [
    inst,
    from,
    to,
  ]);
  return new Map(rows.map((r) => [Number(r[0]), Number(r[1])]));
}

/** A table of stored bars: daily (a bar's key its date) or 1m (its ts). */
export type BarTable = 'bars_1d' | 'bars_1m';
const RECORD_KEY = { bars_1d: 'date', bars_1m: 'ts' } as const;

/**
 * The stored bars of `table` after position `after` (`[inst, key]`; null: from the first) in
 * (inst, key) order, at most `limit`, as rows `[inst, key, open, high, low, close, volume, amount, date]`.
 */
export function barsAfter(s: BulkSession, table: BarTable, after: [number, number] | null, limit: number): Promise<unknown[][]> {
  const key = RECORD_KEY[table];
  return s.queryRows(
    `select inst, ${key}, open, high, low, close, volume, amount, date from ${table} ${after === null ? '' : `where (inst, ${key}) > (?, ?)`}` +
      ` order by inst, ${key} limit ?`,
    [...(after ?? []), limit],
  );
}

/** The close and amount of every equity's daily bars, by inst and date (the demo's fundamentals). */
export function equityDailyCloses(s: BulkSession): Promise<{ inst: number; date: number; close: number; amount: number }[]> {
  return s.query(
    "select inst, date, close, amount from bars_1d where inst in (select inst from instruments where kind = 'equity') order by inst, date",
  );
}
