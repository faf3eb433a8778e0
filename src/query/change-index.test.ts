import { describe, expect, it } from 'vitest';
import { ChangeIndex } from './change-index.js';
import type { DataChange, RowSource } from '../store/versions.js';

/** A change log in memory, read as store/versions.ts changesSince reads it. */
function log(versions: DataChange[][]): RowSource {
  return async (sql, params) => {
    const after = Number(params[0]);
    if (sql.startsWith('select version, at, origin'))
      return versions
        .map((_, i) => [i + 1, 0, 'test'])
        .filter(([v]) => (v as number) > after)
        .slice(0, Number(params[1]));
    const last = Number(params[1]);
    return versions.flatMap((cs, i) =>
      i + 1 > after && i + 1 <= last
        ? cs.map((c) => [i + 1, c.dataset, c.rows, c.instruments === null ? null : JSON.stringify(c.instruments), c.from, c.to])
        : [],
    );
  };
}
const change = (dataset: string, instruments: string[] | null, from: number | null = null, to = from): DataChange => ({
  dataset,
  rows: 1,
  instruments,
  from,
  to,
});

/**
 * An index over `versions` (version 1 first), built at version 1 with the instruments' last bar
 * dates `known` there (the versions of its history count as moving them from anywhere), then
 * advanced to the last.
 */
async function index(versions: DataChange[][], known: Record<string, number>) {
  const ix = new ChangeIndex();
  const dates = async () => new Map(Object.entries(known));
  await ix.advance(log(versions), 1, dates);
  await ix.advance(log(versions), versions.length, dates);
  return ix;
}

describe('ChangeIndex: scopes by dataset and by market end', () => {
  const A = '600001.SH',
    B = '600002.SH',
    Z = '000001.SZ';

  it('answers an instrument scope of some datasets by changes of those datasets only', async () => {
    const ix = await index(
      [
        [change('bars_1d', [A, B], 20250101, 20250110)],
        [change('income_statements', [A], 20241231)],
        [change('management', [B])],
        [change('bars_1d', [A], 20250105)],
        [change('trading_days', null, 20250101, 20251231)],
        [change('indicator_pages', null)],
        [change('derived_daily', null)],
      ],
      { [A]: 20250110, [B]: 20250110 },
    );
    const income = { kind: 'instrument', id: A, datasets: ['income_statements', 'instruments'] } as const;
    expect([6, 5, 4, 3].map((at) => ix.lastTouch(at, income))).toEqual([2, 2, 2, 2]);
    // A derivation the log does not know the tables of counts as changing every dataset.
    expect(ix.lastTouch(7, income)).toBe(7);
    expect(ix.lastTouch(6, { kind: 'instrument', id: A, datasets: ['bars_1d'] })).toBe(4);
    expect(ix.lastTouch(6, { kind: 'instrument', id: B, datasets: ['management'] })).toBe(3);
    expect(ix.lastTouch(6, { kind: 'instrument', id: A, datasets: ['trading_days'] })).toBe(5);
    // Without datasets, every change of the instrument and every one naming none.
    expect(ix.lastTouch(4, { kind: 'instrument', id: A })).toBe(4);
    expect(ix.lastTouch(6, { kind: 'datasets', datasets: ['trading_days'] })).toBe(5);
    expect(ix.lastTouch(4, { kind: 'datasets', datasets: ['trading_days'] })).toBe(0);
  });

  it('counts a version as moving a market’s last bar date only while it may have', async () => {
    const ix = await index(
      [
        [change('bars_1d', [A, Z], 20250101, 20250110)],
        // B's bars up to the market's last date: SH's date does not move.
        [change('bars_1d', [B], 20250101, 20250110)],
        // Z's next day: SZ's moves, SH's not.
        [change('bars_1d', [Z], 20250113)],
        // Bars of both markets up to the 14th: either may have moved.
        [change('bars_1d', [B, Z], 20250114)],
      ],
      { [A]: 20250110, [B]: 20250110, [Z]: 20250110 },
    );
    const limits = (to: number) => ({ kind: 'instrument', id: A, datasets: ['bars_1d'], marketEnd: to }) as const;
    expect(ix.lastTouch(2, limits(99991231))).toBe(1);
    expect(ix.lastTouch(3, limits(99991231))).toBe(1);
    expect(ix.lastTouch(4, limits(99991231))).toBe(4);
    // A window ending on or before the date the market had already reached stays.
    expect(ix.lastTouch(4, limits(20250110))).toBe(1);
    const sz = { kind: 'instrument', id: '000002.SZ', datasets: ['bars_1d'], marketEnd: 99991231 } as const;
    expect(ix.lastTouch(3, sz)).toBe(3);
    expect(ix.lastTouch(4, sz)).toBe(4);
    // The last bar date of a market, and of the store.
    expect([2, 3, 4].map((at) => ix.lastTouch(at, { kind: 'lastBar', market: 'SH' }))).toEqual([1, 1, 4]);
    expect([2, 3, 4].map((at) => ix.lastTouch(at, { kind: 'lastBar', market: 'SZ' }))).toEqual([1, 3, 4]);
    expect([2, 3, 4].map((at) => ix.lastTouch(at, { kind: 'lastBar' }))).toEqual([1, 3, 4]);
  });

  it('counts bars after a window as changing it only while the instrument’s last bar may have been before its end', async () => {
    const ix = await index(
      [
        [change('bars_1d', [A, B], 20250101, 20250110)],
        // Every instrument's next day (an evening update).
        [change('bars_1d', [A, B, Z], 20250113)],
        // B alone, far later (after a suspension).
        [change('bars_1d', [B], 20250301)],
        // A's 1m bars after the window: its daily bars' last date as known does not move.
        [change('bars_1m', [A], 20250302)],
      ],
      { [A]: 20250110, [B]: 20241231 },
    );
    const limits = (id: string, to: number) =>
      ({ kind: 'instrument', id, datasets: ['bars_1d'], bars: { from: 0, to }, ownEnd: to }) as const;
    // A's window to the 8th: its last bar was on the 10th already.
    expect(ix.lastTouch(4, limits(A, 20250108))).toBe(1);
    // To the 12th: the evening update moved its last bar from the 10th (the rows run to it).
    expect(ix.lastTouch(2, limits(A, 20250112))).toBe(2);
    expect(ix.lastTouch(3, limits(A, 20250112))).toBe(2);
    expect(ix.lastTouch(4, limits(A, 20250112))).toBe(2);
    // A's window to the 20th of February: only the 1m bars of March may have moved it.
    expect(ix.lastTouch(4, limits(A, 20250220))).toBe(4);
    // B's last bar was known on the 13th (the evening update): March's bar moves it past the 20th of February.
    expect(ix.lastTouch(3, limits(B, 20250112))).toBe(2);
    expect(ix.lastTouch(3, limits(B, 20250220))).toBe(3);
  });
});
