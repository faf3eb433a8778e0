import type { Kysely, Selectable } from 'kysely';
import type { Database, InstrumentTable } from './schema.js';

export type InstrumentRow = Selectable<InstrumentTable> & { is_st: boolean };

/**
 * In-memory index of the (small) instrument table, so that resolving an instrument id on the
 * hot path costs a Map lookup. Reloaded when `meta.data_version` changes (ingestion bumps it),
 * checked at most once per `ttlMs`.
 */
export class Catalog {
  private byId = new Map<string, InstrumentRow>();
  private version: string | null = null;
  private checkedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly db: Kysely<Database>, private readonly ttlMs = 1000) {}

  async get(id: string): Promise<InstrumentRow | undefined> {
    await this.fresh();
    return this.byId.get(id);
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
    const st = await this.db.selectFrom('st_periods').select('inst').where('end_date', 'is', null).execute();
    const stSet = new Set(st.map((r) => r.inst));
    const map = new Map<string, InstrumentRow>();
    for (const r of rows) map.set(r.id, { ...r, is_st: stSet.has(r.inst) });
    this.byId = map;
    this.version = version;
  }
}
