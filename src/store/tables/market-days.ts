/**
 * Statements on the days of the markets as derived/market-days.ts makes and checks them:
 * `market_days` (a day's records, store/day-records.ts) and `market_breadth` (its counts). The
 * request path's reads are store/readers/market-days.ts.
 */
import type { BulkSession } from '../types.js';
import { list } from './lists.js';

/** A day's breadth: how its equities traded. */
export interface Breadth {
  listed: number;
  advancers: number;
  decliners: number;
  unchanged: number;
  limitUp: number;
  limitDown: number;
  suspended: number;
  volume: number;
  amount: number;
  unknownAmounts: number;
}

/** A day to store: its market and date, its `n` records encoded as `data`, and its breadth. */
export interface StoredDay {
  market: string;
  date: number;
  n: number;
  data: Uint8Array;
  breadth: Breadth;
}

/** Days per insert. */
const INSERT_DAYS = 16;

/** Writes `days` (records and breadth), replacing what is stored for them. */
export async function writeDays(s: BulkSession, days: readonly StoredDay[]): Promise<void> {
  for (let i = 0; i < days.length; i += INSERT_DAYS) {
    const part = days.slice(i, i + INSERT_DAYS);
    await s.query(
      `insert into market_days (market, date, n, data) values ${list(part.length, '(?, ?, ?, ?)')}` +
        ' on conflict (market, date) do update set n = excluded.n, data = excluded.data',
      part.flatMap((d) => [d.market, d.date, d.n, d.data]),
    );
    await s.query(
      'insert into market_breadth (market, date, listed, advancers, decliners, unchanged, limit_up, limit_down, suspended, volume, amount, unknown_amounts)' +
        ` values ${list(part.length, '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')} on conflict (market, date) do update set listed = excluded.listed,` +
        ' advancers = excluded.advancers, decliners = excluded.decliners, unchanged = excluded.unchanged, limit_up = excluded.limit_up,' +
        ' limit_down = excluded.limit_down, suspended = excluded.suspended, volume = excluded.volume, amount = excluded.amount,' +
        ' unknown_amounts = excluded.unknown_amounts',
      part.flatMap(({ market, date, breadth: b }) => [
        market,
        date,
        b.listed,
        b.advancers,
        b.decliners,
        b.unchanged,
        b.limitUp,
        b.limitDown,
        b.suspended,
        b.volume,
        b.amount,
        b.unknownAmounts,
      ]),
    );
  }
}

/** Deletes the days (records and breadth) of `market` from `from` on. */
export async function deleteDaysFrom(s: BulkSession, market: string, from: number): Promise<void> {
  await s.query('delete from market_days where market = ? and date >= ?', [market, from]);
  await s.query('delete from market_breadth where market = ? and date >= ?', [market, from]);
}

/** The last stored day of each market that has one, by market. */
export async function lastDays(s: BulkSession): Promise<Map<string, number>> {
  return new Map(
    (await s.queryRows('select market, max(date) from market_days group by market')).map((r) => [r[0] as string, Number(r[1])]),
  );
}

/** The records (encoded) of the stored days of `market` with from <= date < before, by date. */
export async function daysBefore(s: BulkSession, market: string, from: number, before: number): Promise<Uint8Array[]> {
  const rows = await s.queryRows('select data from market_days where market = ? and date >= ? and date < ? order by date', [
    market,
    from,
    before,
  ]);
  return rows.map((r) => r[0] as Uint8Array);
}

/** The records (encoded) of the stored days of `market` with from <= date <= to, by date. */
export async function daysBetween(s: BulkSession, market: string, from: number, to: number): Promise<Map<number, Uint8Array>> {
  const rows = await s.queryRows('select date, data from market_days where market = ? and date >= ? and date <= ?', [market, from, to]);
  return new Map(rows.map((r) => [Number(r[0]), r[1] as Uint8Array]));
}

/** The stored days of every market with from <= date <= to: `[date, records encoded]`, in no order. */
export async function allDaysBetween(s: BulkSession, from: number, to: number): Promise<[number, Uint8Array][]> {
  const rows = await s.queryRows('select date, data from market_days where date >= ? and date <= ?', [from, to]);
  return rows.map((r) => [Number(r[0]), r[1] as Uint8Array]);
}

/** How many days are stored (of every market). */
export async function countDays(s: BulkSession): Promise<number> {
  return Number((await s.queryRows('select count(*) from market_days'))[0][0]);
}

/** The stored days of every market with from <= date <= to: `[market, date]`, their records not read. */
export async function dayKeysBetween(s: BulkSession, from: number, to: number): Promise<[string, number][]> {
  const rows = await s.queryRows('select market, date from market_days where date >= ? and date <= ?', [from, to]);
  return rows.map((r) => [String(r[0]), Number(r[1])]);
}

/** The records (encoded) of the stored day of `market` on `date`, or null. */
export async function dayOn(s: BulkSession, market: string, date: number): Promise<Uint8Array | null> {
  const rows = await s.queryRows('select data from market_days where market = ? and date = ?', [market, date]);
  return rows.length ? (rows[0][0] as Uint8Array) : null;
}
