/**
 * What validation knows beyond one row: the instruments, markets, classifications and trading
 * days in the store, plus those loaded earlier in the same command (which is one transaction,
 * so they are visible to the rest of it). New instruments get new `inst` keys here.
 */
import type { BulkSession } from '../store/store.js';

export type Kind = 'equity' | 'index' | 'fund';
export interface KnownInstrument { inst: number; kind: Kind; market: string }

/** Maps instrument ids to the store's `inst` keys and back. */
export interface Resolver {
  /** The `inst` of a known instrument of one of `kinds`, else undefined. */
  inst(id: string, kinds: readonly Kind[]): number | undefined;
  id(inst: number): string;
}

export class IngestContext implements Resolver {
  private readonly byId = new Map<string, KnownInstrument>();
  private readonly byInst = new Map<number, string>();
  private readonly marketByInst = new Map<number, string>();
  private nextInst = 1;
  readonly markets = new Set<string>();
  readonly classifications = new Set<string>();
  private readonly days = new Map<string, Set<number>>();

  static async load(s: BulkSession): Promise<IngestContext> {
    const c = new IngestContext();
    for (const r of await s.query<{ inst: number; id: string; kind: Kind; market: string }>('select inst, id, kind, market from instruments')) {
      c.remember(r.id, r);
    }
    for (const r of await s.query<{ id: string }>('select id from markets')) c.markets.add(r.id);
    for (const r of await s.query<{ id: string }>('select id from classifications')) c.classifications.add(r.id);
    for (const r of await s.query<{ market: string; date: number }>('select market, date from trading_days')) c.addTradingDay(r.market, r.date);
    return c;
  }

  private remember(id: string, x: KnownInstrument): void {
    this.byId.set(id, x);
    this.byInst.set(x.inst, id);
    this.marketByInst.set(x.inst, x.market);
    if (x.inst >= this.nextInst) this.nextInst = x.inst + 1;
  }

  inst(id: string, kinds: readonly Kind[]): number | undefined {
    const x = this.byId.get(id);
    return x !== undefined && kinds.includes(x.kind) ? x.inst : undefined;
  }

  id(inst: number): string {
    const id = this.byInst.get(inst);
    if (id === undefined) throw new Error(`no instrument with inst ${inst}`);
    return id;
  }

  /** The `inst` of an instrument row: its existing key, or the next free one (registered). */
  upsertInstrument(id: string, kind: Kind, market: string): number {
    const known = this.byId.get(id);
    const inst = known?.inst ?? this.nextInst;
    this.remember(id, { inst, kind, market });
    return inst;
  }

  addTradingDay(market: string, date: number): void {
    let set = this.days.get(market);
    if (!set) { set = new Set(); this.days.set(market, set); }
    set.add(date);
  }

  isTradingDay(market: string, date: number): boolean {
    return this.days.get(market)?.has(date) ?? false;
  }

  /** Market of a known inst (for trading-day checks). */
  marketOf(inst: number): string {
    return this.marketByInst.get(inst)!;
  }
}
