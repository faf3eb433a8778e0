import { createHash } from 'node:crypto';
import { metaValue, setMeta } from '../store/meta.js';
import type { BulkSession } from '../store/types.js';

/**
 * One kind of derived data kept in the store: code's output made from stored bars (daily bars
 * derived from 1m bars, indicator states, precomputed indicator pages), listed in
 * registry.ts. Its stored version
 * (in `meta`) says which code made it; when it is not the code's `version()`, migration
 * (ensure.ts) makes it all again. The version is a hash of the derivation's output over a fixed
 * fixture (fixture.ts, `versionOf`), so a change of the output changes it without anyone having
 * to remember. A schema migration that empties a derivation's table must delete its `meta` key
 * too: an unchanged version would leave it empty.
 * @example if (await d.stored(s) !== d.version()) await d.rebuild(s);
 */
export interface Derivation {
  /** Its name in reports (and its `meta` key). */
  name: string;
  /** What `rebuild` and `check` count: "pages", "packs". */
  unit: string;
  /** The code's version (computed on first use). */
  version(): string;
  /** The version the store holds, or null when it holds none. */
  stored(s: BulkSession): Promise<string | null>;
  /**
   * Follows a pack merge: `rows` (`[inst, key, n, data]`) were just written to the pack table
   * `packs`, in session `s`'s transaction (bar-packs.ts `merge` calls it). None for a derivation
   * written otherwise (derived daily bars: ingest writes them).
   */
  write?(s: BulkSession, packs: string, rows: unknown[][]): Promise<void>;
  /**
   * Derived from more than the packs, by date (derived/market-days.ts): makes again what can have
   * changed from date `from` on, at the end of a transaction that wrote (changed rows of) the
   * `tables` of `remakeAfter`, each with the least date of its rows (0: the first date there is;
   * `from` is the least of them) (bar-packs.ts `withBarPacks` calls it before the commit).
   */
  remake?(s: BulkSession, from: number, tables: ReadonlyMap<string, number>): Promise<void>;
  /** Tables whose writes call `remake`, with the column of a written row's first affected date (null: the first date there is). */
  remakeAfter?: Readonly<Record<string, string | null>>;
  /**
   * Forgets its stored version, so that the next migration makes it again: after a bulk insert
   * into a table it derives from (the demo's, in chunks; the demo then migrates).
   */
  forget?(s: BulkSession): Promise<void>;
  /**
   * Makes it all again from what it is derived from and records the code's version; returns what
   * it made. Its writes go through `s`, a session of a store opened by derived/open.ts `openStore`.
   */
  rebuild(s: BulkSession): Promise<number>;
  /**
   * Compares what is stored with what the code makes of the packs now; reports each problem
   * through `problem` and returns what was right (checkBarPacks calls it).
   */
  check(s: BulkSession, problem: (p: string) => void): Promise<number>;
}

/** The first 8 hex digits of the SHA-256 of `output`: a derivation's version. */
export const versionOf = (output: string): string => createHash('sha256').update(output).digest('hex').slice(0, 8);

/** `versionOf(output())`, computed on the first call only (the fixture takes milliseconds to render). */
export function fixtureVersion(output: () => string): () => string {
  let v: string | undefined;
  return () => (v ??= versionOf(output()));
}

/** "stored version 2, code version 3f9a1c2b" (or "no stored version, …"): why a derivation is rebuilt. */
export const versionsText = (stored: string | null, version: string): string =>
  `${stored === null ? 'no stored version' : `stored version ${stored}`}, code version ${version}`;

/**
 * A derivation whose version is kept in `meta` under its name: versioned by `output` (its code's
 * output over the fixture, fixtureVersion), made again by `make` (which returns what it made),
 * after which the code's version is recorded.
 */
export function versionedInMeta(
  d: Pick<Derivation, 'name' | 'unit' | 'write' | 'check'> & {
    output: () => string;
    make: (s: BulkSession) => Promise<number>;
  },
): Derivation {
  const version = fixtureVersion(d.output);
  return {
    name: d.name,
    unit: d.unit,
    version,
    write: d.write,
    check: d.check,
    stored: (s) => metaValue(s, d.name),
    async rebuild(s) {
      const made = await d.make(s);
      await setMeta(s, d.name, version());
      return made;
    },
  };
}
