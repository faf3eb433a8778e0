/**
 * What a dataset's row checks and derived columns may ask beyond the row itself: the
 * instruments, markets, classifications and trading days known to the load (the store's and
 * those loaded earlier in the same command). Ingest implements it (ingest/context.ts).
 */
import type { InstrumentKind } from '../market/kinds.js';

/** Maps instrument ids to the store's `inst` keys and back. */
export interface Resolver {
  /** The `inst` of a known instrument of one of `kinds`, else undefined. */
  inst(id: string, kinds: readonly InstrumentKind[]): number | undefined;
  id(inst: number): string;
}

export interface RowContext extends Resolver {
  readonly markets: Set<string>;
  readonly classifications: Set<string>;
  /** The `inst` of an instrument row: its existing key, or the next free one (registered). */
  upsertInstrument(id: string, kind: InstrumentKind, market: string, listDate?: number | null): number;
  addTradingDay(market: string, date: number, open?: boolean): void;
  /** A trading day of `market`: as loaded, else by the shipped calendar. */
  isTradingDay(market: string, date: number): boolean;
  /** Market of a known inst. */
  marketOf(inst: number): string;
}
