import type { CacheCounts } from '../lib/counted-cache.js';
import { WriterCache } from '../render/writer-cache.js';
import { Catalog, type CatalogSnapshot } from '../store/catalog.js';
import type { ReadSession, SnapshotWant, Store } from '../store/types.js';
import { ReferenceReader } from '../store/readers/reference.js';
import { MarketDataReader } from '../store/readers/market-data.js';
import { DailyPackCache } from '../store/readers/pack-cache.js';
import { FundamentalsReader } from '../store/readers/fundamentals.js';
import { KeysetReader } from '../store/readers/keyset.js';
import { IndexWeightReader } from '../store/readers/index-weights.js';
import { Suspensions } from './suspensions.js';
import { Valuations } from './valuations.js';
import { InstrumentSearch, SearchCaches } from './search.js';
import { AdjustmentReader } from '../store/readers/adjustments.js';
import { EquityDayReader } from '../store/readers/equity-days.js';
import { PoolReader } from '../store/readers/pools.js';
import { MarketDayReader } from '../store/readers/market-days.js';
import { Analytics, AnalyticsCaches } from './analytics.js';
import { CalendarCaches, Calendars } from './calendars.js';
import { EquityDayCaches, EquityDays } from './equity-days.js';
import { PoolCaches, Pools } from './pools.js';
import { MarketDayCaches, MarketDays } from './market-days.js';
import { ChangeIndex, type Scope } from './change-index.js';
import { changeLog, type DataVersion, type LogFilter } from '../store/versions.js';

/** What the trading calendars read (query/calendars.ts): loaded trading days (and markets). */
const CALENDAR_SCOPE: Scope = { kind: 'datasets', datasets: ['markets', 'trading_days'] };

/** The daily pack cache's default bound, MB (PACK_CACHE_MB). */
export const DEFAULT_PACK_CACHE_MB = 64;

/**
 * What the queries keep across requests, every entry keyed by the data version of what it
 * holds: the catalogs, adjustment factors and series, indicator checkpoints, calendars, equity
 * days, pools and market days. An entry of an instrument, a date or the catalog is keyed by the
 * last version that changed it (Snapshot.versionOf, the change log's index), so it serves every
 * later version that did not: a commit leaves the entries it did not touch in use. A snapshot
 * reads an entry only of what its own version holds.
 */
export class QueryCaches {
  readonly catalog = new Catalog();
  /** The change log in memory: which version last changed what (change-index.ts). */
  readonly changes = new ChangeIndex();
  readonly analytics = new AnalyticsCaches();
  readonly calendars = new CalendarCaches();
  readonly equityDays = new EquityDayCaches();
  readonly pools = new PoolCaches();
  readonly marketDays = new MarketDayCaches();
  readonly search = new SearchCaches();
  /** The JSON record writers made for instruments (render/writer-cache.ts). */
  readonly writers = new WriterCache();
  /** Instruments' daily packs, for a store whose reads cost a round trip (store/readers/pack-cache.ts). */
  readonly packs: DailyPackCache;

  /** `packCacheBytes`: the daily pack cache's bound (PACK_CACHE_MB). */
  constructor(packCacheBytes = DEFAULT_PACK_CACHE_MB * 2 ** 20) {
    this.packs = new DailyPackCache(packCacheBytes);
  }

  /** The caches, counted (CacheCounts), for the metrics. */
  get all(): CacheCounts[] {
    return [
      ...[this.calendars, this.analytics, this.equityDays, this.pools, this.marketDays, this.search].flatMap((c) => c.all),
      this.packs.counts,
    ];
  }
}

/**
 * One request's view of the data: a read snapshot of the store (ReadSession, one data version)
 * with the catalog of that version, and the readers and queries over it, made when first asked
 * for. Everything a response shows is read through one Snapshot, so it is of one version.
 * `release` ends the snapshot (its connection goes back to its pool); the HTTP layer calls it
 * once the response's last read is done.
 */
export class Snapshot {
  private r?: ReferenceReader;
  private m?: MarketDataReader;
  private f?: FundamentalsReader;
  private k?: KeysetReader;
  private iw?: IndexWeightReader;
  private s?: Suspensions;
  private vl?: Valuations;
  private sr?: InstrumentSearch;
  private c?: Calendars;
  private a?: Analytics;
  private e?: EquityDays;
  private p?: Pools;
  private d?: MarketDays;
  private md?: MarketDayReader;

  /** `keepPacks`: the store's reads cost a round trip, so daily packs are read whole and kept (QueryCaches.packs). */
  constructor(
    private readonly session: ReadSession,
    readonly catalog: CatalogSnapshot,
    private readonly caches: QueryCaches,
    private readonly keepPacks = false,
  ) {}

  /** The record writers kept across requests. */
  get writers(): WriterCache {
    return this.caches.writers;
  }

  /** The data version everything here reads. */
  get version(): number {
    return this.session.version;
  }

  /**
   * The last version at or before this one that changed what `scope` depends on (the change
   * log's answer, change-index.ts): a page or a cache entry of `scope` is that version's data.
   */
  versionOf(scope: Scope): number {
    return this.caches.changes.lastTouch(this.version, scope);
  }

  /**
   * The last version that changed the instrument `inst` (by internal key), or only its
   * `datasets` (change-scope.ts): whatever it shows of those is that version's.
   */
  private instrumentVersion(inst: number, datasets?: readonly string[]): number {
    const row = this.catalog.byInst.get(inst);
    return row === undefined ? this.version : this.versionOf({ kind: 'instrument', id: row.id, datasets });
  }

  /** Where it reads (`primary`, `replica …`) on a store with replicas; else undefined. */
  get source(): string | undefined {
    return this.session.source;
  }

  /** The last version that changed `inst`'s daily bars of `year` (or anything else of it). */
  private packVersion(inst: number, year: number): number {
    const row = this.catalog.byInst.get(inst);
    if (row === undefined) return this.version;
    return this.versionOf({ kind: 'instrument', id: row.id, bars: { from: year * 10000 + 101, to: year * 10000 + 1231 } });
  }

  get reference(): ReferenceReader {
    return (this.r ??= new ReferenceReader(this.session.db));
  }
  get marketData(): MarketDataReader {
    return (this.m ??= new MarketDataReader(
      this.session,
      this.keepPacks ? { version: (inst, year) => this.packVersion(inst, year), cache: this.caches.packs } : undefined,
    ));
  }
  get fundamentals(): FundamentalsReader {
    return (this.f ??= new FundamentalsReader(this.session.db));
  }
  /** Keyset reads of declared datasets (store/readers/keyset.ts). */
  get keyset(): KeysetReader {
    return (this.k ??= new KeysetReader(this.session.db));
  }
  /** Index members and weights over time (store/readers/index-weights.ts). */
  get indexWeights(): IndexWeightReader {
    return (this.iw ??= new IndexWeightReader(this.session.db));
  }
  get calendars(): Calendars {
    return (this.c ??= new Calendars(this.reference, this.versionOf(CALENDAR_SCOPE), this.caches.calendars));
  }
  get analytics(): Analytics {
    return (this.a ??= new Analytics(new AdjustmentReader(this.session.db), this.marketData, this.caches.analytics, (inst, datasets) =>
      this.instrumentVersion(inst, datasets),
    ));
  }
  get equityDays(): EquityDays {
    return (this.e ??= new EquityDays(
      new EquityDayReader(this.session.db),
      this.catalog,
      this.marketData,
      this.calendars,
      this.caches.equityDays,
      (inst, datasets) => this.instrumentVersion(inst, datasets),
      (market) => this.versionOf({ kind: 'lastBar', market }),
    ));
  }
  /** An equity's suspensions, loaded or derived from its bars (query/suspensions.ts). */
  get suspensions(): Suspensions {
    return (this.s ??= new Suspensions(this.keyset, new EquityDayReader(this.session.db), this.calendars));
  }
  /** Instrument search over this version's catalog (query/search.ts). */
  get search(): InstrumentSearch {
    return (this.sr ??= new InstrumentSearch(this.catalog, this.caches.search));
  }
  /** An equity's daily valuations as known at each close (query/valuations.ts). */
  get valuations(): Valuations {
    return (this.vl ??= new Valuations(this.marketData, this.keyset, this.fundamentals));
  }
  get pools(): Pools {
    return (this.p ??= new Pools(
      new PoolReader(this.session.db),
      this.marketDayReader,
      this.catalog,
      this.marketData,
      this.caches.pools,
      (date) => this.versionOf({ kind: 'market', to: date }),
    ));
  }
  get marketDays(): MarketDays {
    return (this.d ??= new MarketDays(this.marketDayReader, this.catalog, this.caches.marketDays, (date) =>
      this.versionOf({ kind: 'market', to: date }),
    ));
  }
  private get marketDayReader(): MarketDayReader {
    return (this.md ??= new MarketDayReader(this.session));
  }

  /** The versions after `after` this snapshot holds that match `filter`, at most `limit` (store/versions.ts changeLog). */
  changeLog(after: number, limit: number, filter?: LogFilter): Promise<DataVersion[]> {
    return changeLog((sql, params) => this.session.selectRows(sql, params), after, limit, filter);
  }

  release(): void {
    this.session.release();
  }
}

/**
 * Opens a Snapshot of `store` now (its catalog read in it when the version is new); StoreUnavailable
 * when the store cannot answer. `want`: what it must see, on a store with replicas.
 */
export async function openSnapshot(
  store: Pick<Store, 'snapshot' | 'readCost'>,
  caches: QueryCaches,
  want?: SnapshotWant,
): Promise<Snapshot> {
  const session = await store.snapshot(want);
  try {
    // A new version: its changes read into the index (one query), before anything is keyed by it.
    await caches.changes.advance(
      (q, p) => session.selectRows(q, p),
      session.version,
      () => new EquityDayReader(session.db).lastBarDates(),
    );
    const catalog = await caches.catalog.at(session, (v) => caches.changes.lastTouch(v, { kind: 'catalog' }));
    return new Snapshot(session, catalog, caches, store.readCost === 'round-trip' && caches.packs.enabled);
  } catch (e) {
    session.release();
    throw e;
  }
}
