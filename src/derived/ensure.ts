import type { BulkSession, Store } from '../store/types.js';
import { versionsText, type Derivation } from './derivation.js';
import { DERIVATIONS } from './registry.js';
import { recordVersion } from '../store/versions.js';

/** A derivation made again by `ensureDerived`, and why: its stored version was not the code's. */
export interface Rebuilt {
  name: string;
  /** The version the store held (null: none). */
  stored: string | null;
  /** The code's version, now stored. */
  version: string;
  /** What was made, in `unit`s. */
  count: number;
  unit: string;
  seconds: number;
}

/**
 * Makes `d` again in session `s` when its stored version is not the code's, under the pack lock
 * (BulkSession.lockPacks, so a concurrent merge waits); returns what it did, or null. Records
 * no data version: the caller's transaction does (`ensure`, or the demo's build).
 */
export async function rebuildIn(s: BulkSession, d: Derivation): Promise<Rebuilt | null> {
  const version = d.version();
  const started = performance.now();
  await s.lockPacks();
  const stored = await d.stored(s);
  if (stored === version) return null;
  const count = await d.rebuild(s);
  return { name: d.name, stored, version, count, unit: d.unit, seconds: (performance.now() - started) / 1000 };
}

/** Makes `d` again when its stored version is not the code's, in one transaction, recording a data version when it made anything. */
async function ensure(store: Store, d: Derivation): Promise<Rebuilt | null> {
  if ((await store.bulkTransaction((s) => d.stored(s), { readOnly: true })) === d.version()) return null;
  return store.bulkTransaction(async (s) => {
    const r = await rebuildIn(s, d);
    if (r && r.count > 0) {
      await recordVersion(s, `derivation ${d.name} rebuilt (${versionsText(r.stored, r.version)})`, [
        { dataset: d.name, rows: r.count, instruments: null, from: null, to: null },
      ]);
    }
    return r;
  });
}

/**
 * Makes again every derivation of the registry whose stored version is not the code's, in the
 * registry's order; returns those rebuilt. A store that held no version and nothing to derive
 * (a new one) has the version recorded and is not listed: nothing was rebuilt.
 */
export async function ensureDerived(store: Store): Promise<Rebuilt[]> {
  const out: Rebuilt[] = [];
  for (const d of DERIVATIONS) {
    const r = await ensure(store, d);
    if (r && (r.stored !== null || r.count > 0)) out.push(r);
  }
  return out;
}

/** A rebuild as one line: "indicator_states: stored version 2, code version 3f9a1c2b: rebuilt 1,234 packs in 0.8 s". */
export function describeRebuilt(r: Rebuilt): string {
  return `${r.name}: ${versionsText(r.stored, r.version)}: rebuilt ${r.count.toLocaleString('en-US')} ${r.unit} in ${r.seconds.toFixed(1)} s`;
}
