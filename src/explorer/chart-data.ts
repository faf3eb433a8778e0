/**
 * What a chart of one instrument loads from the API: its bars a page at a time (newest first,
 * then older as the view scrolls left), the indicator points for exactly those bars, the price
 * limits, dividends and adjustment factors (ex-rights days), share capital (turnover), and an
 * overlaid instrument's bars.
 */
import { pathOf, type Client, type Page } from './api.js';
import { kindPath, type Instrument } from './instruments.js';
import { isIntraday, type Interval } from './time.js';

export interface Bar {
  timestamp: string;
  trade_date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
  amount: string | null;
}
interface Point {
  timestamp: string;
  values: Record<string, string>;
}
export interface Limit {
  trade_date: string;
  pre_close: string;
  limit_up: string;
  limit_down: string;
  suspended: boolean;
}
export interface Dividend {
  ex_date: string | null;
  cash_per_share: string | null;
  bonus_per_share: string | null;
  transfer_per_share: string | null;
}
export interface Factor {
  trade_date: string;
  backward_factor: string;
}
export interface ShareChange {
  change_date: string;
  float_shares: number | null;
  total_shares: number | null;
}

export type Adjustment = 'none' | 'forward' | 'backward';
export interface ChartState {
  interval: Interval;
  adjustment: Adjustment;
  indicators: string[];
  /** Intraday charts: the last day shown (YYYY-MM-DD), else the latest. */
  date?: string;
  /** An instrument drawn over the candles, in percent. */
  overlay?: string;
  /** Where the view opens, from its latest bar (not in the hash: kept when the live banner's 刷新 draws it again). */
  at?: ChartPosition;
}

/** Where a chart's view is, counted from its latest bar: `end` bars right of the view, `span` bars in it. */
export interface ChartPosition {
  end: number;
  span: number;
}

/** Bars a request asks for: the first view and each step left. */
export const PAGE = 320;

/**
 * The URL of a page of a chart's bars (`base`: the instrument's path), newest first: the first
 * page (`after` null) ends at the state's `date` on an intraday chart, else at the latest bar.
 * The early script (early.ts) asks for the first page by this URL too.
 */
export const barsUrl = (base: string, state: ChartState, after: string | null): string =>
  pathOf(`${base}/bars`, {
    interval: state.interval,
    adjustment: state.adjustment,
    to: after === null && isIntraday(state.interval) ? state.date : undefined,
    order: 'desc',
    'page[size]': PAGE,
    'page[after]': after ?? undefined,
  });

/** The data of one chart (an instrument at one interval and adjustment), oldest first. */
export class ChartData {
  bars: Bar[] = [];
  /** The cursor to the next older page (order=desc), or null at the first bar. */
  older: string | null = null;
  points = new Map<string, Map<string, Record<string, string>>>();
  limits = new Map<string, Limit>();
  dividends: Dividend[] = [];
  /** Ex-rights days: where the adjustment factor in use changes (listAdjustmentFactors). */
  exDates: string[] = [];
  shares: ShareChange[] = [];
  overlay: { inst: Instrument; bars: Map<string, Bar> } | null = null;
  readonly base: string;

  constructor(
    private client: Client,
    readonly inst: Instrument,
    readonly state: ChartState,
  ) {
    this.base = `${kindPath(inst.kind)}/${inst.id}`;
  }

  get equity(): boolean {
    return this.inst.kind === 'equity';
  }

  /** Limits are drawn on daily and intraday charts of an equity. */
  get limitsApply(): boolean {
    return this.equity && (isIntraday(this.state.interval) || this.state.interval === '1d');
  }

  /** A page of bars older than those loaded (the latest first: the first page ends at `date`, or the latest bar). */
  async page(first: boolean): Promise<Bar[]> {
    const page = await this.client.fetchJson<Page<Bar>>(barsUrl(this.base, this.state, first ? null : this.older));
    this.older = page.meta.next_cursor;
    return page.data.slice().reverse();
  }

  /** Indicator points for the bars of [first, last] (one window per request: chart and API agree). */
  async loadPoints(ids: string[], bars: Bar[]): Promise<void> {
    if (!bars.length) return;
    await Promise.all(
      ids.map(async (id) => {
        const points = await this.client.all<Point>(`${this.base}/technical-indicators/${id}`, {
          interval: this.state.interval,
          adjustment: this.state.adjustment,
          from: bars[0].timestamp,
          to: bars[bars.length - 1].timestamp,
        });
        const m = this.points.get(id) ?? new Map();
        for (const p of points) m.set(p.timestamp, p.values);
        this.points.set(id, m);
      }),
    );
  }

  async loadLimits(bars: Bar[]): Promise<void> {
    if (!bars.length || !this.limitsApply) return;
    const rows = await this.client.all<Limit>(`${this.base}/price-limits`, {
      from: bars[0].trade_date,
      to: bars[bars.length - 1].trade_date,
    });
    for (const r of rows) this.limits.set(r.trade_date, r);
  }

  /** Dividends, adjustment factors and share capital: an equity's, once. */
  async loadEquityFacts(): Promise<void> {
    if (!this.equity) return;
    await Promise.all([
      this.client.all<Dividend>(`${this.base}/dividends`).then((d) => (this.dividends = d)),
      this.client.all<Factor>(`${this.base}/adjustment-factors`).then((f) => (this.exDates = factorChanges(f))),
      this.client.all<ShareChange>(`${this.base}/share-capital`).then((s) => (this.shares = s)),
    ]);
  }

  /** The overlaid instrument's bars over the loaded bars' span (same interval, no adjustment for an index). */
  async loadOverlay(inst: Instrument): Promise<void> {
    const bars = this.bars;
    if (!bars.length) return;
    const rows = await this.client.all<Bar>(
      `${kindPath(inst.kind)}/${inst.id}/bars`,
      {
        interval: this.state.interval,
        adjustment: this.state.adjustment,
        from: bars[0].timestamp,
        to: bars[bars.length - 1].timestamp,
      },
      20_000,
    );
    this.overlay = { inst, bars: new Map(rows.map((b) => [b.timestamp, b])) };
  }

  /** The float shares in force on a day (the latest change on or before it), or null. */
  floatOn(day: string): number | null {
    let found: ShareChange | null = null;
    for (const s of this.shares) if (s.change_date <= day && (!found || s.change_date >= found.change_date)) found = s;
    return found?.float_shares ?? null;
  }
}

/** The days the backward factor changes, from 1 before any (a published series starts at 1 on its first day: no change there). */
export const factorChanges = (factors: Factor[]): string[] =>
  factors.filter((f, i) => Number(f.backward_factor) !== Number(i > 0 ? factors[i - 1].backward_factor : 1)).map((f) => f.trade_date);
