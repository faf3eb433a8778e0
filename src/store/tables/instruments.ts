/**
 * Statements on `instruments` outside the request path (whose instruments are the catalog's,
 * store/catalog.ts): what ingest, the derivations, the demo and the command line read of them.
 */
import type { InstrumentKind } from '../../market/kinds.js';
import type { BulkSession, ReadDb, Store } from '../types.js';
import type { InstrumentTable } from '../schema.js';
import { list } from './lists.js';

/** What rendering an instrument's pages needs of it (derived/indicator-pages.ts). */
export interface IdAndKind {
  id: string;
  kind: InstrumentKind;
}

/** Instruments per `in (…)` read. */
const PER_READ = 500;

/** The `inst` of every instrument. */
export async function instrumentKeys(s: BulkSession): Promise<number[]> {
  return (await s.queryRows('select inst from instruments')).map((r) => Number(r[0]));
}

/** The id and kind of instruments `insts` (those stored), by inst. */
export async function idsAndKinds(s: BulkSession, insts: readonly number[]): Promise<Map<number, IdAndKind>> {
  const out = new Map<number, IdAndKind>();
  for (let i = 0; i < insts.length; i += PER_READ) {
    const part = insts.slice(i, i + PER_READ);
    const rows = await s.queryRows(`select inst, id, kind from instruments where inst in (${list(part.length)})`, part);
    for (const [inst, id, kind] of rows as [number, string, InstrumentKind][]) out.set(inst, { id, kind });
  }
  return out;
}

/** The id of every instrument, by inst. */
export async function idsByInst(s: BulkSession): Promise<Map<number, string>> {
  return new Map((await s.queryRows('select inst, id from instruments')).map(([i, id]) => [Number(i), String(id)]));
}

/** Every instrument as ingest's validation knows it (ingest/context.ts). */
export function knownInstruments(
  s: BulkSession,
): Promise<
  { inst: number; id: string; kind: InstrumentKind; market: string; list_date: number | null; list_date_source: string | null }[]
> {
  return s.query('select inst, id, kind, market, list_date, list_date_source from instruments');
}

/**
 * Every instrument as the market days are made of it (derived/market-days.ts), as stored, in
 * `order`: `[inst, id, kind, market, board, list_date, delist_date, listing_kind, name]` (the
 * name: its `S` mark sets the limit of a share not through the split-share reform).
 */
export function sweepInstruments(s: BulkSession, order: 'id' | 'inst'): Promise<unknown[][]> {
  return s.queryRows(`select inst, id, kind, market, board, list_date, delist_date, listing_kind, name from instruments order by ${order}`);
}

/** The equity `inst` as its price limits need it (ingest/limit-check.ts); undefined when it is not an equity. */
export async function equityOf(
  s: BulkSession,
  inst: number,
): Promise<
  { id: string; name: string; board: string | null; market: string; list_date: number | null; listing_kind: string | null } | undefined
> {
  const [eq] = await s.query<{
    id: string;
    name: string;
    board: string | null;
    market: string;
    list_date: number | null;
    listing_kind: string | null;
  }>("select id, name, board, market, list_date, listing_kind from instruments where inst = ? and kind = 'equity'", [inst]);
  return eq;
}

/** The id, name and kind of every instrument (the demo's description). */
export function instrumentNames(store: Pick<Store, 'select'>): Promise<{ id: string; name: string; kind: string }[]> {
  return store.select('select id, name, kind from instruments', []);
}

/** Whether the store holds any instrument. */
export async function hasInstruments(db: ReadDb): Promise<boolean> {
  return (await db.selectFrom('instruments').select('inst').limit(1).execute()).length > 0;
}

/** Every equity with what the demo's fundamentals are made of, by inst. */
export function equityRows(
  s: BulkSession,
): Promise<
  Pick<InstrumentTable, 'inst' | 'id' | 'code' | 'market' | 'board' | 'name' | 'name_en' | 'list_date' | 'total_shares' | 'float_shares'>[]
> {
  return s.query(
    "select inst, id, code, market, board, name, name_en, list_date, total_shares, float_shares from instruments where kind = 'equity' order by inst",
  );
}
