import type { Selectable } from 'kysely';
import type { InstrumentTable } from './schema.js';
import type { ReadDb, ReadSession } from './types.js';
import { INDICATOR_PAGES_KEY, parseIndicatorSetting } from './meta.js';

export type InstrumentRow = Selectable<InstrumentTable> & { is_st: boolean };
export interface InstrumentFilter {
  market?: string;
  board?: string;
  code?: string;
  name?: string;
}

/**
 * The catalog of one data version (never changed once built), read within a snapshot of that
 * version: its instruments, indexed so that resolving an instrument id on the hot path costs a
 * Map lookup, and the indicators the store precomputes.
 */
export class CatalogSnapshot {
  /**
   * Rows in ascending id order (binary, as the stores order ids) by kind, market and board,
   * each of the last two possibly `*` (any): `equity|SH|main`, `equity|*|star`, `index|*|*`.
   */
  readonly groups: ReadonlyMap<string, InstrumentRow[]>;
  /** The same rows by internal key. */
  readonly byInst: ReadonlyMap<number, InstrumentRow>;

  /**
   * `version`: the data version it serves; `base`: the one it was read at (an earlier one when
   * no version since changed the catalog: Catalog.at carries it over).
   */
  constructor(
    readonly version: number,
    readonly byId: ReadonlyMap<string, InstrumentRow>,
    readonly precomputed: ReadonlySet<string>,
    readonly base = version,
    built?: Pick<CatalogSnapshot, 'groups' | 'byInst'>,
  ) {
    if (built) {
      this.groups = built.groups;
      this.byInst = built.byInst;
      return;
    }
    const groups = new Map<string, InstrumentRow[]>();
    for (const r of [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      for (const key of [`${r.kind}|*|*`, `${r.kind}|${r.market}|*`, `${r.kind}|*|${r.board}`, `${r.kind}|${r.market}|${r.board}`]) {
        const list = groups.get(key) ?? [];
        list.push(r);
        groups.set(key, list);
      }
    }
    this.groups = groups;
    this.byInst = new Map([...byId.values()].map((r) => [r.inst, r]));
  }

  get(id: string): InstrumentRow | undefined {
    return this.byId.get(id);
  }

  /** The same catalog serving version `version` (one that did not change it), its indexes shared. */
  at(version: number): CatalogSnapshot {
    return new CatalogSnapshot(version, this.byId, this.precomputed, this.base, this);
  }

  /**
   * Instruments of `kind` passing the filters (exact market, board and code; `name` a
   * case-insensitive substring), with id > `after`, ascending by id, at most `limit`.
   */
  list(kind: string, f: InstrumentFilter, after: string | null, limit: number): InstrumentRow[] {
    const rows = this.groups.get(`${kind}|${f.market ?? '*'}|${f.board ?? '*'}`) ?? [];
    let lo = 0,
      hi = rows.length;
    while (after !== null && lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid].id <= after) lo = mid + 1;
      else hi = mid;
    }
    const name = f.name?.toLowerCase();
    const out: InstrumentRow[] = [];
    for (let i = lo; i < rows.length && out.length < limit; i++) {
      const r = rows[i];
      if (
        (f.market === undefined || r.market === f.market) &&
        (f.board === undefined || r.board === f.board) &&
        (f.code === undefined || r.code === f.code) &&
        (name === undefined || r.name_lc.includes(name))
      )
        out.push(r);
    }
    return out;
  }

  /** Reads the catalog of the version `version` that `db` reads (a snapshot's). */
  static async read(db: ReadDb, version: number): Promise<CatalogSnapshot> {
    const rows = await db.selectFrom('instruments').selectAll().execute();
    const setting = await db.selectFrom('meta').select('value').where('key', '=', INDICATOR_PAGES_KEY).executeTakeFirst();
    const st = await db.selectFrom('st_periods').select('inst').where('end_date', 'is', null).execute();
    const stSet = new Set(st.map((r) => r.inst));
    const byId = new Map<string, InstrumentRow>();
    for (const r of rows) byId.set(r.id, { ...r, is_st: stSet.has(r.inst) });
    return new CatalogSnapshot(version, byId, new Set(parseIndicatorSetting(setting?.value).ids));
  }
}

/**
 * The catalogs of the data versions requests read, kept across requests: the latest two (while
 * an ingest commits, requests of the old version and of the new one run side by side). A
 * version's catalog is read once, in the snapshot of the first request of that version, unless
 * no version since a kept one changed it (`changedAt`, the change log's answer: the last
 * version at or before it that changed the catalog): that one is carried over.
 */
export class Catalog {
  private readonly kept = new Map<number, Promise<CatalogSnapshot>>();
  /** Catalogs carried over to a new version instead of read (for the tests and the metrics). */
  carried = 0;

  /** The catalog of `session`'s data version. */
  at(session: Pick<ReadSession, 'version' | 'db'>, changedAt?: (version: number) => number): Promise<CatalogSnapshot> {
    let c = this.kept.get(session.version);
    if (c === undefined) {
      const v = session.version;
      const since = changedAt?.(v) ?? v;
      const from = Math.max(-1, ...[...this.kept.keys()].filter((k) => k >= since && k < v));
      const read = () => CatalogSnapshot.read(session.db, v);
      if (from >= 0) {
        this.carried++;
        c = this.kept.get(from)!.then((old) => old.at(v), read);
      } else c = read();
      c.catch(() => this.kept.delete(v));
      this.kept.set(v, c);
      // Keep the two highest versions.
      if (this.kept.size > 2) this.kept.delete(Math.min(...this.kept.keys()));
    }
    return c;
  }
}
