import type { Selectable } from 'kysely';
import type { QuoteTable, TradeTable } from '../schema.js';
import type { Reads } from '../types.js';
import type { Bar } from '../../market/types.js';
import { epochToMarketDate, windowSeconds } from '../../lib/time.js';
import { monthsHolding } from '../../market/calendar.js';
import { MINUTE_LABELS } from '../../market/sessions.js';
import { withLimit } from './limit.js';
import { dailyPackKey, decodeBars, type PackSink } from '../packs.js';
import type { DailyPackCache, PackRows } from './pack-cache.js';

const DAILY_PACKS = 'select month, n, data from bars_1d_packs where inst = ? and month >= ? and month <= ? order by month limit ';
const YEAR_DAILY_PACKS = 'select month, n, data from bars_1d_packs where inst = ? and month >= ? and month <= ? order by month';
const NEXT_DAILY_PACK = 'select min(month) from bars_1d_packs where inst = ? and month > ?';
const INDICATOR_PAGES = new Map<string, string>();
const MINUTE_PACKS = 'select date, n, data from bars_1m_packs where inst = ? and date >= ? and date <= ? order by date limit ';
const DAILY_STATES = 'select month, n, data, states from bars_1d_packs where inst = ? and month >= ? and month <= ? order by month limit ';

/**
 * Time-series reads on the request path: each is one keyset range scan on a primary key,
 * through a cached prepared statement. Bars come from the bar packs (store/packs.ts): a
 * page of 100 daily bars reads about 8 monthly packs, a page of 1m bars one or two days.
 */
type Take = (row: unknown[], lo: number, hi: number) => void;

/** Where a reader puts the stored indicator pages it reads (render/page-text.ts PageSlices is one). */
export interface PageSink {
  readonly keys: { readonly length: number };
  /** A stored page, of which the records with lo <= key <= hi are wanted. */
  add(page: string, lo: number, hi: number): void;
}

export class MarketDataReader {
  /**
   * `packs`: where an instrument's daily packs are kept whole (pack-cache.ts), by the data
   * version of the instrument's year (`version`: the last that changed its bars of that year),
   * for a store whose reads cost a round trip; without it, each page reads its packs.
   */
  constructor(
    private readonly store: Reads,
    private readonly packs?: { version: (inst: number, year: number) => number; cache: DailyPackCache },
  ) {}

  /** Daily bars with from <= date <= to and date > after, ascending (ts left 0 for the caller). */
  async dailyBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const out: Bar[] = [];
    await this.daily(
      DAILY_PACKS,
      inst,
      from,
      to,
      after,
      limit,
      15,
      () => out.length,
      (r, lo, hi) => decodeBars(out, r[2] as Uint8Array, r[1] as number, null, lo, hi, limit),
    );
    return out;
  }

  /**
   * As dailyBars, the stored packs themselves, put into `out` with the keys (dates) wanted:
   * the unadjusted daily page is written from them (query/pack-slices.ts; no copy of the bars as
   * JSON is stored: it was 272 bytes a bar, two thirds of a whole-market store).
   */
  async dailyPage(inst: number, from: number, to: number, after: number | null, limit: number, out: PackSink): Promise<void> {
    await this.daily(
      DAILY_PACKS,
      inst,
      from,
      to,
      after,
      limit,
      15,
      () => out.keys.length,
      (r, lo, hi) => out.add(r[2] as Uint8Array, r[1] as number, null, lo, hi),
    );
  }

  /**
   * As dailyPage, the stored pages of precomputed indicator `id` (indicator-pages.ts) over
   * unadjusted daily bars, put into `out`; keys are dates.
   */
  async indicatorPage(
    inst: number,
    id: string,
    from: number,
    to: number,
    after: number | null,
    limit: number,
    out: PageSink,
  ): Promise<void> {
    let sql = INDICATOR_PAGES.get(id);
    if (sql === undefined) {
      if (!/^[a-z0-9_]+$/.test(id)) throw new RangeError(`indicator id ${JSON.stringify(id)}`);
      // The id as a literal: the statement keeps the packs' three parameters (and is planned once per indicator).
      sql = `select month, data from indicator_pages where inst = ? and indicator = '${id}' and month >= ? and month <= ? order by month limit `;
      INDICATOR_PAGES.set(id, sql);
    }
    await this.daily(
      sql,
      inst,
      from,
      to,
      after,
      limit,
      20,
      () => out.keys.length,
      (r, lo, hi) => out.add(r[1] as string, lo, hi),
    );
  }

  /**
   * For a page of an indicator of unadjusted daily bars (derived/indicator-states.ts): the states
   * stored with the first pack from `statesFrom` on (the first month of the quarter of `from`,
   * whose first pack keeps them), the bars of the packs read before `from` (the head: the states
   * are those before its first bar), and then the bars with from <= date <= to, at most `limit`
   * (ts left 0 for the caller). `states` is null when no pack was found or it holds none.
   */
  async dailyWithStates(
    inst: number,
    statesFrom: number,
    from: number,
    to: number,
    limit: number,
  ): Promise<{ states: string | null; head: Bar[]; bars: Bar[] }> {
    const head: Bar[] = [],
      bars: Bar[] = [];
    let states: string | null | undefined;
    // The months before the page's (from its quarter's first) and those its `limit` days fall in, read at once.
    const [first, last] = [dailyPackKey(statesFrom), dailyPackKey(from)];
    const before = (Math.floor(last / 100) - Math.floor(first / 100)) * 12 + (last % 100) - (first % 100);
    const months = before + (monthsHolding(from, to, limit) ?? Math.ceil(limit / 20) + 1);
    await this.packed(
      DAILY_STATES,
      inst,
      first,
      dailyPackKey(to),
      statesFrom,
      to,
      limit,
      20,
      () => bars.length,
      (r) => {
        if (states === undefined) states = r[3] === null ? null : String(r[3]);
        if (bars.length === 0) decodeBars(head, r[2] as Uint8Array, r[1] as number, null, 0, from - 1, Infinity);
        decodeBars(bars, r[2] as Uint8Array, r[1] as number, null, from, to, limit);
      },
      months,
    );
    return { states: states ?? null, head, bars };
  }

  /** As minuteBars, the stored packs themselves, put into `out` with the keys (ts) wanted. */
  async minutePage(inst: number, from: number, to: number, after: number | null, limit: number, out: PackSink): Promise<void> {
    await this.minute(
      MINUTE_PACKS,
      inst,
      from,
      to,
      after,
      limit,
      () => out.keys.length,
      (r, lo, hi) => out.add(r[2] as Uint8Array, r[1] as number, r[0] as number, lo, hi),
    );
  }

  /** 1m bars with from <= ts <= to (epoch seconds) and ts > after, ascending. */
  async minuteBars(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Bar[]> {
    const out: Bar[] = [];
    await this.minute(
      MINUTE_PACKS,
      inst,
      from,
      to,
      after,
      limit,
      () => out.length,
      (r, lo, hi) => decodeBars(out, r[2] as Uint8Array, r[1] as number, r[0] as number, lo, hi, limit),
    );
    return out;
  }

  private daily(
    sql: string,
    inst: number,
    from: number,
    to: number,
    after: number | null,
    limit: number,
    perPack: number,
    count: () => number,
    take: Take,
  ): Promise<void> {
    const lo = after !== null && after >= from ? after + 1 : from;
    if (sql === DAILY_PACKS && this.packs) return this.fromMemory(inst, dailyPackKey(lo), dailyPackKey(to), lo, to, limit, count, take);
    // The months the next `limit` trading days fall in (fewer bars than days: more are read).
    const months = monthsHolding(lo, to, limit) ?? Math.ceil(limit / perPack) + 1;
    return this.packed(sql, inst, dailyPackKey(lo), dailyPackKey(to), lo, to, limit, perPack, count, take, months);
  }

  /** As `packed`, from the instrument's daily packs kept in memory by year (each read whole on a miss). */
  private async fromMemory(
    inst: number,
    first: number,
    last: number,
    lo: number,
    hi: number,
    limit: number,
    count: () => number,
    take: Take,
  ): Promise<void> {
    const { version, cache } = this.packs!;
    for (let year = Math.floor(first / 100); year <= Math.floor(last / 100) && count() < limit; year++) {
      const rows: PackRows = await cache.get(version(inst, year), inst, year, () =>
        this.store.selectRows(YEAR_DAILY_PACKS, [inst, year * 100 + 1, year * 100 + 12]),
      );
      if (rows.length === 0) {
        // A year without bars (before the first, after the last, or a long suspension): on to the next that has some.
        const next = (await this.store.selectRows(NEXT_DAILY_PACK, [inst, year * 100 + 12]))[0]?.[0];
        if (next === null || next === undefined) return;
        year = Math.floor(Number(next) / 100) - 1;
        continue;
      }
      for (const r of rows) {
        const month = r[0] as number;
        if (month < first) continue;
        if (month > last || count() >= limit) break;
        take(r, lo, hi);
      }
    }
  }

  private minute(
    sql: string,
    inst: number,
    from: number,
    to: number,
    after: number | null,
    limit: number,
    count: () => number,
    take: Take,
  ): Promise<void> {
    const lo = after !== null && after >= from ? after + 1 : from;
    // A 1m pack is the trading day (market date) of its bars' ts; a day holds up to 241 bars (one per label).
    const days = windowSeconds({ fromMs: lo * 1000, toMs: to * 1000 });
    return this.packed(
      sql,
      inst,
      epochToMarketDate(days.from),
      epochToMarketDate(days.to),
      lo,
      to,
      limit,
      MINUTE_LABELS.length,
      count,
      take,
    );
  }

  /**
   * Hands `take` the rows of packs (or pages) first..last with records in [lo, hi] until
   * `count()` reaches `limit`: reads `initial` packs (by default enough for `limit` bars at
   * `perPack` bars each, plus one), then more, twice as many each time, while suspensions or
   * the window's edges left the page short.
   */
  private async packed(
    sql: string,
    inst: number,
    first: number,
    last: number,
    lo: number,
    hi: number,
    limit: number,
    perPack: number,
    count: () => number,
    take: Take,
    initial = Math.ceil(limit / perPack) + 1,
  ): Promise<void> {
    let packs = initial;
    while (count() < limit && first <= last) {
      const rows = await this.store.selectRows(withLimit(sql, packs), [inst, first, last]);
      for (const r of rows) take(r, lo, hi);
      if (rows.length < packs) break;
      first = (rows[rows.length - 1][0] as number) + 1;
      packs = Math.max(2 * packs, Math.ceil((limit - count()) / perPack) + 1);
    }
  }

  quotes(inst: number, from: number, to: number, after: number | null, limit: number): Promise<Selectable<QuoteTable>[]> {
    const lo = after !== null && after >= from ? after + 1 : from;
    return this.store.select(withLimit('select * from quotes where inst = ? and ts >= ? and ts <= ? order by ts limit ', limit), [
      inst,
      lo,
      to,
    ]);
  }

  /** Trades in [from, to] (epoch seconds) within [fromDate, toDate], after (date, seq). */
  trades(
    inst: number,
    win: { from: number; to: number; fromDate: number; toDate: number },
    after: [number, number] | null,
    limit: number,
  ): Promise<Selectable<TradeTable>[]> {
    const [d, s] = after ?? [0, 0];
    return this.store.select(
      withLimit(
        `select * from trades where inst = ? and date >= ? and date <= ? and ts >= ? and ts <= ?
         and (date > ? or (date = ? and seq > ?)) order by date, seq limit `,
        limit,
      ),
      [inst, win.fromDate, win.toDate, win.from, win.to, d, d, s],
    );
  }
}
