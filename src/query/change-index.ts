import { LRUCache } from 'lru-cache';
import { changesSince, type DataChange, type RowSource } from '../store/versions.js';
import { BARS, changeTouches, keyOf, marketOfId, type Change, type Scope } from './change-scope.js';

export type { Scope } from './change-scope.js';

/** Versions kept in the index; an older one counts as touching everything (the floor). */
const HISTORY = 4096;
/** Versions read per query while catching up. */
const READ_BATCH = 1000;

interface Version {
  version: number;
  /** Nothing logged (a version recorded without its changes): it counts as changing everything. */
  unknown: boolean;
  changes: Change[];
}

/** A version that may have moved a last bar date (the store's, or a market's), from `before` (a lower bound of it) on. */
interface Frontier {
  version: number;
  before: number;
}

function touches(v: Version, s: Scope): boolean {
  return v.unknown || v.changes.some((c) => changeTouches(c, s));
}

/** The index of the last element of ascending `a` that is <= `v`, or -1. */
function lastAtOrBelow(a: readonly { version: number }[] | readonly number[], v: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    const x = a[m];
    if ((typeof x === 'number' ? x : x.version) <= v) lo = m + 1;
    else hi = m;
  }
  return lo - 1;
}

/** The versions that may have moved one last bar date (the store's, a market's or an instrument's), ascending. */
class Frontiers {
  private readonly list: Frontier[] = [];
  /** The last bar date as far as known (a lower bound). */
  last = 0;

  /**
   * Notes `version`, whose bars reach `to` (Infinity: unknown) and make the date at least
   * `atLeast` (a date some bar of it now has; -Infinity: none known).
   */
  note(version: number, to: number, atLeast: number): void {
    const n = this.list.length;
    if (to > this.last && (n === 0 || this.list[n - 1].version !== version)) this.list.push({ version, before: this.last });
    if (Number.isFinite(atLeast)) this.last = Math.max(this.last, atLeast);
  }

  /** Notes a version whose changes are unknown: it may have moved the date from anywhere. */
  noteUnknown(version: number): void {
    this.list.push({ version, before: 0 });
  }

  /** Drops the versions at or below `floor`. */
  prune(floor: number): void {
    this.list.splice(0, lastAtOrBelow(this.list, floor) + 1);
  }

  /** The last version in (found, at] that may have moved the date while it was before `date`; else `found`. */
  after(found: number, at: number, date: number): number {
    for (let i = lastAtOrBelow(this.list, at); i >= 0 && this.list[i].version > found; i--)
      if (date > this.list[i].before) return this.list[i].version;
    return found;
  }
}

/**
 * The change log in memory (store/versions.ts), for answering "the last version at or before
 * `at` that changed what `scope` depends on" (lastTouch): an ETag and a cache entry name that
 * version instead of the snapshot's, so a commit that did not touch a page leaves its tag and
 * the server's cache entries as they were (docs/architecture.md, "The data spine"). Built from
 * the last HISTORY versions of the log when first asked, then advanced version by version as
 * snapshots of newer ones open; an instrument's versions are indexed by instrument id, those
 * naming no instrument apart, and the versions that may have moved the last bar date of the
 * store or of a market (frontiers) apart again. Anything the log cannot vouch for counts as touched: versions at
 * or below the floor (before the index's history), a version without logged changes, an
 * instrument list left null.
 */
export class ChangeIndex {
  /** Versions at or below it are not indexed (-1: not built yet). */
  private floor = -1;
  /** The highest version indexed. */
  private top = 0;
  private readonly versions: Version[] = [];
  /** Per instrument id, the versions that name it (ascending). */
  private readonly byInstrument = new Map<string, number[]>();
  /** Versions with a change naming no instrument, or none logged (ascending). */
  private readonly wide: number[] = [];
  /** The versions that may have moved the store's last bar date. */
  private readonly frontiers = new Frontiers();
  /** Per market, those that may have moved its last bar date (bars naming its instruments). */
  private readonly marketFrontiers = new Map<string, Frontiers>();
  /** Per instrument id, those that may have moved its last bar date. */
  private readonly instrumentFrontiers = new Map<string, Frontiers>();
  /** Versions with bars naming no instrument: they may have moved any market's or instrument's last bar date. */
  private readonly wideBars = new Frontiers();
  private pending: Promise<void> | null = null;
  private readonly memo = new LRUCache<string, number>({ max: 50_000 });

  /** The highest version indexed (0 before the first advance). */
  get version(): number {
    return this.top;
  }

  /**
   * Indexes the versions up to `to`, read by `rows` (a snapshot of `to` or later); `lastBarDates`
   * reads the last bar date of each instrument (by id) there (once, when the index is first
   * built). Concurrent callers share one read.
   */
  async advance(rows: RowSource, to: number, lastBarDates: () => Promise<ReadonlyMap<string, number>>): Promise<void> {
    while (this.top < to) {
      const mine = this.pending === null;
      if (mine)
        this.pending = this.read(rows, to, lastBarDates).finally(() => {
          this.pending = null;
        });
      try {
        await this.pending;
      } catch (e) {
        // Another snapshot's read failed (its connection): this one reads for itself.
        if (mine) throw e;
      }
    }
  }

  private async read(rows: RowSource, to: number, lastBarDates: () => Promise<ReadonlyMap<string, number>>): Promise<void> {
    if (this.floor < 0) {
      this.floor = Math.max(0, to - HISTORY);
      this.top = this.floor;
      // Dates below it are a lower bound for the history's versions; the store's own at `to` for those after.
      const known = await lastBarDates();
      await this.catchUp(rows, to);
      // Lower bounds from here on (the history's versions were noted from none).
      for (const [id, date] of known)
        for (const f of [this.frontiers, this.frontier(this.marketFrontiers, marketOfId(id)), this.frontier(this.instrumentFrontiers, id)])
          f.last = Math.max(f.last, date);
      return;
    }
    await this.catchUp(rows, to);
  }

  private async catchUp(rows: RowSource, to: number): Promise<void> {
    while (this.top < to) {
      const batch = await changesSince(rows, this.top, READ_BATCH);
      if (batch.length === 0) {
        // Versions the log does not list (none below `to` should be missing): count as changing everything.
        this.add(to, null);
        continue;
      }
      for (const v of batch) if (v.version <= to) this.add(v.version, v.changes);
      if (batch[batch.length - 1].version >= to || batch.length < READ_BATCH) this.top = Math.max(this.top, to);
    }
    this.prune();
  }

  /** Adds version `version` with its changes (null: unknown). */
  private add(version: number, changes: readonly DataChange[] | null): void {
    if (version <= this.top) return;
    this.top = version;
    const v: Version = {
      version,
      unknown: changes === null || changes.length === 0,
      changes: (changes ?? []).map((c) => ({
        dataset: c.dataset,
        instruments: c.instruments === null ? null : new Set(c.instruments),
        from: c.from,
        to: c.to,
      })),
    };
    this.versions.push(v);
    let wide = v.unknown;
    for (const c of v.changes) {
      if (c.instruments === null) wide = true;
      else
        for (const id of c.instruments) {
          const list = this.byInstrument.get(id);
          if (list === undefined) this.byInstrument.set(id, [version]);
          else if (list[list.length - 1] !== version) list.push(version);
        }
      if (BARS.has(c.dataset)) this.noteBars(version, c);
    }
    if (wide) this.wide.push(version);
    if (v.unknown) this.frontiers.noteUnknown(version);
  }

  /**
   * Notes version `version`'s change `c` of bars where it may move a last bar date: the store's,
   * and each market's and instrument's it names. Of daily bars (the dates are those of daily
   * bars: store/readers/equity-days.ts), every instrument named has a bar dated from `c.from`
   * on now (ingest/changes.ts: the dates of the rows that name it); the store, and a market or
   * an instrument named alone, one dated `c.to`. Changes naming no instrument may move any
   * market's or instrument's (wideBars).
   */
  private noteBars(version: number, c: Change): void {
    const to = c.to ?? Infinity;
    const daily = c.dataset === 'bars_1d';
    this.frontiers.note(version, to, daily ? (c.to ?? -Infinity) : -Infinity);
    if (c.instruments === null) {
      this.wideBars.noteUnknown(version);
      return;
    }
    const from = daily ? (c.from ?? -Infinity) : -Infinity;
    const markets = new Set([...c.instruments].map(marketOfId));
    for (const m of markets) this.frontier(this.marketFrontiers, m).note(version, to, markets.size === 1 && daily ? to : from);
    for (const id of c.instruments)
      this.frontier(this.instrumentFrontiers, id).note(version, to, c.instruments.size === 1 && daily ? to : from);
  }

  private frontier(of: Map<string, Frontiers>, key: string): Frontiers {
    let f = of.get(key);
    if (f === undefined) of.set(key, (f = new Frontiers()));
    return f;
  }

  /** Drops what is older than the last HISTORY versions, raising the floor. */
  private prune(): void {
    const excess = this.versions.length - HISTORY;
    if (excess <= 0) return;
    this.floor = this.versions[excess - 1].version;
    this.versions.splice(0, excess);
    const drop = (a: number[]) => a.splice(0, lastAtOrBelow(a, this.floor) + 1);
    drop(this.wide);
    for (const f of [this.frontiers, this.wideBars, ...this.marketFrontiers.values(), ...this.instrumentFrontiers.values()])
      f.prune(this.floor);
    for (const [id, list] of this.byInstrument) {
      drop(list);
      if (list.length === 0) this.byInstrument.delete(id);
    }
  }

  /**
   * The last version at or before `at` whose changes meet `scope`: what a page or a cache entry
   * of `scope` read at `at` is the data of (the same bytes at every version from it to `at`).
   * `at` itself when the index cannot tell (not built to `at`, or `at` at or below its floor).
   */
  lastTouch(at: number, scope: Scope): number {
    if (this.floor < 0 || at > this.top || at <= this.floor) return at;
    const key = `${at}|${keyOf(scope)}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let found = this.floor;
    if (scope.kind === 'instrument') {
      found = Math.max(found, this.lastIn(this.byInstrument.get(scope.id) ?? [], at, scope), this.lastIn(this.wide, at, scope));
      if (scope.pastData !== undefined) found = this.frontiers.after(found, at, scope.pastData);
      const ends: [Frontiers | undefined, number | undefined][] = [
        [this.marketFrontiers.get(marketOfId(scope.id)), scope.marketEnd],
        [this.instrumentFrontiers.get(scope.id), scope.ownEnd],
        [this.wideBars, Math.max(scope.marketEnd ?? 0, scope.ownEnd ?? 0) || undefined],
      ];
      for (const [f, date] of ends) if (f !== undefined && date !== undefined) found = f.after(found, at, date);
    } else {
      if (scope.kind === 'lastBar') {
        const f = scope.market === undefined ? this.frontiers : this.marketFrontiers.get(scope.market);
        // Versions of unknown changes, and the catalog's, are found below (a change of instruments moves a market's).
        for (const x of [f, this.wideBars]) if (x !== undefined) found = x.after(found, at, Infinity);
      }
      for (let i = lastAtOrBelow(this.versions, at); i >= 0 && this.versions[i].version > found; i--)
        if (touches(this.versions[i], scope)) {
          found = this.versions[i].version;
          break;
        }
    }
    this.memo.set(key, found);
    return found;
  }

  /** The last of `list`'s versions at or before `at` that touches `scope`, or the floor. */
  private lastIn(list: readonly number[], at: number, scope: Scope): number {
    for (let i = lastAtOrBelow(list, at); i >= 0; i--) {
      const v = this.versions[lastAtOrBelow(this.versions, list[i])];
      if (v !== undefined && v.version === list[i] && touches(v, scope)) return v.version;
    }
    return this.floor;
  }
}
