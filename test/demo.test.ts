/**
 * Invariants of the generated demo market, checked on the stored rows with the test's own
 * implementation of the market rules (CONTRACT.md §6), not the generator's helpers.
 * DEMO_TEST_OPTS='{"equities":220,...}' runs the same checks on another configuration.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { generateDemo, type DemoOptions } from '../src/demo/generate.js';
import { CALENDAR_FIRST, CALENDAR_LAST, marketTradingDays } from '../src/market/calendar.js';

const OPTS: Partial<DemoOptions> = process.env.DEMO_TEST_OPTS
  ? JSON.parse(process.env.DEMO_TEST_OPTS)
  : { seed: 3, equities: 40, start: 20250102, minuteDays: 3, tickDays: 2 };

type Row = Record<string, any>;
const TABLE_KEYS: Record<string, string[]> = {
  meta: ['key'],
  markets: ['id'],
  trading_days: ['market', 'date'],
  classifications: ['id'],
  instruments: ['inst'],
  instrument_classifications: ['inst', 'classification_id'],
  st_periods: ['inst', 'start_date'],
  index_constituents: ['index_inst', 'inst'],
  index_weights: ['index_inst', 'trade_date', 'inst'],
  corporate_actions: ['inst', 'ex_date'],
  bars_1d: ['inst', 'date'],
  bars_1m: ['inst', 'ts'],
  quotes: ['inst', 'ts'],
  trades: ['inst', 'date', 'seq'],
};

async function load(store: Store): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const [t, keys] of Object.entries(TABLE_KEYS)) {
    let q = store.db.selectFrom(t as any).selectAll();
    for (const k of keys) q = q.orderBy(k as any);
    out[t] = (await q.execute()) as Row[];
  }
  return out;
}

const digest = (rows: Record<string, Row[]>) => createHash('sha256').update(JSON.stringify(rows)).digest('hex');
const group = <T, K>(xs: T[], key: (x: T) => K) => {
  const m = new Map<K, T[]>();
  for (const x of xs) (m.get(key(x)) ?? m.set(key(x), []).get(key(x))!).push(x);
  return m;
};

// ---- the market rules, written independently ----

/** Epoch seconds of a market-local (UTC+8) wall time. */
const epoch = (date: number, minute: number) =>
  Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100) / 1000 - 8 * 3600 + minute * 60;
const LABELS = [570, ...Array.from({ length: 120 }, (_, i) => 571 + i), ...Array.from({ length: 120 }, (_, i) => 781 + i)];

/** Half-up rounding of a non-negative rational a/b (BigInt). */
const halfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

/** Ex-rights reference in 1/1000 CNY: (P − cash + rp·rr) / (1 + bonus + transfer + rr), half-up to 0.01. */
function reference(prev: number, a: Row | undefined): number {
  if (!a) return prev;
  // Work in 1e-5 CNY with ratios in millionths: numerator ×1e6, denominator ×1e6, result in fen.
  const num = (BigInt(prev) * 100n - BigInt(a.cash_per_share)) * 1_000_000n + BigInt(a.rights_price) * 100n * BigInt(a.rights_ratio);
  const den = (1_000_000n + BigInt(a.bonus_ratio) + BigInt(a.transfer_ratio) + BigInt(a.rights_ratio)) * 1000n;
  return Number(halfUp(num, den)) * 10;
}

/** Limit ratio in percent or null (no limit), CONTRACT.md §6. */
function ratioPct(board: string, st: boolean, date: number, listDate: number, sinceListing: number): number | null {
  const unlimited =
    board === 'bse'
      ? 1
      : board === 'star' || (board === 'chinext' && listDate >= 20200824) || (board === 'main' && listDate >= 20230410)
        ? 5
        : 0;
  if (sinceListing < unlimited) return null;
  if (board === 'main') return st ? (date >= 20260706 ? 10 : 5) : 10;
  return board === 'bse' ? 30 : 20;
}

/** Limit prices: half-up to the tick; on the BSE (`towardRef`) truncated toward the reference (docs/price-limits.md). */
function limits(ref: number, pct: number, tick: number, towardRef = false): { up: number; down: number } {
  const unit = BigInt(100 * tick);
  const at = (p: number, up: boolean) => {
    const x = BigInt(ref) * BigInt(p);
    return Number(!towardRef ? halfUp(x, unit) : up ? x / unit : (x + unit - 1n) / unit) * tick;
  };
  return { up: Math.max(at(100 + pct, true), ref + tick), down: Math.max(Math.min(at(100 - pct, false), ref - tick), tick) };
}

// ---- fixtures ----

let db: Record<string, Row[]>;
let byInst: Map<number, Row>;
let days: Map<string, number[]>;
let bars: Map<number, Row[]>;
let minutes: Map<number, Row[]>;
let minuteDays: number[];
let tickDays: number[];
/** Dates that have any daily bar, ascending. */
let dataDays: number[];
let store: Store;

beforeAll(async () => {
  store = openStore(':memory:');
  await migrate(store);
  await generateDemo(store, OPTS);
  db = await load(store);
  byInst = new Map(db.instruments.map((r) => [r.inst, r]));
  days = new Map((['SH', 'SZ', 'BJ'] as const).map((m) => [m, marketTradingDays(m, CALENDAR_FIRST, CALENDAR_LAST)]));
  bars = group(db.bars_1d, (b) => b.inst);
  minutes = group(db.bars_1m, (b) => b.inst);
  minuteDays = [...new Set(db.bars_1m.map((b) => b.date))].sort((a, b) => a - b);
  tickDays = [...new Set(db.trades.map((t) => t.date))].sort((a, b) => a - b);
  dataDays = [...new Set(db.bars_1d.map((b) => b.date))].sort((a, b) => a - b);
}, 120_000);

afterAll(async () => {
  await store?.close();
});

const equities = () => db.instruments.filter((i) => i.kind === 'equity');
const isSt = (inst: number, date: number) =>
  db.st_periods.some((p) => p.inst === inst && p.start_date <= date && (p.end_date === null || date <= p.end_date));
const actionsOf = (inst: number) => new Map(db.corporate_actions.filter((a) => a.inst === inst).map((a) => [a.ex_date, a]));

/** Each equity day with its recomputed reference and limits (null on the first stored day). */
function* equityDays(): Generator<{ eq: Row; bar: Row; prev: Row | null; ref: number | null; lim: { up: number; down: number } | null }> {
  for (const eq of equities()) {
    const cal = days.get(eq.market)!;
    const pos = new Map(cal.map((d, i) => [d, i]));
    const acts = actionsOf(eq.inst);
    let prev: Row | null = null;
    for (const bar of bars.get(eq.inst) ?? []) {
      const since = pos.has(eq.list_date) ? pos.get(bar.date)! - pos.get(eq.list_date)! : 1e6;
      const pct = ratioPct(eq.board, isSt(eq.inst, bar.date), bar.date, eq.list_date, since);
      const ref = prev ? reference(prev.close, acts.get(bar.date)) : null;
      yield { eq, bar, prev, ref, lim: ref !== null && pct !== null ? limits(ref, pct, 10, eq.board === 'bse') : null };
      prev = bar;
    }
  }
}

describe('demo market', () => {
  it('has the three markets (from the migration) and the shipped calendars, no loaded trading days', () => {
    expect(db.trading_days).toEqual([]);
    expect(db.markets.map((m) => [m.id, m.mic, m.opened, m.timezone, m.currency])).toEqual([
      ['BJ', 'BJSE', 20211115, 'Asia/Shanghai', 'CNY'],
      ['SH', 'XSHG', 19901219, 'Asia/Shanghai', 'CNY'],
      ['SZ', 'XSHE', 19901201, 'Asia/Shanghai', 'CNY'],
    ]);
    expect(days.get('SH')).toEqual(days.get('SZ'));
    expect(days.get('BJ')).toEqual(days.get('SH')!.filter((d) => d >= 20211115));
    expect(days.get('SH')![0]).toBe(19901219);
    for (const d of days.get('SH')!) expect(new Date(epoch(d, 600) * 1000).getUTCDay() % 6).not.toBe(0);
    expect(JSON.parse(db.meta.find((m) => m.key === 'demo')!.value)).toMatchObject(OPTS);
  });

  it('spreads equities over all boards and markets with realistic codes', () => {
    const eqs = equities();
    expect(eqs.length).toBe(OPTS.equities ?? 220);
    const prefix: Record<string, RegExp> = {
      'SH/main': /^60[0135]\d{3}$/,
      'SH/star': /^688\d{3}$/,
      'SZ/main': /^00[0-3]\d{3}$/,
      'SZ/chinext': /^30[01]\d{3}$/,
      'BJ/bse': /^(43\d{4}|8[37]\d{4}|920\d{3})$/,
    };
    const seen = new Set<string>();
    for (const e of eqs) {
      const key = `${e.market}/${e.board}`;
      seen.add(key);
      expect(e.code, e.id).toMatch(prefix[key]);
      expect(e.id).toBe(`${e.code}.${e.market}`);
      expect(e.name_lc).toBe(e.name.toLowerCase());
      expect(e.name_en).toBeTruthy();
      expect(e.float_shares).toBeLessThanOrEqual(e.total_shares);
    }
    expect([...seen].sort()).toEqual(Object.keys(prefix).sort());
    expect(db.instruments.map((i) => i.id)).toEqual(db.instruments.map((i) => i.id).sort());
    expect(db.instruments.map((i) => i.inst)).toEqual(db.instruments.map((_, k) => k + 1));
  });

  it('records ST periods and names the stocks ST at the end accordingly', () => {
    const first = dataDays[0],
      last = dataDays[dataDays.length - 1];
    const p = db.st_periods;
    expect(p.some((x) => x.start_date < first && x.end_date === null)).toBe(true);
    expect(p.some((x) => x.start_date > first && x.start_date <= last)).toBe(true);
    expect(p.some((x) => x.end_date !== null && x.end_date > first && x.end_date < last)).toBe(true);
    for (const e of equities()) expect(/^\*?ST/.test(e.name), e.id).toBe(isSt(e.inst, last));
  });

  it('lists new stocks inside the range with unlimited first days', () => {
    const first = dataDays[0];
    const fresh = equities().filter((e) => e.list_date > first);
    expect(new Set(fresh.map((e) => e.board))).toEqual(new Set(['main', 'chinext', 'star', 'bse']));
    if (dataDays[dataDays.length - 1] >= 20230601) expect(fresh.some((e) => e.board === 'main' && e.list_date >= 20230410)).toBe(true);
    let bigMoves = 0;
    for (const e of fresh) {
      const b = bars.get(e.inst)!;
      expect(b[0].date).toBe(e.list_date);
      if (b[0].high / b[0].low > 1.1 || b.slice(1, 5).some((x, k) => Math.abs(x.close / b[k].close - 1) > 0.1)) bigMoves++;
    }
    expect(bigMoves).toBeGreaterThan(0);
    for (const e of equities()) expect(bars.get(e.inst)![0].date).toBeGreaterThanOrEqual(e.list_date);
  });

  it('has bars only on trading days, and suspension gaps without any rows', () => {
    let gaps = 0,
      gapsInMinuteWindow = 0;
    const intraday = new Set([...db.bars_1m, ...db.quotes, ...db.trades].map((r) => `${r.inst}/${r.date}`));
    for (const [inst, bs] of bars) {
      const ins = byInst.get(inst)!;
      const cal = days.get(ins.market)!;
      const have = new Set(bs.map((b) => b.date));
      for (const b of bs) expect(cal.includes(b.date)).toBe(true);
      for (const d of cal.filter((d) => d > bs[0].date && d <= Math.max(...minuteDays, bs[bs.length - 1].date))) {
        if (have.has(d)) continue;
        expect(ins.kind).toBe('equity');
        gaps++;
        if (minuteDays.includes(d)) gapsInMinuteWindow++;
        expect(intraday.has(`${inst}/${d}`)).toBe(false);
      }
    }
    expect(gaps).toBeGreaterThan(5);
    expect(gapsInMinuteWindow).toBeGreaterThan(0);
  });

  it('keeps every equity day within its price limits, at tick precision', () => {
    let checked = 0,
      up = 0,
      down = 0,
      broken = 0,
      run = 0,
      longestRun = 0;
    const bad: string[] = [];
    for (const { eq, bar, ref, lim } of equityDays()) {
      const where = `${eq.id} ${bar.date}`;
      if ([bar.open, bar.high, bar.low, bar.close].some((p) => p % 10 !== 0 || p <= 0)) bad.push(`${where}: off-tick price`);
      if (bar.low > Math.min(bar.open, bar.close) || bar.high < Math.max(bar.open, bar.close)) bad.push(`${where}: OHLC order`);
      if (bar.volume % 100 !== 0 || bar.volume <= 0) bad.push(`${where}: volume ${bar.volume}`);
      if (bar.amount * 10 < bar.low * bar.volume || bar.amount * 10 > bar.high * bar.volume) bad.push(`${where}: VWAP outside the bar`);
      if (!lim || ref === null) {
        run = 0;
        continue;
      }
      checked++;
      if (bar.high > lim.up || bar.low < lim.down)
        bad.push(`${where}: ${bar.low}..${bar.high} outside ${lim.down}..${lim.up} (ref ${ref})`);
      if (bar.close === lim.up) {
        up++;
        run++;
        longestRun = Math.max(longestRun, run);
      } else run = 0;
      if (bar.close === lim.down) down++;
      if (bar.high === lim.up && bar.close < lim.up) broken++;
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
    expect(up).toBeGreaterThan(10);
    expect(down).toBeGreaterThan(2);
    expect(broken).toBeGreaterThan(2);
    expect(longestRun).toBeGreaterThanOrEqual(2);
  });

  it('records corporate actions that the prices respect', () => {
    const a = db.corporate_actions;
    expect(a.length).toBeGreaterThan(equities().length / 2);
    expect(a.some((x) => x.transfer_ratio > 0 || x.bonus_ratio > 0)).toBe(true);
    const cal = days.get('SH')!;
    for (const x of a) {
      expect(x.record_date).toBe(cal[cal.indexOf(x.ex_date) - 1]);
      expect(x.announce_date).toBeLessThan(x.record_date);
      expect(x.pay_date).toBe(x.ex_date);
      expect(bars.get(x.inst)!.some((b) => b.date === x.ex_date)).toBe(true);
    }
    const dividends = a.filter((x) => x.cash_per_share > 0);
    expect(dividends.filter((x) => x.ex_date % 10000 >= 501 && x.ex_date % 10000 <= 731).length / dividends.length).toBeGreaterThan(0.9);
  });

  it('has 241 one-minute bars per minute day that aggregate to the daily bar', () => {
    expect(minuteDays.length).toBe(OPTS.minuteDays ?? 10);
    const bad: string[] = [];
    for (const [inst, bs] of bars) {
      const ins = byInst.get(inst)!;
      const tick = ins.kind === 'fund' ? 1 : 10;
      const ms = group(minutes.get(inst) ?? [], (m) => m.date);
      for (const b of bs.filter((x) => minuteDays.includes(x.date))) {
        const m = ms.get(b.date)!;
        expect(m.map((x) => x.ts)).toEqual(LABELS.map((l) => epoch(b.date, l)));
        for (const x of m) {
          const where = `${ins.id} ${x.ts}`;
          if (x.low > Math.min(x.open, x.close) || x.high < Math.max(x.open, x.close)) bad.push(`${where}: OHLC order`);
          if ([x.open, x.high, x.low, x.close].some((p) => p % tick !== 0)) bad.push(`${where}: off-tick`);
          if (ins.kind !== 'index' && (x.volume % 100 !== 0 || x.volume <= 0)) bad.push(`${where}: volume ${x.volume}`);
        }
        expect([b.open, b.high, b.low, b.close, b.volume, b.amount]).toEqual([
          m[0].open,
          Math.max(...m.map((x) => x.high)),
          Math.min(...m.map((x) => x.low)),
          m[240].close,
          m.reduce((s, x) => s + x.volume, 0),
          m.reduce((s, x) => s + x.amount, 0),
        ]);
      }
    }
    expect(bad).toEqual([]);
  });

  it('decomposes one-minute bars into trades on tick days', () => {
    expect(tickDays.length).toBe(OPTS.tickDays ?? 2);
    const trades = group(db.trades, (t) => `${t.inst}/${t.date}`);
    const bad: string[] = [];
    let checkedDays = 0;
    for (const [inst, ms] of minutes) {
      if (byInst.get(inst)!.kind === 'index') continue;
      for (const [date, m] of group(
        ms.filter((x) => tickDays.includes(x.date)),
        (x) => x.date,
      )) {
        checkedDays++;
        const ts = trades.get(`${inst}/${date}`)!;
        expect(ts.map((t) => t.seq)).toEqual(ts.map((_, k) => k + 1));
        expect(ts[0]).toMatchObject({ ts: epoch(date, 565), side: 'neutral', price: m[0].open, volume: m[0].volume });
        for (let k = 1; k < ts.length; k++) {
          const t = ts[k];
          if (t.ts < ts[k - 1].ts) bad.push(`${inst} ${date} #${t.seq}: out of time order`);
          if (t.amount * 10 !== t.price * t.volume || t.volume % 100 !== 0 || t.volume <= 0) bad.push(`${inst} #${t.seq}: amount/volume`);
          if (t.side !== 'buy' && t.side !== 'sell') bad.push(`${inst} #${t.seq}: side ${t.side}`);
        }
        // Walk the continuous bars and the trades together: bar k takes the trades in (ts - 60 s, ts].
        let j = 1;
        for (const bar of m.slice(1)) {
          const from = j;
          while (j < ts.length && ts[j].ts <= bar.ts) j++;
          const inBar = ts.slice(from, j);
          if (inBar.length === 0 || inBar[0].ts <= bar.ts - 60) {
            bad.push(`${inst} ${bar.ts}: trades outside the bar`);
            continue;
          }
          const agg = [
            inBar[0].price,
            Math.max(...inBar.map((t) => t.price)),
            Math.min(...inBar.map((t) => t.price)),
            inBar[inBar.length - 1].price,
            inBar.reduce((s, t) => s + t.volume, 0),
            inBar.reduce((s, t) => s + t.amount, 0),
          ];
          if (agg.join() !== [bar.open, bar.high, bar.low, bar.close, bar.volume, bar.amount].join())
            bad.push(`${inst} ${bar.ts}: bar is not the trades' aggregate`);
        }
        if (j !== ts.length) bad.push(`${inst} ${date}: trades after 15:00`);
      }
    }
    expect(bad).toEqual([]);
    expect(checkedDays).toBeGreaterThan(0);
  });

  it('publishes one cumulative quote per minute bar with a consistent book', () => {
    const quotes = group(db.quotes, (q) => `${q.inst}/${q.date}`);
    const refs = new Map<string, number>();
    const lims = new Map<string, { up: number; down: number }>();
    for (const { eq, bar, ref, lim } of equityDays()) {
      if (ref !== null) refs.set(`${eq.inst}/${bar.date}`, ref);
      if (lim) lims.set(`${eq.inst}/${bar.date}`, lim);
    }
    let atLimit = 0;
    const bad: string[] = [];
    for (const [inst, ms] of minutes) {
      const ins = byInst.get(inst)!;
      const tick = ins.kind === 'fund' ? 1 : 10;
      const bs = bars.get(inst)!;
      for (const [date, m] of group(
        ms.filter((x) => tickDays.includes(x.date)),
        (x) => x.date,
      )) {
        const qs = quotes.get(`${inst}/${date}`)!;
        expect(qs.length).toBe(241);
        // On a listing day the previous close is the issue price, which is not stored.
        const prev = bs[bs.findIndex((b) => b.date === date) - 1];
        const preClose = ins.kind === 'equity' ? refs.get(`${inst}/${date}`) : prev?.close;
        let vol = 0,
          amt = 0,
          hi = -Infinity,
          lo = Infinity;
        const want: number[][] = [],
          got: number[][] = [];
        qs.forEach((q, k) => {
          vol += m[k].volume;
          amt += m[k].amount;
          hi = Math.max(hi, m[k].high);
          lo = Math.min(lo, m[k].low);
          want.push([m[k].ts, m[k].close, m[0].open, hi, lo, vol, amt, preClose ?? q.pre_close]);
          got.push([q.ts, q.last, q.open, q.high, q.low, q.volume, q.amount, q.pre_close]);
          const bid = [1, 2, 3, 4, 5].map((l) => q[`bid_p${l}`]),
            ask = [1, 2, 3, 4, 5].map((l) => q[`ask_p${l}`]);
          const where = `${ins.id} ${q.ts}`;
          if (ins.kind === 'index') {
            if (![...bid, ...ask].every((p) => p === null)) bad.push(`${where}: index with a book`);
            return;
          }
          if (bid[0] === null && ask[0] === null) bad.push(`${where}: empty book`);
          const lim = lims.get(`${inst}/${date}`);
          if (lim && (q.last === lim.up || q.last === lim.down)) {
            atLimit++;
            const [queue, empty] = q.last === lim.up ? [bid, ask] : [ask, bid];
            if (queue[0] !== q.last || empty.some((p) => p !== null)) bad.push(`${where}: book at the limit`);
          }
          if (bid[0] !== null && ask[0] !== null && !(bid[0] <= q.last && q.last <= ask[0] && bid[0] < ask[0]))
            bad.push(`${where}: crossed book`);
          for (let l = 1; l < 5; l++) {
            if (bid[l] !== null && bid[l - 1]! - bid[l] !== tick) bad.push(`${where}: bid levels`);
            if (ask[l] !== null && ask[l]! - ask[l - 1]! !== tick) bad.push(`${where}: ask levels`);
          }
          for (let l = 1; l <= 5; l++) {
            for (const side of ['bid', 'ask']) {
              const p = q[`${side}_p${l}`],
                v = q[`${side}_v${l}`];
              if ((p === null) !== (v === null) || (v !== null && (v % 100 !== 0 || v <= 0))) bad.push(`${where}: ${side} volume ${l}`);
            }
          }
        });
        expect(got).toEqual(want);
      }
    }
    expect(bad).toEqual([]);
    if (!process.env.DEMO_TEST_OPTS) expect(atLimit).toBeGreaterThan(0);
  });

  it('computes index levels from the members of each period (close within 0.02 point)', () => {
    const idx = db.instruments.filter((i) => i.kind === 'index');
    expect(idx.length).toBeGreaterThanOrEqual(10);
    const weights = group(db.index_weights, (w) => w.index_inst);
    const barAt = new Map(db.bars_1d.map((b) => [`${b.inst}/${b.date}`, b]));
    /** The close of `inst` before `date` (undefined: none). */
    const closeBefore = (inst: number, date: number) =>
      bars
        .get(inst)
        ?.filter((b) => b.date < date)
        .at(-1)?.close as number | undefined;
    let checked = 0;
    for (const ix of idx) {
      expect(ix.base_date && ix.base_value && ix.board === null).toBeTruthy();
      const dated = group(weights.get(ix.inst)!, (w) => w.trade_date);
      // Today's members are the last weight date's.
      const lastDate = Math.max(...dated.keys());
      expect(db.index_constituents.filter((c) => c.index_inst === ix.inst).map((c) => c.inst)).toEqual(
        dated.get(lastDate)!.map((w) => w.inst),
      );
      const ib = bars.get(ix.inst)!;
      // Each period's share counts q up to a factor: weight / reference price on its first day (unknown before the first stored day).
      let ms: { inst: number; q: number }[] | null = null;
      ib.forEach((b, k) => {
        const published = dated.get(b.date);
        if (published)
          ms =
            k === 0
              ? null
              : published.map((w) => {
                  const prev = closeBefore(w.inst, b.date)!;
                  const ref = barAt.has(`${w.inst}/${b.date}`) ? reference(prev, actionsOf(w.inst).get(b.date)) : prev;
                  return { inst: w.inst, q: w.weight / ref };
                });
        if (ms === null) return;
        let nc = 0,
          no = 0,
          den = 0,
          vol = 0,
          amt = 0;
        for (const c of ms) {
          const e = barAt.get(`${c.inst}/${b.date}`),
            prev = closeBefore(c.inst, b.date);
          if (e) {
            vol += e.volume;
            amt += e.amount;
            if (prev !== undefined && e.date !== byInst.get(c.inst)!.list_date) {
              nc += c.q * e.close;
              no += c.q * e.open;
              den += c.q * reference(prev, actionsOf(c.inst).get(b.date));
            }
          } else if (prev !== undefined) {
            nc += c.q * prev;
            no += c.q * prev;
            den += c.q * prev;
          }
        }
        expect([b.volume, b.amount]).toEqual([vol, amt]);
        expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
        expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
        expect(b.close % 10).toBe(0);
        checked++;
        expect(Math.abs((ib[k - 1].close * nc) / den - b.close), `${ix.id} ${b.date}`).toBeLessThanOrEqual(20);
        expect(Math.abs((ib[k - 1].close * no) / den - b.open), `${ix.id} ${b.date}`).toBeLessThanOrEqual(20);
      });
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('reviews the indices in June and December: weight dates on the trading day after the second Friday', () => {
    const first = Math.min(...db.bars_1d.map((b) => b.date));
    for (const [inst, rows] of group(db.index_weights, (w) => w.index_inst)) {
      const dates = [...new Set(rows.map((w) => w.trade_date))].sort((a, b) => a - b);
      expect(dates[0], byInst.get(inst)!.id).toBe(first);
      for (const d of dates.slice(1)) {
        const [y, m] = [Math.floor(d / 10000), Math.floor(d / 100) % 100];
        expect([6, 12]).toContain(m);
        const dow = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
        const friday = y * 10000 + m * 100 + 1 + ((5 - dow + 7) % 7) + 7;
        expect(d).toBe(days.get('SH')!.find((x) => x > friday));
      }
      expect(dates.length).toBeGreaterThan(1);
    }
  });

  it('has ETFs that track their underlying index within their limits', () => {
    const funds = db.instruments.filter((i) => i.kind === 'fund');
    expect(funds.filter((f) => f.fund_type === 'etf').length).toBeGreaterThanOrEqual(10);
    const ids = new Map(db.instruments.map((i) => [i.id, i]));
    for (const f of funds) {
      expect(f.board).toBeNull();
      const u = ids.get(f.underlying)!;
      expect(u.kind).toBe('index');
      const ub = new Map(bars.get(u.inst)!.map((b) => [b.date, b]));
      const fb = bars.get(f.inst)!;
      // Funds on ChiNext-only or STAR-only indices have those boards' 20% limit.
      const growth = db.index_constituents
        .filter((c) => c.index_inst === u.inst)
        .every((c) => ['chinext', 'star'].includes(byInst.get(c.inst)!.board));
      // The fund follows its index but on days its close is held at a limit (the index moved further).
      const free = fb.filter(
        (b, k) =>
          k === 0 ||
          ![limits(fb[k - 1].close, growth ? 20 : 10, 1).up, limits(fb[k - 1].close, growth ? 20 : 10, 1).down].includes(b.close),
      );
      expect(free.length).toBeGreaterThan(fb.length * 0.95);
      const ratios = free.map((b) => b.close / ub.get(b.date)!.close);
      const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
      for (const r of ratios) expect(Math.abs(r / mean - 1)).toBeLessThan(0.02);
      for (let k = 1; k < fb.length; k++) {
        const lim = limits(fb[k - 1].close, growth ? 20 : 10, 1);
        expect(fb[k].high).toBeLessThanOrEqual(lim.up);
        expect(fb[k].low).toBeGreaterThanOrEqual(lim.down);
      }
    }
  });

  it('classifies every equity once by industry, region and CSRC category, with up to three concepts', () => {
    const types = group(db.classifications, (c) => c.type);
    expect(types.get('industry')!.length).toBeGreaterThanOrEqual(25);
    expect(types.get('concept')!.length).toBeGreaterThanOrEqual(15);
    expect(types.get('region')!.length).toBe(31);
    expect(types.get('primary_industry')!.map((c) => c.id)).toEqual([...'ABCDEFGHIJKLMNOPQRS'].map((l) => `csrc.${l}`));
    const typeOf = new Map(db.classifications.map((c) => [c.id, c.type]));
    const csrcOfIndustry = new Map<string, string>();
    const links = group(db.instrument_classifications, (l) => l.inst);
    for (const e of equities()) {
      const ls = (links.get(e.inst) ?? []).map((l) => l.classification_id);
      const of = (t: string) => ls.filter((id) => typeOf.get(id) === t);
      expect([of('industry').length, of('region').length, of('primary_industry').length]).toEqual([1, 1, 1]);
      expect(of('concept').length).toBeLessThanOrEqual(3);
      const known = csrcOfIndustry.get(of('industry')[0]) ?? of('primary_industry')[0];
      expect(of('primary_industry')[0]).toBe(known);
      csrcOfIndustry.set(of('industry')[0], known);
    }
  });

  it('is deterministic: same seed, same rows; another seed, other rows', async () => {
    const again = openStore(':memory:');
    await migrate(again);
    await generateDemo(again, OPTS);
    expect(digest(await load(again))).toBe(digest(db));
    await again.close();
    const other = openStore(':memory:');
    await migrate(other);
    await generateDemo(other, { ...OPTS, seed: (OPTS.seed ?? 1) + 1 });
    const rows = await load(other);
    expect(digest(rows)).not.toBe(digest(db));
    expect(JSON.stringify(rows.bars_1d)).not.toBe(JSON.stringify(db.bars_1d));
    await other.close();
  }, 120_000);
});
