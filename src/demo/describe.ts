/**
 * What a store built by the demo generator holds, read back from it (its `meta.demo` options and
 * instruments), for the server's start banner: the date range, the days with 1m bars and with
 * quotes and trades, and the well-known ids to try.
 */
import type { Store } from '../store/types.js';
import { readMeta } from '../store/meta.js';
import { instrumentNames } from '../store/tables/instruments.js';
import { formatDate } from '../lib/time.js';
import { buildSpan } from './simulate.js';
import { resolveDemoOptions } from './generate.js';
import { WELL_KNOWN } from './well-known.js';

export interface DemoDescription {
  seed: number;
  counts: { equities: number; indices: number; funds: number };
  /** Trading days of the daily bars, and those that also have 1m bars, quotes and trades (YYYY-MM-DD). */
  first: string;
  last: string;
  minuteDays: string[];
  tickDays: string[];
  /** Well-known equities in this demo: id and name. */
  wellKnown: { id: string; name: string }[];
}

/** The description of a demo store; null for a store the demo did not build. */
export async function describeDemo(store: Store): Promise<DemoDescription | null> {
  const demo = await readMeta(store, 'demo');
  if (demo === null) return null;
  const o = resolveDemoOptions(JSON.parse(demo));
  const instruments = await instrumentNames(store);
  const count = (k: string) => instruments.filter((x) => x.kind === k).length;
  const names = new Map(instruments.map((r) => [r.id, r.name]));
  const span = buildSpan(o);
  const days = span.days.map(formatDate);
  return {
    seed: o.seed,
    counts: { equities: count('equity'), indices: count('index'), funds: count('fund') },
    first: days[0],
    last: days[days.length - 1],
    minuteDays: span.days.filter((d) => span.minuteDays.has(d)).map(formatDate),
    tickDays: span.days.filter((d) => span.tickDays.has(d)).map(formatDate),
    // One of each board first (SH main, SZ main, ChiNext, STAR, BSE), then the others.
    wellKnown: WELL_KNOWN.map((w, i) => ({
      id: `${w.code}.${w.market}`,
      rank: WELL_KNOWN.findIndex((x) => x.board === w.board && x.market === w.market) === i ? 0 : 1,
    }))
      .filter((w) => names.has(w.id))
      .sort((a, b) => a.rank - b.rank)
      .map(({ id }) => ({ id, name: names.get(id)! })),
  };
}
