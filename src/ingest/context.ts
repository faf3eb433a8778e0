/**
 * What validation knows beyond one row: the instruments, markets, classifications and trading
 * days in the store, plus those loaded earlier in the same command (which is one transaction,
 * so they are visible to the rest of it). New instruments get new `inst` keys here.
 */
import type { BulkSession } from '../store/types.js';
import { knownInstruments } from '../store/tables/instruments.js';
import { classificationIds, marketIds, tradingDays } from '../store/tables/reference.js';
import { SHIPPED_CALENDARS, type TradingCalendar } from '../market/calendar.js';
import type { MarketId } from '../market/types.js';
import type { InstrumentKind } from '../market/kinds.js';
import type { RowContext } from '../datasets/context.js';

export interface KnownInstrument {
  inst: number;
  kind: InstrumentKind;
  market: string;
  listDate: number | null;
  /** Where the listing date came from (LIST_DATE_SOURCES; first_bar and before_first_bar: a Tongdaxin load made it); null when unknown. */
  listDateSource?: string | null;
}

export class IngestContext implements RowContext {
  private readonly byId = new Map<string, KnownInstrument>();
  private readonly byInst = new Map<number, string>();
  private readonly marketByInst = new Map<number, string>();
  private nextInst = 1;
  readonly markets = new Set<string>();
  readonly classifications = new Set<string>();
  /** Loaded trading days (stored, then this command's): open (true) or closed; they override the shipped calendar. */
  private readonly days = new Map<string, Map<number, boolean>>();

  static async load(s: BulkSession): Promise<IngestContext> {
    const c = new IngestContext();
    for (const r of await knownInstruments(s)) {
      c.remember(r.id, {
        inst: r.inst,
        kind: r.kind,
        market: r.market,
        listDate: r.list_date === null ? null : Number(r.list_date),
        listDateSource: r.list_date_source,
      });
    }
    for (const id of await marketIds(s)) c.markets.add(id);
    for (const id of await classificationIds(s)) c.classifications.add(id);
    for (const r of await tradingDays(s)) c.addTradingDay(r.market, r.date, r.is_open !== 0);
    return c;
  }

  private remember(id: string, x: KnownInstrument): void {
    this.byId.set(id, x);
    this.byInst.set(x.inst, id);
    this.marketByInst.set(x.inst, x.market);
    if (x.inst >= this.nextInst) this.nextInst = x.inst + 1;
  }

  inst(id: string, kinds: readonly InstrumentKind[]): number | undefined {
    const x = this.byId.get(id);
    return x !== undefined && kinds.includes(x.kind) ? x.inst : undefined;
  }

  id(inst: number): string {
    const id = this.byInst.get(inst);
    if (id === undefined) throw new Error(`no instrument with inst ${inst}`);
    return id;
  }

  /** The `inst` of an instrument row: its existing key, or the next free one (registered). */
  upsertInstrument(id: string, kind: InstrumentKind, market: string, listDate: number | null = null): number {
    const known = this.byId.get(id);
    const inst = known?.inst ?? this.nextInst;
    this.remember(id, { inst, kind, market, listDate });
    return inst;
  }

  /** A known instrument (in the store or earlier in the command), by id. */
  known(id: string): KnownInstrument | undefined {
    return this.byId.get(id);
  }

  /** Ids of the known instruments with a 6-digit code (any market). */
  idsWithCode(code: string): string[] {
    return ['SH', 'SZ', 'BJ'].map((m) => `${code}.${m}`).filter((id) => this.byId.has(id));
  }

  addTradingDay(market: string, date: number, open = true): void {
    let m = this.days.get(market);
    if (!m) {
      m = new Map();
      this.days.set(market, m);
    }
    m.set(date, open);
  }

  /** A trading day of `market`: as loaded (stored or in this command), else by the shipped calendar. */
  isTradingDay(market: string, date: number): boolean {
    return this.days.get(market)?.get(date) ?? SHIPPED_CALENDARS[market as MarketId]?.isTradingDay(date) ?? false;
  }

  /** The calendar of `market` as this command sees it: shipped, with the loaded days applied. */
  calendar(market: MarketId): TradingCalendar {
    const loaded = [...(this.days.get(market) ?? new Map<number, boolean>())];
    return SHIPPED_CALENDARS[market].withOverrides(
      loaded.filter(([, o]) => o).map(([d]) => d),
      loaded.filter(([, o]) => !o).map(([d]) => d),
    );
  }

  /** Market of a known inst (for trading-day checks). */
  marketOf(inst: number): string {
    return this.marketByInst.get(inst)!;
  }
}
