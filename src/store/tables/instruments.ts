/**
 * Statements on `instruments` outside the request path (whose instruments are the catalog's,
 * store/catalog.ts): what ingest, the derivations, the demo and the command line read of them.
 */
import type { InstrumentKind } from '../../market/kinds.js';
import type { BulkSession } from '../types.js';
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

/**
 * Every instrument as the market days are made of it (derived/market-days.ts), as stored, in
 * `order`: `[inst, id, kind, market, board, list_date, delist_date, listing_kind]`.
 */
export function sweepInstruments(s: BulkSession, order: 'id' | 'inst'): Promise<unknown[][]> {
  return s.queryRows(`select inst, id, kind, market, board, list_date, delist_date, listing_kind from instruments order by ${order}`);
}
