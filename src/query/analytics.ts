import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { InstrumentRow } from '../store/catalog.js';
import type { AdjustmentReader } from '../store/readers/adjustments.js';
import type { MarketDataReader } from '../store/readers/market-data.js';
import type { AdjustmentId, Bar, IntervalId } from '../market/types.js';
import { KINDS } from '../market/kinds.js';
import { actionsBasis, adjustBars, buildFactors, vendorBasis, type Factor, type FactorBasis } from '../market/adjust.js';
import { foldBars, INDICATORS, seriesFromBars, type Indicator, type IndicatorId, type Values } from '../indicators/registry.js';
import { runStream } from '../indicators/types.js';
import { readBars } from './bars.js';
import { closeDateRange, closeEpoch, TRADING_MINUTES } from '../market/sessions.js';
import { epochToMarketDate, marketEpoch } from '../lib/time.js';
import { quarterStart, stateOf } from '../derived/indicator-states.js';
import { dailyPackKey, dailyPackStart } from '../store/packs.js';

/**
 * How a request's prices are adjusted; `basis` (date of the last factor used, an ex-date or a
 * published factor's change, 0 if none) pins forward walks; `identity` when no factor applies
 * (prices as stored).
 */
export interface Adjuster {
  mode: AdjustmentId;
  basis: number;
  identity: boolean;
  apply(rows: Bar[]): Bar[];
}

const FULL = { fromMs: -8.64e15, toMs: 8.64e15 };
const NONE = actionsBasis([]);
const ONE = { num: 1n, den: 1n };

/**
 * What Analytics keeps across requests, keyed by the last data version that changed the
 * instrument (Snapshot.versionOf): a version that did not touch it leaves its entries in use.
 */
export class AnalyticsCaches {
  readonly factors = new CountedCache<string, FactorBasis>('adjustment_factors', { max: 20_000 });
  // Bounded by points held (about 100 bytes each), so the caches stay within ~25 MB together (a
  // process stays under 256 MB RSS after every benchmark scenario; with thousands of instruments
  // read at random, larger caches hardly raise the hit rate).
  readonly series = new CountedCache<string, Bar[]>('bar_series', { max: 512, maxSize: 120_000, sizeCalculation: (b) => b.length + 1 });
  readonly values = new CountedCache<string, Values[]>('indicator_values', {
    max: 1024,
    maxSize: 120_000,
    sizeCalculation: (v) => v.length + 1,
  });
  // Stream states at pack starts per series and indicator (a few numbers each).
  readonly checkpoints = new CountedCache<string, Map<number, unknown>>('indicator_checkpoints', {
    max: 20_000,
    maxSize: 80_000,
    sizeCalculation: (m) => m.size + 1,
  });

  /** The caches, counted (CacheCounts), for the metrics. */
  readonly all: readonly CacheCounts[] = [this.factors, this.series, this.values, this.checkpoints];
}

/** What an instrument's adjustment factors read of it: published factors, corporate actions and the closes before their ex-dates. */
const FACTOR_DATASETS = ['adj_factors', 'bars_1d', 'bars_1m', 'corporate_actions', 'instruments'];

/**
 * Adjustment factors, full adjusted series and indicator columns of one read snapshot, cached
 * per data version (AnalyticsCaches) so that an instrument's history is read at most once per
 * version: later pages and other windows are served from memory (bounded LRU).
 */
export class Analytics {
  private readonly factorCache: AnalyticsCaches['factors'];
  private readonly seriesCache: AnalyticsCaches['series'];
  private readonly valueCache: AnalyticsCaches['values'];
  private readonly checkpoints: AnalyticsCaches['checkpoints'];

  constructor(
    private readonly adjustments: AdjustmentReader,
    private readonly reader: MarketDataReader,
    caches: AnalyticsCaches,
    /** The last version that changed an instrument (by internal key), or only `datasets` of it: what its entries are keyed by. */
    private readonly versionOf: (inst: number, datasets?: readonly string[]) => number,
  ) {
    ({ factors: this.factorCache, series: this.seriesCache, values: this.valueCache, checkpoints: this.checkpoints } = caches);
  }

  /**
   * What an instrument's adjusted prices follow (docs/analytics.md, "Adjustment basis"): its
   * published factors (adj_factors) if it has any, else, for an equity, the cumulative backward
   * factors of its corporate actions; indices, and funds without published factors, none.
   */
  async factors(inst: InstrumentRow): Promise<FactorBasis> {
    if (!KINDS[inst.kind].adjustable) return NONE;
    const key = `${this.versionOf(inst.inst, FACTOR_DATASETS)}|${inst.inst}`;
    let f = this.factorCache.get(key);
    if (!f) {
      const rows = await this.adjustments.publishedFactors(inst.inst);
      f = rows.length ? vendorBasis(rows) : KINDS[inst.kind].actionFactors ? actionsBasis(await this.actionFactors(inst)) : NONE;
      this.factorCache.set(key, f);
    }
    return f;
  }

  /** Cumulative backward factors from an equity's corporate actions. */
  private async actionFactors(inst: InstrumentRow): Promise<Factor[]> {
    const actions = await this.adjustments.actionsWithPrevClose(inst.inst);
    const prev = new Map<number, number>();
    for (const a of actions) if (a.prev_close !== null) prev.set(a.ex_date, a.prev_close);
    return buildFactors(actions, (d) => prev.get(d));
  }

  /** The adjuster for a request; `basis` from a cursor keeps a forward walk on one basis. */
  async adjuster(inst: InstrumentRow, mode: AdjustmentId, basis: number | null): Promise<Adjuster> {
    const { factors: all, initial } = mode === 'none' ? NONE : await this.factors(inst);
    const b = basis ?? (all.length ? all[all.length - 1].ex_date : 0);
    const factors = mode === 'forward' ? all.filter((f) => f.ex_date <= b) : all;
    const { tick } = KINDS[inst.kind];
    // Identity when every day's factor is 1 (backward) or the latest (forward): e.g. published
    // factors that never changed, so the unadjusted fast paths serve it.
    const unit = mode === 'forward' && factors.length ? factors[factors.length - 1] : ONE;
    const identity = mode === 'none' || !factors.length || [initial, ...factors].every((f) => f.num * unit.den === f.den * unit.num);
    return { mode, basis: b, identity, apply: (rows) => (identity ? rows : adjustBars(rows, factors, mode, tick, initial)) };
  }

  /** Cache key of one series: the instrument's data version, the instrument, interval, adjustment and its basis. */
  private seriesKey(inst: InstrumentRow, interval: IntervalId, adj: Adjuster): string {
    return `${this.versionOf(inst.inst)}|${inst.inst}|${interval}|${adj.mode}|${adj.basis}`;
  }

  /** The instrument's whole series at `interval` under `adj`, from memory after the first read. */
  async series(inst: InstrumentRow, interval: IntervalId, adj: Adjuster): Promise<Bar[]> {
    const key = this.seriesKey(inst, interval, adj);
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
    const key = `${this.seriesKey(inst, interval, adj)}|${id}`;
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
   * intervals (1d, 1m) only the history a value needs is read, never the bars after the page:
   * - an indicator of finite lookback reads the `lookback` bars before the page;
   * - a recursive one (with a `stream`) on unadjusted daily bars resumes from the states stored
   *   for the page's month (derived/indicator-states.ts), reading that month and the page;
   * - otherwise a recursive one keeps its state at the start of every pack (month of daily bars,
   *   day of 1m bars) it passes, in memory, and a later page of the series resumes from the
   *   last such checkpoint before it instead of the first bar.
   * Other intervals, whose buckets a cut could split, use the cached `indicator`.
   */
  async indicatorPage(
    inst: InstrumentRow,
    interval: IntervalId,
    adj: Adjuster,
    id: IndicatorId,
    lo: number,
    to: number,
    limit: number,
  ): Promise<{ bars: Bar[]; values: Values[]; start: number }> {
    if (interval === '1d' || interval === '1m') {
      const ind = INDICATORS[id];
      if (!ind.stream) return this.windowPage(inst, interval, adj, ind, lo, to, limit);
      if (interval === '1d' && adj.identity) {
        const { from, to: last } = closeDateRange(lo, to);
        const r = await this.reader.dailyWithStates(inst.inst, dailyPackStart(quarterStart(dailyPackKey(from))), from, last, limit);
        if (r.states !== null) {
          // The head (the month's bars before the page) only moves the state on.
          const values: Values[] = [];
          foldBars(ind.stream, r.bars, foldBars(ind.stream, r.head, stateOf(r.states, id), null), values);
          for (const b of r.bars) b.ts = closeEpoch(b.date);
          return { bars: r.bars, values, start: 0 };
        }
      }
      const packOf = interval === '1d' ? dailyPackKey : (d: number) => d;
      const key = `${this.seriesKey(inst, interval, adj)}|${id}`;
      const checkpoints = this.checkpoints.get(key) ?? new Map<number, unknown>();
      // The latest checkpoint at or before the pack of `lo`: read from the start of its pack.
      const loPack = packOf(epochToMarketDate(lo));
      let from: number | null = null;
      for (const k of checkpoints.keys()) if (k <= loPack && (from === null || k > from)) from = k;
      const fromMs = from === null ? FULL.fromMs : marketEpoch(interval === '1d' ? dailyPackStart(from) : from, 0) * 1000;
      const { bars, start } = await this.withHead(inst, interval, adj, fromMs, lo, to, limit);
      let pack = from;
      // The state before a pack's first bar (states are never mutated, so kept as they are).
      const values = runStream(
        ind.stream,
        seriesFromBars(bars),
        from === null ? ind.stream.initState() : checkpoints.get(from),
        (i, state) => {
          const k = packOf(bars[i].date);
          if (k !== pack) {
            if (!checkpoints.has(k)) checkpoints.set(k, state);
            pack = k;
          }
        },
      );
      this.checkpoints.set(key, checkpoints);
      return { bars, values, start };
    }
    const r = await this.indicator(inst, interval, adj, id);
    let start = 0,
      hi = r.bars.length;
    while (start < hi) {
      const m = (start + hi) >> 1;
      if (r.bars[m].ts < lo) start = m + 1;
      else hi = m;
    }
    return { ...r, start };
  }

  /** The bars from `fromMs` before `lo` (the head), then up to `limit` with lo <= ts <= to; `start` is the page's first. */
  private async withHead(
    inst: InstrumentRow,
    interval: IntervalId,
    adj: Adjuster,
    fromMs: number,
    lo: number,
    to: number,
    limit: number,
  ): Promise<{ bars: Bar[]; start: number }> {
    const head =
      fromMs >= lo * 1000
        ? []
        : await readBars(this.reader, inst.inst, interval, { fromMs, toMs: lo * 1000 - 1 }, null, 1_000_000_000, adj.apply);
    const page = await readBars(this.reader, inst.inst, interval, { fromMs: lo * 1000, toMs: to * 1000 + 999 }, null, limit, adj.apply);
    return { bars: head.concat(page), start: head.length };
  }

  /**
   * A page of an indicator of finite lookback: its values are exact given the `lookback` bars
   * before the page, so the head is read over spans that normally hold them (a month holds at
   * least 15 trading days; a trading day TRADING_MINUTES, 240, within a week even after a holiday), and
   * over the whole history only when they did not (a long suspension, the first bars).
   */
  private async windowPage(
    inst: InstrumentRow,
    interval: IntervalId,
    adj: Adjuster,
    ind: Indicator,
    lo: number,
    to: number,
    limit: number,
  ): Promise<{ bars: Bar[]; values: Values[]; start: number }> {
    const DAY = 86_400;
    const spans =
      interval === '1d'
        ? [(Math.ceil(ind.lookback / 15) + 1) * 31 * DAY]
        : [(Math.ceil(ind.lookback / TRADING_MINUTES) + 3) * DAY, 16 * DAY];
    let r: { bars: Bar[]; start: number } | null = null;
    for (const span of spans) {
      r = await this.withHead(inst, interval, adj, (lo - span) * 1000, lo, to, limit);
      if (r.start >= ind.lookback) break;
      r = null;
    }
    r ??= await this.withHead(inst, interval, adj, FULL.fromMs, lo, to, limit);
    return { ...r, values: ind.compute(seriesFromBars(r.bars)) };
  }
}
