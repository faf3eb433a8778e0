/**
 * What versions the market days (market-days.ts): the days the sweep (market-sweep.ts) makes of
 * the derivations' fixture (fixture.ts), its equity also made a share with the reform's `S`
 * mark, a BSE stock, and one suspended to the end by an open suspension, so that a change of any
 * rule of the days changes the version, and migration makes the stored days again.
 */
import { TradingCalendar } from '../market/calendar.js';
import { MARKET_IDS, type Bar, type MarketId } from '../market/types.js';
import { encodeDay } from '../store/day-records.js';
import { dailyPackKey, decodeBars } from '../store/packs.js';
import { FIXTURE } from './fixture.js';
import { MarketSweep, sweepReformEnd, type SweepEvents, type SweepInstrument } from './market-sweep.js';

/**
 * Instruments the fixture's days are made of, on their markets: the fixture (an SH main-board
 * equity, an index, a fund), and its equity's bars again as a share not through the split-share
 * reform (S佳通: 5%, closes beyond a limit not at the day's extreme; S前锋, the same until its first close
 * beyond 5% within 10% ends the mark: market/day-limits.ts reformEnd), as a BSE stock (limits
 * truncated toward the previous close), and for three months only, suspended to the last day by
 * an open suspension: each rule of the days shows in the version.
 */
const FIXTURE_DAYS: { market: MarketId; x: Omit<SweepInstrument, 'lastMonth' | 'market'>; of: number; months?: number }[] = [
  ...FIXTURE.map((f) => ({
    market: 'SH' as const,
    x: {
      inst: f.inst,
      id: f.meta.id,
      kind: f.meta.kind,
      board: f.meta.kind === 'equity' ? 'main' : null,
      listDate: null,
      delistDate: null,
      listingKind: null,
      name: null,
    },
    of: f.inst,
  })),
  ...(
    [
      ['SH', 11, '600182.SH', 'main', 'S佳通'],
      ['BJ', 12, '430047.BJ', 'bse', null],
      ['SH', 13, '600001.SH', 'main', null, 3],
      ['SH', 14, '600733.SH', 'main', 'S前锋'],
    ] as const
  ).map(([market, inst, id, board, name, months]) => ({
    market,
    x: { inst, id, kind: 'equity' as const, board, listDate: null, delistDate: null, listingKind: null, name },
    of: FIXTURE[0].inst,
    months,
  })),
];

/** The days the sweep makes of the fixture (its dates as trading days), one line each: what versions them. */
export function marketDaysOutput(): string {
  const bars = new Map<number, Bar[]>(
    FIXTURE_DAYS.map(({ x, of, months }) => {
      const out: Bar[] = [];
      for (const [, n, data] of FIXTURE.find((f) => f.inst === of)!.packs.slice(0, months))
        decodeBars(out, data, n, null, -Infinity, Infinity, Infinity);
      return [x.inst, out];
    }),
  );
  const days = [...new Set([...bars.values()].flatMap((b) => b.map((x) => x.date)))].sort((a, b) => a - b);
  const cal = new TradingCalendar(days);
  const lines: string[] = [];
  for (const market of MARKET_IDS) {
    const mine = FIXTURE_DAYS.filter((f) => f.market === market);
    if (!mine.length) continue;
    const instruments: SweepInstrument[] = mine.map(({ x }) => ({ ...x, market, lastMonth: dailyPackKey(bars.get(x.inst)!.at(-1)!.date) }));
    const events: SweepEvents = { st: new Map(), actions: new Map(), suspendedToEnd: new Set([13]) };
    // S前锋's mark ends where the sweep finds its reform's end; S佳通's is kept whole (the 5% limit and its closes beyond it).
    for (const x of instruments) if (x.inst === 14) x.reformedFrom = sweepReformEnd(cal, x, events, bars.get(x.inst)!);
    const sw = new MarketSweep(market, cal, instruments, events);
    for (const month of [...new Set(days.map(dailyPackKey))]) {
      const own = new Map(
        mine.map(({ x }) => [
          x.inst,
          new Map(
            bars
              .get(x.inst)!
              .filter((b) => dailyPackKey(b.date) === month)
              .map((b) => [b.date, b]),
          ),
        ]),
      );
      for (const d of sw.month(
        month,
        days.filter((x) => dailyPackKey(x) === month),
        own,
      ))
        lines.push(`${d.market} ${d.date} ${JSON.stringify(d.breadth)} ${encodeDay(d.records).toString('base64')}`);
    }
  }
  return lines.join('\n');
}
