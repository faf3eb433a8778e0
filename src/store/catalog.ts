import type { Kysely, Selectable } from 'kysely';
import type { Database, InstrumentTable } from './schema.js';
import { INDICATOR_PAGES_KEY, parseIndicatorSetting } from './meta.js';

export type InstrumentRow = Selectable<InstrumentTable> & { is_st: boolean };
export interface InstrumentFilter { market?: string; board?: string; code?: string; name?: string }

/**
 * The catalog as of one data version (never changed once built): its instruments, read after
 * the version was, so as of that version or later (a later one is caught by the version read
 * after each response: http/plugins/http-cache.ts).
 */
export interface CatalogSnapshot {
  readonly version: string;
  readonly byId: ReadonlyMap<string, InstrumentRow>;
  /** The same rows by internal key. */
  readonly byInst: ReadonlyMap<number, InstrumentRow>;
  /**
   * Rows in ascending id order (binary, as the stores order ids) by kind, market and board,
   * each of the last two possibly `*` (any): `equity|SH|main`, `equity|*|star`, `index|*|*`.
   */
  readonly groups: ReadonlyMap<string, InstrumentRow[]>;
  readonly precomputed: ReadonlySet<string>;
}

/**
 * In-memory index of the (small) instrument table, so that resolving an instrument id on the
 * hot path costs a Map lookup. Reloaded when `meta.data_version` changes (ingestion bumps it),
 * checked at most once per `ttlMs`.
 *
 * One data version per response (docs/api.md, "Consistency"): `currentVersion()`, read once a
 * response is computed, tells whether the store moved on from the version the response is
 * tagged with (http/plugins/http-cache.ts).
 */
export class Catalog {
  private snap: CatalogSnapshot | null = null;
  private checkedAt = 0;
  private loading: Promise<void> | null = null;

  /**
   * `readVersion`: the store's data version, read now (the request path passes the store's
   * prepared-statement read, store.select; default: through Kysely). `now`: the clock of the
   * ttlMs check, in milliseconds (tests advance it instead of waiting).
   */
  constructor(private readonly db: Kysely<Database>, private readonly ttlMs = 1000, private readonly readVersion?: () => Promise<string | undefined>,
    private readonly now: () => number = Date.now) {}

  /** The latest snapshot (checked at most once per ttlMs). */
  private async current(): Promise<CatalogSnapshot> {
    await this.fresh();
    return this.snap!;
  }

  /** The latest snapshot; `reload` reads the data version now (and the catalog if it changed) instead of within ttlMs. */
  async snapshot(reload = false): Promise<CatalogSnapshot> {
    if (reload) {
      // A reload in flight may have read the version before the caller saw it change.
      if (this.loading) await this.loading;
      this.checkedAt = 0;
    }
    await this.fresh();
    return this.snap!;
  }

  /** The data version in the store now (one primary-key read of meta). */
  async currentVersion(): Promise<string> {
    if (this.readVersion) return (await this.readVersion()) ?? '0';
    const v = await this.db.selectFrom('meta').select('value').where('key', '=', 'data_version').executeTakeFirst();
    return v?.value ?? '0';
  }

  async get(id: string): Promise<InstrumentRow | undefined> {
    return (await this.current()).byId.get(id);
  }

  /**
   * Instruments of `kind` passing the filters (exact market, board and code; `name` a
   * case-insensitive substring), with id > `after`, ascending by id, at most `limit`.
   */
  async list(kind: string, f: InstrumentFilter, after: string | null, limit: number): Promise<InstrumentRow[]> {
    const rows = (await this.current()).groups.get(`${kind}|${f.market ?? '*'}|${f.board ?? '*'}`) ?? [];
    let lo = 0, hi = rows.length;
    while (after !== null && lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid].id <= after) lo = mid + 1; else hi = mid;
    }
    const name = f.name?.toLowerCase();
    const out: InstrumentRow[] = [];
    for (let i = lo; i < rows.length && out.length < limit; i++) {
      const r = rows[i];
      if ((f.market === undefined || r.market === f.market) && (f.board === undefined || r.board === f.board)
        && (f.code === undefined || r.code === f.code) && (name === undefined || r.name_lc.includes(name))) out.push(r);
    }
    return out;
  }

  /**
   * The indicators whose pages the store holds (derived/indicator-pages.ts), as of the data
   * version (`mds indicators precompute` bumps it).
   */
  async precomputed(): Promise<ReadonlySet<string>> {
    return (await this.current()).precomputed;
  }

  /** The data version the catalog currently reflects (changes when ingestion bumps it). */
  async dataVersion(): Promise<string> {
    return (await this.current()).version;
  }

  private async fresh(): Promise<void> {
    const now = this.now();
    if (now - this.checkedAt < this.ttlMs && this.snap !== null) return;
    this.loading ??= this.reload().finally(() => { this.loading = null; });
    await this.loading;
  }

  private async reload(): Promise<void> {
    const version = await this.currentVersion();
    this.checkedAt = this.now();
    if (version === this.snap?.version) return;
    const rows = await this.db.selectFrom('instruments').selectAll().execute();
    const setting = await this.db.selectFrom('meta').select('value').where('key', '=', INDICATOR_PAGES_KEY).executeTakeFirst();
    const st = await this.db.selectFrom('st_periods').select('inst').where('end_date', 'is', null).execute();
    const stSet = new Set(st.map((r) => r.inst));
    const map = new Map<string, InstrumentRow>();
    for (const r of rows) map.set(r.id, { ...r, is_st: stSet.has(r.inst) });
    const groups = new Map<string, InstrumentRow[]>();
    for (const r of [...map.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      for (const key of [`${r.kind}|*|*`, `${r.kind}|${r.market}|*`, `${r.kind}|*|${r.board}`, `${r.kind}|${r.market}|${r.board}`]) {
        const list = groups.get(key) ?? [];
        list.push(r);
        groups.set(key, list);
      }
    }
    this.snap = { version, byId: map, byInst: new Map([...map.values()].map((r) => [r.inst, r])), groups, precomputed: new Set(parseIndicatorSetting(setting?.value).ids) };
  }
}
