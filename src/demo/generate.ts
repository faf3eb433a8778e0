/**
 * The deterministic demo market (CONTRACT.md §7 `mds demo`): equities on all four boards of the
 * three exchanges with ST periods, suspensions, corporate actions and price limits; indices
 * computed from their constituents; ETFs tracking them; minute bars, trades and quotes for the
 * last days. The only randomness is a seeded PRNG, so equal options give identical rows.
 *
 * @example
 * const store = openStore(':memory:'); await migrate(store);
 * const summary = await generateDemo(store, { seed: 7, equities: 40 }); // rows per table
 */
import type { Store } from '../store/types.js';
import { CALENDAR_FIRST, CALENDAR_LAST, tradingDaysBetween } from '../market/calendar.js';
import { DEFAULT_OPTIONS, type DemoOptions } from './model.js';
import { simulate } from './simulate.js';
import { persist } from './persist.js';
import { Writer, type TableName } from './writer.js';
import { generateFundamentals } from './fundamentals/index.js';
import { rebuildIn } from '../derived/ensure.js';
import { DERIVATIONS } from '../derived/registry.js';
import { recordVersion, type DataChange } from '../store/versions.js';
import { pendingMigrations } from '../store/migrate.js';

export type { DemoOptions } from './model.js';
export { DEFAULT_OPTIONS } from './model.js';

/** The tables the demo writes, in the order written (its progress lines and summary follow it). */
export const DEMO_TABLES = [
  'meta',
  'classifications',
  'instruments',
  'instrument_classifications',
  'st_periods',
  'suspensions',
  'share_capital',
  'index_constituents',
  'index_weights',
  'corporate_actions',
  'bars_1d',
  'bars_1m',
  'quotes',
  'trades',
] as const satisfies readonly TableName[];

/** Rows inserted per table. */
export type DemoSummary = Record<(typeof DEMO_TABLES)[number], number>;

const MIN_END = 20220601;

/** Fills in defaults and checks the options; throws RangeError naming the bad option. */
export function resolveDemoOptions(opts: Partial<DemoOptions> = {}): DemoOptions {
  const o: DemoOptions = { ...DEFAULT_OPTIONS };
  for (const k of Object.keys(DEFAULT_OPTIONS) as (keyof DemoOptions)[]) if (opts[k] !== undefined) o[k] = opts[k]!;
  const bad = (what: string) => {
    throw new RangeError(`demo: ${what}`);
  };
  for (const k of Object.keys(o) as (keyof DemoOptions)[]) if (!Number.isSafeInteger(o[k])) bad(`${k} must be an integer`);
  if (o.equities < 20) bad('equities must be at least 20');
  if (o.start < CALENDAR_FIRST || o.end > CALENDAR_LAST || o.start > o.end)
    bad(`start..end must lie within ${CALENDAR_FIRST}..${CALENDAR_LAST}`);
  // Every board and exchange must trade for a while (BJ opened 2021-11-15).
  if (o.end < MIN_END) bad(`end must be on or after ${MIN_END}`);
  const days = tradingDaysBetween(o.start, o.end).length;
  if (days < 60) bad('start..end must span at least 60 trading days');
  if (o.minuteDays < 0 || o.minuteDays > days) bad(`minuteDays must be within 0..${days}`);
  if (o.tickDays < 0 || o.tickDays > o.minuteDays) bad('tickDays must be within 0..minuteDays');
  return o;
}

/**
 * A `progress` for generateDemo that logs each step with the seconds since `started`, as the
 * first start and `mds demo` print them: `    3.2 s  bars_1d: 206,800 rows`.
 */
export function timedSteps(log: (line: string) => void, started = Date.now()): (step: string) => void {
  return (step) => log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${step}`);
}

/**
 * Generates the demo market into a freshly migrated, empty store, in one transaction: its rows,
 * their bar packs, what is derived from them and its data version commit together, so no
 * snapshot (a server already serving the store) sees any of it before all of it. `progress`
 * hears of each step done (the simulation, each table written with its rows, the
 * fundamentals, each derivation made).
 */
export async function generateDemo(
  store: Store,
  opts?: Partial<DemoOptions>,
  progress: (step: string) => void = () => {},
): Promise<DemoSummary> {
  const o = resolveDemoOptions(opts);
  const market = simulate(o);
  progress(`simulated ${market.instruments.length} instruments over ${market.span.days.length} trading days`);
  // A store whose schema is behind gets what is derived by date, and its version, from its migration.
  const current = (await pendingMigrations(store)).length === 0;
  return store.bulkTransaction(
    async (s) => {
      const w = new Writer(s, progress);
      await persist(w, o, market);
      const fw = new Writer(s);
      const fundamentals = await generateFundamentals(s, o.seed, o.end, fw);
      progress('fundamentals written');
      const summary = { ...Object.fromEntries(DEMO_TABLES.map((t) => [t, w.counts[t] ?? 0])), ...fundamentals } as DemoSummary;
      if (current) {
        // The chunks' bar packs merged, and what is derived by date (the days of each market)
        // forgotten as they were written (deferDerived), to be made once, whole, now.
        await s.settle?.();
        for (const d of DERIVATIONS) {
          const r = await rebuildIn(s, d);
          if (r && (r.stored !== null || r.count > 0)) progress(`${r.name}: ${r.count.toLocaleString('en-US')} ${r.unit}`);
        }
        await recordVersion(s, `demo build (seed ${o.seed}, ${o.equities} equities)`, demoChanges(summary, [w, fw]));
      }
      return summary;
    },
    { deferDerived: true },
  );
}

/**
 * What a demo build changed, for its data version: each dated table (bars, quotes, trades, flows,
 * margin) by the first and last day it holds (1m bars: the last minuteDays), as its writers saw
 * them; the other tables without dates.
 */
function demoChanges(summary: DemoSummary, writers: readonly Writer[]): DataChange[] {
  return Object.entries(summary)
    .filter(([t, n]) => t !== 'meta' && n > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([dataset, rows]) => {
      const d = writers.map((w) => w.dates[dataset as TableName]).find((x) => x !== undefined);
      return { dataset, rows, instruments: null, from: d?.from ?? null, to: d?.to ?? null };
    });
}
