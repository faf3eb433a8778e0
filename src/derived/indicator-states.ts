/**
 * Indicator states: for every daily bar pack (an instrument's month), the state of each
 * recursive indicator (the ones with a `stream`: ema, macd, kdj, rsi, obv) before the month's
 * first bar, over the unadjusted daily series. A recursive indicator's value depends on every
 * bar since the first, so without them a page of, say, MACD in 2025 folds the whole history
 * before it; with them it resumes from the state of its first month and reads only that month
 * and the page (the same packs as a page of bars). Values are exact: a resumed fold equals the
 * fold from the first bar (states are plain numbers, and JSON gives doubles back unchanged).
 *
 * The states are the `states` column of an instrument's first pack of each quarter (`keepsStates`;
 * null in its other packs), the JSON object `{ [indicator id]: state }`: an indicator page reads
 * one range of packs, from the first month of the quarter of its first bar, and nothing else
 * (at most two months more than its own), and the states take a third of the space and of the
 * ingest's time they took in every pack (25 bytes a bar). The pack merges keep them in step: a
 * write to an instrument's month changes the states of every later month, so its states are
 * folded again from the state stored at or before the earliest month written (`writeStates`,
 * in the merge's transaction). States are code's output (the streams' arithmetic and state shapes), so they
 * carry a version (`INDICATOR_STATES`, a derivation of registry.ts): the hash of the states
 * folded over the fixture (fixture.ts), so that a change of a stream's `step` or state makes
 * migration fold every instrument again.
 */
import { foldEach, INDICATOR_IDS, INDICATORS, setPoint, type IndicatorId } from '../indicators/registry.js';
import type { Point, Stream } from '../indicators/types.js';
import { RECORD_BYTES } from '../store/packs.js';
import type { BulkSession } from '../store/types.js';
import { DAILY_PACKS as PACKS, dailyPackBatches } from '../store/tables/bar-packs.js';
import { clearPackStates, packStatesBetween, packsWithStates, setPackStates, statesAtOrBefore } from '../store/tables/indicator-states.js';
import { versionedInMeta } from './derivation.js';
import { FIXTURE } from './fixture.js';

const WRITE_ROWS = 200;

/** The recursive indicators, whose states are kept. */
export const RECURSIVE: readonly IndicatorId[] = INDICATOR_IDS.filter((id) => INDICATORS[id].stream);
const STREAMS: [IndicatorId, Stream<unknown>][] = RECURSIVE.map((id) => [id, INDICATORS[id].stream!]);

/** The states of the recursive indicators, by id. */
export type States = Record<string, unknown>;

/**
 * The state of indicator `id` in a pack's stored `states` (JSON.stringify of `{ [id]: state }`),
 * without parsing the others': a state is a flat object of numbers and arrays of numbers, so
 * `"id":{` opens it (no state has a key followed by an object) and the next `}` closes it. A
 * fifth of the time of parsing the whole column. Anything else falls back to JSON.parse.
 */
export function stateOf(states: string, id: IndicatorId): unknown {
  const open = states.indexOf(`"${id}":{`);
  if (open >= 0) {
    const from = open + id.length + 3,
      to = states.indexOf('}', from);
    const inner = states.indexOf('{', from + 1);
    if (to > 0 && (inner < 0 || inner > to)) return JSON.parse(states.slice(from, to + 1));
  }
  return (JSON.parse(states) as States)[id];
}

/** The quarter of month `m` (YYYYMM), as a number that grows by one a quarter. */
const quarter = (m: number) => Math.floor(m / 100) * 4 + Math.floor(((m % 100) - 1) / 3);

/** The first month (YYYYMM) of the quarter holding month `m`. quarterStart(202405) -> 202404. */
export const quarterStart = (m: number) => m - (((m % 100) - 1) % 3);

/** Whether pack `month` keeps states: an instrument's first pack of its quarter (`previous`: the pack before it, or null). */
export const keepsStates = (month: number, previous: number | null) => previous === null || quarter(month) !== quarter(previous);

/** The states before a first bar. */
const initial = (): States => Object.fromEntries(STREAMS.map(([id, s]) => [id, s.initState()]));

/**
 * Folds the `n` bars of a daily pack into `states`, each stream over the bars as foldBars gives
 * them to it (as seriesFromBars gives them to `compute`: prices in CNY, volume in shares).
 */
export function foldPack(states: States, data: Uint8Array, n: number): States {
  if (data.byteLength !== n * RECORD_BYTES) throw new RangeError(`bar pack of ${n} records holds ${data.byteLength} bytes`);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // Each record straight into the point, as foldBars makes it of the record's Bar (no Bar made).
  const fill = (p: Point, i: number) => {
    const o = i * RECORD_BYTES;
    setPoint(
      p,
      dv.getFloat64(o + 8, true),
      dv.getFloat64(o + 16, true),
      dv.getFloat64(o + 24, true),
      dv.getFloat64(o + 32, true),
      dv.getFloat64(o + 40, true),
    );
  };
  const out = { ...states };
  for (const [id, s] of STREAMS) out[id] = foldEach(s, n, fill, out[id], null);
  return out;
}

/**
 * Folds the states of instruments whose daily packs were just written (`rows`: `[inst, month,
 * n, data]`), from the state stored at or before the earliest month written of each: called by
 * every pack merge, in the merge's transaction (1m packs have none).
 */
export async function writeStates(s: BulkSession, packs: string, rows: unknown[][]): Promise<void> {
  if (packs !== PACKS) return;
  const earliest = new Map<number, number>();
  for (const [inst, month] of rows as [number, number][]) earliest.set(inst, Math.min(earliest.get(inst) ?? Infinity, month));
  let out: unknown[][] = [];
  for (const [inst, month] of earliest) {
    // The states stored at `from` stand: they depend only on packs before it, none of them
    // written (a merge rewrites a pack's bars, never its states; a new pack has none yet).
    const start = await statesAtOrBefore(s, inst, month);
    const from = start ? start[0] : -1;
    let states: States = start ? JSON.parse(start[1]) : initial();
    let previous: number | null = null;
    for (const [m, n, data, kept] of await packsWithStates(s, inst, from)) {
      const month = Number(m);
      // Packs that keep none are written only when they held some (a pack written before them took their place).
      if (month !== from) {
        if (keepsStates(month, previous)) out.push([inst, month, JSON.stringify(states)]);
        else if (kept && Number(kept)) out.push([inst, month, null]);
      }
      states = foldPack(states, data as Uint8Array, Number(n));
      previous = month;
      if (out.length >= WRITE_ROWS) {
        await setPackStates(s, out);
        out = [];
      }
    }
  }
  await setPackStates(s, out);
}

/** Every pack `[inst, month, json or null]` as the packs give it (keepsStates), in key order, a batch of packs at a time. */
async function* foldAll(s: BulkSession): AsyncGenerator<[number, number, string | null][]> {
  let inst = -1,
    states = initial(),
    previous: number | null = null;
  for await (const rows of dailyPackBatches(s)) {
    const out: [number, number, string | null][] = [];
    for (const [i, month, n, data] of rows as [number, number, number, Uint8Array][]) {
      if (i !== inst) {
        inst = i;
        states = initial();
        previous = null;
      }
      out.push([i, month, keepsStates(month, previous) ? JSON.stringify(states) : null]);
      states = foldPack(states, data, n);
      previous = month;
    }
    yield out;
  }
}

/** Folds every instrument's states from its packs again; returns the packs. */
async function rebuildStates(s: BulkSession): Promise<number> {
  await clearPackStates(s);
  let packs = 0;
  for await (const rows of foldAll(s)) {
    const kept = rows.filter((r) => r[2] !== null);
    for (let i = 0; i < kept.length; i += WRITE_ROWS) await setPackStates(s, kept.slice(i, i + WRITE_ROWS));
    packs += rows.length;
  }
  return packs;
}

/**
 * The states of the fixture's instruments before each of their packs, as `fold` folds them,
 * one JSON a line (`-` for a pack that keeps none): what versions the states.
 */
export function indicatorStatesOutput(fold: typeof foldPack = foldPack): string {
  return FIXTURE.flatMap((f) => {
    let states = initial();
    let previous: number | null = null;
    return f.packs
      .map(([month, n, data]) => {
        const json = keepsStates(month, previous) ? JSON.stringify(states) : '-';
        states = fold(states, data, n);
        previous = month;
        return json;
      })
      .concat(JSON.stringify(states));
  }).join('\n');
}

/** Indicator states as a derivation (registry.ts); the version is in `meta` as `indicator_states`. */
export const INDICATOR_STATES = versionedInMeta({
  name: 'indicator_states',
  unit: 'packs',
  output: () => indicatorStatesOutput(),
  write: writeStates,
  make: rebuildStates,
  check: checkStates,
});

/**
 * Checks, in session `s`, that every daily pack that keeps states (keepsStates) holds them, equal
 * to folding the packs now, and no other pack holds any; reports each problem through `problem`
 * and returns the packs that are right (checkBarPacks calls it).
 */
export async function checkStates(s: BulkSession, problem: (p: string) => void): Promise<number> {
  let right = 0;
  for await (const rows of foldAll(s)) {
    const stored = await packStatesBetween(s, rows[0], rows[rows.length - 1]);
    for (const [inst, month, json] of rows) {
      const got = stored.get(`${inst}/${month}`);
      if (json === null) {
        if (got === null || got === undefined) right++;
        else problem(`${PACKS} ${inst}/${month}: indicator states in a pack that keeps none (its quarter's first is another)`);
      } else if (got === null || got === undefined) problem(`${PACKS} ${inst}/${month}: no indicator states`);
      else if (got !== json) problem(`${PACKS} ${inst}/${month}: indicator states differ from folding the packs`);
      else right++;
    }
  }
  return right;
}
