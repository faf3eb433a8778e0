import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Catalog, InstrumentRow } from '../store/catalog.js';
import type { MarketDataReader } from '../store/queries/market-data.js';
import type { AdjustmentId, Bar, IntervalId } from '../market/types.js';
import { adjustBars, buildFactors, type Factor } from '../market/adjust.js';
import { INDICATORS, seriesFromBars, type IndicatorId, type Values } from '../indicators/registry.js';
import { runStream } from '../indicators/types.js';
import { readBars } from './bars.js';
import { epochToMarketDate, marketEpoch } from '../lib/time.js';
import { literalLimit } from '../store/queries/limit.js';

/** How a request's prices are adjusted; `basis` (last ex-date used, 0 if none) pins forward walks. */
export interface Adjuster { mode: AdjustmentId; basis: number; apply(rows: Bar[]): Bar[] }

const FULL = { fromMs: -8.64e15, toMs: 8.64e15 };

/**
 * Adjustment factors, full adjusted series and indicator columns, cached per data version so
 * that a request reads an instrument's history at most once: later pages and other windows are
 * served from memory (bounded LRU). Ingestion bumps the data version, which retires every entry.
 */
export class Analytics {
  private factorCache = new LRUCache<string, Factor[]>({ max: 20_000 });
  // Bounded by points held (about 100 bytes each), so the caches stay within ~25 MB together (a
  // process stays under 256 MB RSS after every benchmark scenario; with thousands of instruments
  // read at random, larger caches hardly raise the hit rate).
  private seriesCache = new LRUCache<string, Bar[]>({ max: 512, maxSize: 120_000, sizeCalculation: (b) => b.length + 1 });
  private valueCache = new LRUCache<string, Values[]>({ max: 1024, maxSize: 120_000, sizeCalculation: (v) => v.length + 1 });
  // Stream states at pack starts per series and indicator (a few numbers each).
  private checkpoints = new LRUCache<string, Map<number, unknown>>({ max: 20_000, maxSize: 80_000, sizeCalculation: (m) => m.size + 1 });

  constructor(private readonly db: Kysely<Database>, private readonly reader: MarketDataReader, private readonly catalog: Catalog) {}

  /** Cumulative backward factors of an equity (none for indices and funds). */
  async factors(inst: InstrumentRow): Promise<Factor[]> {
    if (inst.kind !== 'equity') return [];
    const key = `${await this.catalog.dataVersion()}|${inst.inst}`;
    let f = this.factorCache.get(key);
    if (!f) {
      const actions = await this.db.selectFrom('corporate_actions')
        .select(['ex_date', 'cash_per_share', 'bonus_ratio', 'transfer_ratio', 'rights_ratio', 'rights_price'])
        .where('inst', '=', inst.inst).orderBy('ex_date').execute();
      const prev = new Map<number, number>();
      for (const a of actions) {
        const r = await this.db.selectFrom('bars_1d').select('close').where('inst', '=', inst.inst)
          .where('date', '<', a.ex_date).orderBy('date', 'desc').limit(literalLimit(1)).executeTakeFirst();
        if (r) prev.set(a.ex_date, r.close);
      }
      f = buildFactors(actions, (d) => prev.get(d));
      this.factorCache.set(key, f);
    }
    return f;
  }

  /** The adjuster for a request; `basis` from a cursor keeps a forward walk on one basis. */
  async adjuster(inst: InstrumentRow, mode: AdjustmentId, basis: number | null): Promise<Adjuster> {
    const all = mode === 'none' ? [] : await this.factors(inst);
    const b = basis ?? (all.length ? all[all.length - 1].ex_date : 0);
    const factors = mode === 'forward' ? all.filter((f) => f.ex_date <= b) : all;
    const tick = inst.kind === 'fund' ? 1 : 10;
    return { mode, basis: b, apply: (rows) => (mode === 'none' || !factors.length ? rows : adjustBars(rows, factors, mode, tick)) };
  }

  /** Cache key of one series: data version, instrument, interval, adjustment and its basis. */
  private async seriesKey(inst: InstrumentRow, interval: IntervalId, adj: Adjuster): Promise<string> {
    return `${await this.catalog.dataVersion()}|${inst.inst}|${interval}|${adj.mode}|${adj.basis}`;
  }

  /** The instrument's whole series at `interval` under `adj`, from memory after the first read. */
  async series(inst: InstrumentRow, interval: IntervalId, adj: Adjuster): Promise<Bar[]> {
    const key = await this.seriesKey(inst, interval, adj);
    let s = this.seriesCache.get(key);
    if (!s) {
      s = await readBars(this.reader, inst.inst, interval, FULL, null, 1_000_000_000, adj.apply);
      this.seriesCache.set(key, s);
    }
    return s;
  }

  /** One indicator over the whole series (values never depend on the page that shows them). */
  async indicator(inst: InstrumentRow, interval: IntervalId, adj: Adjuster, id: IndicatorId): Promise<{ bars: Bar[]; values: Values[] }> {
    const bars = await this.series(inst, interval, adj);
    const key = `${await this.seriesKey(inst, interval, adj)}|${id}`;
    let values = this.valueCache.get(key);
    if (!values) {
      values = INDICATORS[id].compute(seriesFromBars(bars));
      this.valueCache.set(key, values);
    }
    return { bars, values };
  }

  /**
   * The bars of one page of indicator points and their values: bars with ts >= `lo` and
   * ts <= `to`, at most `limit`, from `start` on in `bars` (what precedes them is the history
   * their values are computed from). Values depend only on earlier bars, so for the stored
   * intervals (1d, 1m) the series is read and computed only up to the page's last bar, never
   * over the bars after it. A recursive indicator (one with a `stream`) also keeps its state at
   * the start of every pack (month of daily bars, day of 1m bars) it passed, so a later page of
   * the instrument resumes from the last such checkpoint before it instead of the first bar.
   * Other intervals, whose buckets a cut could split, use the cached `indicator`.
   */
  async indicatorPage(inst: InstrumentRow, interval: IntervalId, adj: Adjuster, id: IndicatorId,
    lo: number, to: number, limit: number): Promise<{ bars: Bar[]; values: Values[]; start: number }> {
    if (interval === '1d' || interval === '1m') {
      const ind = INDICATORS[id];
      const packOf = interval === '1d' ? (d: number) => Math.floor(d / 100) : (d: number) => d;
      const key = `${await this.seriesKey(inst, interval, adj)}|${id}`;
      const checkpoints = ind.stream ? this.checkpoints.get(key) ?? new Map<number, unknown>() : null;
      // The latest checkpoint at or before the pack of `lo`: read from the start of its pack.
      const loPack = packOf(epochToMarketDate(lo));
      let from: number | null = null;
      for (const k of checkpoints?.keys() ?? []) if (k <= loPack && (from === null || k > from)) from = k;
      const fromMs = from === null ? FULL.fromMs : marketEpoch(interval === '1d' ? from * 100 + 1 : from, 0) * 1000;
      const head = await readBars(this.reader, inst.inst, interval, { fromMs, toMs: lo * 1000 - 1 }, null, 1_000_000_000, adj.apply);
      const page = await readBars(this.reader, inst.inst, interval, { fromMs: lo * 1000, toMs: to * 1000 + 999 }, null, limit, adj.apply);
      const bars = head.concat(page);
      if (!ind.stream || !checkpoints) return { bars, values: ind.compute(seriesFromBars(bars)), start: head.length };
      let pack = from;
      // The state before a pack's first bar (states are never mutated, so kept as they are).
      const values = runStream(ind.stream, seriesFromBars(bars), from === null ? ind.stream.initState() : checkpoints.get(from),
        (i, state) => {
          const k = packOf(bars[i].date);
          if (k !== pack) { if (!checkpoints.has(k)) checkpoints.set(k, state); pack = k; }
        });
      this.checkpoints.set(key, checkpoints);
      return { bars, values, start: head.length };
    }
    const r = await this.indicator(inst, interval, adj, id);
    let start = 0, hi = r.bars.length;
    while (start < hi) { const m = (start + hi) >> 1; if (r.bars[m].ts < lo) start = m + 1; else hi = m; }
    return { ...r, start };
  }
}
