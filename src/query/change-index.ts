import { LRUCache } from 'lru-cache';
import { changesSince, type DataChange, type RowSource } from '../store/versions.js';

/**
 * What a response or a cache entry depends on, as the change log can tell (store/versions.ts):
 * - `instrument`: one instrument's data (any of its datasets) and what names no instrument
 *   (calendars, derivation rebuilds, a demo build). `bars`: only its bar rows dated in
 *   [from, to] (YYYYMMDD) matter of its bars (bars_1d, bars_1m); without it, every date does.
 *   `pastData`: the first date of a window whose first page says where the store's data end
 *   (bars.ts pastTheData): a version that moves the store's last bar date matters while that date is before it.
 * - `market`: a market-wide day or range (cross-sections, breadth, pools) up to `to`: every
 *   change but of fundamentals, dated on or before `to` or undated (streaks, reference prices
 *   and limits of a day come from the days before it, never after).
 * - `catalog`: the instruments, their ST flags and the precomputed indicator setting.
 */
export type Scope =
  | { kind: 'instrument'; id: string; bars?: { from: number; to: number }; pastData?: number }
  | { kind: 'market'; to: number }
  | { kind: 'catalog' };

/** Datasets whose rows are bars, dated by the bar. */
const BARS = new Set(['bars_1d', 'bars_1m']);
/** Datasets no market-wide page reads (market days, breadth and pools read bars, limits, listings, share capital, ticks). */
const NOT_MARKET = new Set([
  'income_statements',
  'balance_sheets',
  'cash_flow_statements',
  'financial_indicators',
  'dividends',
  'earnings_forecasts',
  'institutional_holdings',
  'management',
  'company_profiles',
  'business_scope',
  'capital_flows',
  'margin_trading',
  'classifications',
  'instrument_classifications',
  'index_constituents',
]);
/** Ingest datasets that do not change the catalog (CatalogSnapshot.read: instruments, st_periods, the indicator setting). */
const NOT_CATALOG = new Set([
  ...NOT_MARKET,
  ...BARS,
  'quotes',
  'trades',
  'corporate_actions',
  'adj_factors',
  'markets',
  'trading_days',
  'share_capital',
  'suspensions',
]);

/** Versions kept in the index; an older one counts as touching everything (the floor). */
const HISTORY = 4096;
/** Versions read per query while catching up. */
const READ_BATCH = 1000;

interface Change {
  dataset: string;
  instruments: ReadonlySet<string> | null;
  from: number | null;
  to: number | null;
}

interface Version {
  version: number;
  /** Nothing logged (a version recorded without its changes): it counts as changing everything. */
  unknown: boolean;
  changes: Change[];
}

/** A version that moved the store's last bar date, from `before` (a lower bound of it) on. */
interface Frontier {
  version: number;
  before: number;
}

const names = (c: Change, id: string) => c.instruments === null || c.instruments.has(id);

/** Whether a change of bars dated [from, to] (null: unknown) meets [lo, hi]. */
const meets = (c: Change, lo: number, hi: number) => c.from === null || c.to === null || (c.from <= hi && c.to >= lo);

function touches(v: Version, s: Scope): boolean {
  if (v.unknown) return true;
  for (const c of v.changes) {
    if (s.kind === 'catalog') {
      if (!NOT_CATALOG.has(c.dataset)) return true;
    } else if (s.kind === 'market') {
      if (!NOT_MARKET.has(c.dataset) && (c.from === null || c.from <= s.to)) return true;
    } else if (names(c, s.id) && (s.bars === undefined || !BARS.has(c.dataset) || meets(c, s.bars.from, s.bars.to))) return true;
  }
  return false;
}

/** The key of a scope, for the memo. */
function keyOf(s: Scope): string {
  if (s.kind === 'catalog') return 'c';
  if (s.kind === 'market') return `m|${s.to}`;
  return `i|${s.id}|${s.bars ? `${s.bars.from}-${s.bars.to}` : ''}|${s.pastData ?? ''}`;
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

/**
 * The change log in memory (store/versions.ts), for answering "the last version at or before
 * `at` that changed what `scope` depends on" (lastTouch): an ETag and a cache entry name that
 * version instead of the snapshot's, so a commit that did not touch a page leaves its tag and
 * the server's cache entries as they were (docs/architecture.md, "The data spine"). Built from
 * the last HISTORY versions of the log when first asked, then advanced version by version as
 * snapshots of newer ones open; an instrument's versions are indexed by instrument id, those
 * naming no instrument apart. Anything the log cannot vouch for counts as touched: versions at
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
  private readonly frontiers: Frontier[] = [];
  /** The store's last bar date as far as known (a lower bound). */
  private lastBarDate = 0;
  private pending: Promise<void> | null = null;
  private readonly memo = new LRUCache<string, number>({ max: 50_000 });

  /** The highest version indexed (0 before the first advance). */
  get version(): number {
    return this.top;
  }

  /**
   * Indexes the versions up to `to`, read by `rows` (a snapshot of `to` or later); `lastBarDate`
   * reads the store's last bar date there (once, when the index is first built). Concurrent
   * callers share one read.
   */
  async advance(rows: RowSource, to: number, lastBarDate: () => Promise<number | null>): Promise<void> {
    while (this.top < to) {
      const mine = this.pending === null;
      if (mine)
        this.pending = this.read(rows, to, lastBarDate).finally(() => {
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

  private async read(rows: RowSource, to: number, lastBarDate: () => Promise<number | null>): Promise<void> {
    if (this.floor < 0) {
      this.floor = Math.max(0, to - HISTORY);
      this.top = this.floor;
      // Dates below it are a lower bound for the history's versions; the store's own at `to` for those after.
      const known = (await lastBarDate()) ?? 0;
      await this.catchUp(rows, to);
      this.lastBarDate = Math.max(this.lastBarDate, known);
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
    let barsTo = 0;
    for (const c of v.changes) {
      if (c.instruments === null) wide = true;
      else
        for (const id of c.instruments) {
          const list = this.byInstrument.get(id);
          if (list === undefined) this.byInstrument.set(id, [version]);
          else if (list[list.length - 1] !== version) list.push(version);
        }
      if (BARS.has(c.dataset)) barsTo = Math.max(barsTo, c.to ?? Infinity);
    }
    if (wide) this.wide.push(version);
    if (v.unknown || barsTo > this.lastBarDate) {
      this.frontiers.push({ version, before: v.unknown ? 0 : this.lastBarDate });
      if (Number.isFinite(barsTo)) this.lastBarDate = barsTo;
    }
  }

  /** Drops what is older than the last HISTORY versions, raising the floor. */
  private prune(): void {
    const excess = this.versions.length - HISTORY;
    if (excess <= 0) return;
    this.floor = this.versions[excess - 1].version;
    this.versions.splice(0, excess);
    const drop = (a: number[]) => a.splice(0, lastAtOrBelow(a, this.floor) + 1);
    drop(this.wide);
    this.frontiers.splice(0, lastAtOrBelow(this.frontiers, this.floor) + 1);
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
      const past = scope.pastData;
      if (past !== undefined)
        for (let i = lastAtOrBelow(this.frontiers, at); i >= 0 && this.frontiers[i].version > found; i--)
          if (past > this.frontiers[i].before) {
            found = this.frontiers[i].version;
            break;
          }
    } else {
      for (let i = lastAtOrBelow(this.versions, at); i >= 0; i--)
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
