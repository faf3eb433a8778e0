import type { Kysely, Selectable } from 'kysely';
import type { Database, InstrumentTable } from './schema.js';
import { parseSetting } from './indicator-pages.js';

export type InstrumentRow = Selectable<InstrumentTable> & { is_st: boolean };
export interface InstrumentFilter { market?: string; board?: string; code?: string; name?: string }

/**
 * In-memory index of the (small) instrument table, so that resolving an instrument id on the
 * hot path costs a Map lookup. Reloaded when `meta.data_version` changes (ingestion bumps it),
 * checked at most once per `ttlMs`.
 */
export class Catalog {
  private byId = new Map<string, InstrumentRow>();
  /**
   * Rows in ascending id order (binary, as the stores order ids) by kind, market and board,
   * each of the last two possibly `*` (any): `equity|SH|main`, `equity|*|star`, `index|*|*`.
   */
  private groups = new Map<string, InstrumentRow[]>();
  private version: string | null = null;
  private precomputedIds: ReadonlySet<string> = new Set();
  private checkedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly db: Kysely<Database>, private readonly ttlMs = 1000) {}

  async get(id: string): Promise<InstrumentRow | undefined> {
    await this.fresh();
    return this.byId.get(id);
  }

  /**
   * Instruments of `kind` passing the filters (exact market, board and code; `name` a
   * case-insensitive substring), with id > `after`, ascending by id, at most `limit`.
   */
  async list(kind: string, f: InstrumentFilter, after: string | null, limit: number): Promise<InstrumentRow[]> {
    await this.fresh();
    const rows = this.groups.get(`${kind}|${f.market ?? '*'}|${f.board ?? '*'}`) ?? [];
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
   * The indicators whose pages the store holds (store/indicator-pages.ts), as of the data
   * version (`mds indicators precompute` bumps it).
   */
  async precomputed(): Promise<ReadonlySet<string>> {
    await this.fresh();
    return this.precomputedIds;
  }

  /** The data version the catalog currently reflects (changes when ingestion bumps it). */
  async dataVersion(): Promise<string> {
    await this.fresh();
    return this.version ?? '0';
  }

  private async fresh(): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt < this.ttlMs && this.version !== null) return;
    this.loading ??= this.reload().finally(() => { this.loading = null; });
    await this.loading;
  }

  private async reload(): Promise<void> {
    const v = await this.db.selectFrom('meta').select('value').where('key', '=', 'data_version').executeTakeFirst();
    const version = v?.value ?? '0';
    this.checkedAt = Date.now();
    if (version === this.version) return;
    const rows = await this.db.selectFrom('instruments').selectAll().execute();
    const setting = await this.db.selectFrom('meta').select('value').where('key', '=', 'indicator_pages').executeTakeFirst();
    const st = await this.db.selectFrom('st_periods').select('inst').where('end_date', 'is', null).execute();
    const stSet = new Set(st.map((r) => r.inst));
    const map = new Map<string, InstrumentRow>();
    for (const r of rows) map.set(r.id, { ...r, is_st: stSet.has(r.inst) });
    this.byId = map;
    const groups = new Map<string, InstrumentRow[]>();
    for (const r of [...map.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      for (const key of [`${r.kind}|*|*`, `${r.kind}|${r.market}|*`, `${r.kind}|*|${r.board}`, `${r.kind}|${r.market}|${r.board}`]) {
        const list = groups.get(key) ?? [];
        list.push(r);
        groups.set(key, list);
      }
    }
    this.groups = groups;
    this.precomputedIds = new Set(parseSetting(setting?.value).ids);
    this.version = version;
  }
}
