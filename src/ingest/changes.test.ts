import { describe, expect, it } from 'vitest';
import { dataset } from '../datasets/registry.js';
import type { BulkSession } from '../store/types.js';
import { ChangeTracker } from './changes.js';

/** A session that knows two instruments by their internal keys. */
const session = {
  queryRows: async () => [
    [1, '600519.SH'],
    [2, '688001.SH'],
  ],
} as unknown as BulkSession;

/** A row of `name` with the instrument and date key columns set (the rest empty). */
function row(name: string, inst: number, date: number): unknown[] {
  const d = dataset(name)!;
  const r: unknown[] = d.columns.map(() => null);
  r[d.ix.instrument_id] = inst;
  r[d.ix[name === 'bars_1d' ? 'trade_date' : 'timestamp']] = date;
  return r;
}

describe('ChangeTracker', () => {
  it("adds daily bars derived from minute bars to the daily files' own changes, not in their place", async () => {
    const t = new ChangeTracker();
    t.note(dataset('bars_1d')!, [row('bars_1d', 1, 20230224)], 1);
    // 2021-06-03 09:31 +08:00 as epoch seconds.
    t.note(dataset('bars_1m')!, [row('bars_1m', 2, Date.UTC(2021, 5, 3, 1, 31) / 1000)], 1);
    t.derived('bars_1d', 'bars_1m', 1);
    const daily = (await t.changes(session)).find((c) => c.dataset === 'bars_1d');
    expect(daily).toEqual({ dataset: 'bars_1d', rows: 2, instruments: ['600519.SH', '688001.SH'], from: 20210603, to: 20230224 });
  });

  it("takes the minute files' instruments and dates when no daily file changed", async () => {
    const t = new ChangeTracker();
    t.note(dataset('bars_1m')!, [row('bars_1m', 2, Date.UTC(2021, 5, 3, 1, 31) / 1000)], 1);
    t.derived('bars_1d', 'bars_1m', 1);
    const changes = await t.changes(session);
    expect(changes.map((c) => [c.dataset, c.instruments, c.from, c.to])).toEqual([
      ['bars_1d', ['688001.SH'], 20210603, 20210603],
      ['bars_1m', ['688001.SH'], 20210603, 20210603],
    ]);
  });
});
