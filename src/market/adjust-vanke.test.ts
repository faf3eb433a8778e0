import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { divRoundHalfUp, parseScaled } from '../lib/decimal.js';
import { parseDate } from '../lib/time.js';
import {
  adjustBars,
  buildFactors,
  exactReferencePrice,
  prevCloseLookup,
  referencePrice,
  vendorBasis,
  type CorporateAction,
  type Factor,
} from './adjust.js';
import type { Bar } from './types.js';

// Real data, read in place from <repo>/../shared/data (see adjustments/README.md): Vanke
// 000002.SZ raw daily bars 1991–2011 (Hikyuu), its 权息 events (Hikyuu stkWeight) and Sina's
// ratio factors (hfq/qfq as of 2023-08-25). The README's cross-check: Sina-implied reference
// prices and those from the events agree to ≤ 0.0006 CNY on the 20 events 1994–2011.
const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const haveData = existsSync(DATA);
if (!haveData) console.warn(`adjust-vanke.test: ${DATA} is absent; skipping the Vanke checks`);

const rows = (f: string) =>
  readFileSync(DATA + f, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
const num = (s: string, scale: number) => {
  const v = parseScaled(s, scale);
  if (v === null) throw new Error(`not a decimal at scale ${scale}: ${s}`);
  return v;
};
const day = (s: string) => parseDate(s)!;
/** A 16-dp factor string as an exact rational. */
const rat = (s: string) => {
  const [i, f = ''] = s.split('.');
  return { num: BigInt(i + f), den: 10n ** BigInt(f.length) };
};
/** Half-up rounding of price × num/den to 0.01 CNY, in price units — the reference's own arithmetic. */
const px = (p: number, n: bigint, d: bigint) => Number(divRoundHalfUp(BigInt(p) * n, d * 10n) * 10n);

function load() {
  // date,open,high,low,close,amount_10k_cny,volume_lots
  const bars: Bar[] = rows('ohlcv/hikyuu_sz000002_daily_raw_1991_2011.csv').map((r) => ({
    ts: 0,
    date: day(r[0]),
    open: num(r[1], 3),
    high: num(r[2], 3),
    low: num(r[3], 3),
    close: num(r[4], 3),
    volume: num(r[6], 0) * 100,
    amount: num(r[5], 6),
  }));
  // ts_code,name,date,bonus/10,rights/10,rights_price,cash/10,transfer/10,…,has_price_event
  const actions: CorporateAction[] = rows('adjustments/hikyuu_stkweight_events_to_2011.csv')
    .filter((r) => r[0] === '000002.SZ' && r[11] === '1')
    .map((r) => ({
      ex_date: day(r[2]),
      bonus_ratio: num(r[3], 5),
      rights_ratio: num(r[4], 5),
      rights_price: num(r[5], 3),
      cash_per_share: num(r[6], 4),
      transfer_ratio: num(r[7], 5),
    }));
  const sina = (f: string): Factor[] =>
    rows(f)
      .map((r) => ({ ex_date: day(r[0]), ...rat(r[1]) }))
      .sort((a, b) => a.ex_date - b.ex_date);
  return {
    bars,
    actions,
    hfq: sina('adjustments/sina_000002SZ_hfq_factor.csv'),
    qfq: sina('adjustments/sina_000002SZ_qfq_factor.csv'),
    hfqRows: rows('adjustments/sina_000002SZ_hfq_factor.csv')
      .filter((r) => r[0] !== '1900-01-01')
      .reverse()
      .map((r) => ({ date: day(r[0]), factor: r[1] })),
  };
}

describe.skipIf(!haveData)('Vanke 000002.SZ against Sina factors and Hikyuu events', () => {
  const { bars, actions, hfq, qfq, hfqRows } = haveData ? load() : { bars: [], actions: [], hfq: [], qfq: [], hfqRows: [] };
  const prevClose = prevCloseLookup(bars);
  const sinaAt = (fs: Factor[], date: number) => fs.filter((f) => f.ex_date <= date).at(-1)!;

  it('reference prices: exact within 0.0006 CNY of Sina-implied, rounded ones equal Sina-implied rounded', () => {
    let checked = 0,
      identical = 0;
    for (const a of actions) {
      const i = hfq.findIndex((f) => f.ex_date === a.ex_date);
      const p = prevClose(a.ex_date)!;
      const ref = exactReferencePrice(p, a);
      if (i < 0) {
        // 2007-09-05: a placement price without rights shares; no Sina factor either
        expect(ref.num, String(a.ex_date)).toBe(BigInt(p) * ref.den);
        continue;
      }
      // Sina-implied ref = P × f(prev)/f(D), in price units. The README says ≤ 0.0006 CNY; the
      // exact worst case is 2000-01-10 at 0.000646 CNY, so the bound is 0.00065 (0.65 units).
      const sn = BigInt(p) * hfq[i - 1].num * hfq[i].den,
        sd = hfq[i - 1].den * hfq[i].num;
      const d = ref.num * sd - sn * ref.den;
      expect((d < 0n ? -d : d) * 100n <= 65n * ref.den * sd, `${a.ex_date}`).toBe(true);
      if ((d < 0n ? -d : d) * 10n ** 9n <= ref.den * sd) identical++;
      expect(referencePrice(p, a), `${a.ex_date}`).toBe(Number(divRoundHalfUp(sn, sd * 10n)) * 10);
      checked++;
    }
    expect(checked).toBe(20);
    // All but 1998-07-10 (Sina's cash ≈ 0.15012) and 2000-01-10 (Sina's rights ratio 0.2727
    // where Hikyuu has 0.273) agree to 1e-9 CNY: Sina uses the unrounded reference price.
    expect(identical).toBe(18);
  });

  it('buildFactors has a factor on every Sina ex-date 1994–2011, cumulative within 1e-4', () => {
    const ours = buildFactors(actions, prevClose);
    const theirs = hfq.filter((f) => f.ex_date >= 19940101 && f.ex_date <= 20111231);
    expect(ours.map((f) => f.ex_date)).toEqual(theirs.map((f) => f.ex_date));
    const base = sinaAt(hfq, 19940620);
    for (const [k, f] of ours.entries()) {
      // ours / (theirs / base) − 1, as a rational
      const a = f.num * theirs[k].den * base.num,
        b = f.den * theirs[k].num * base.den;
      expect(Number(a - b) / Number(b), `${f.ex_date}`).toBeLessThan(1e-4);
      expect(Number(b - a) / Number(b), `${f.ex_date}`).toBeLessThan(1e-4);
    }
  });

  it("adjustBars with Sina's factors reproduces raw × hfq and raw / qfq to the tick (1994–2011)", () => {
    const from1994 = bars.filter((b) => b.date >= 19940101);
    const back = adjustBars(from1994, hfq, 'backward'),
      fwd = adjustBars(from1994, hfq, 'forward');
    const bad: string[] = [];
    from1994.forEach((b, i) => {
      const h = sinaAt(hfq, b.date),
        q = sinaAt(qfq, b.date);
      if (back[i].close !== px(b.close, h.num, h.den)) bad.push(`hfq ${b.date}: ${back[i].close}`);
      if (fwd[i].close !== px(b.close, q.den, q.num)) bad.push(`qfq ${b.date}: ${fwd[i].close} vs ${px(b.close, q.den, q.num)}`);
    });
    expect(bad).toEqual([]);
  });

  it('our forward closes (events → factors → bars) equal Sina qfq rebased to 2011-05-27', () => {
    const from1994 = bars.filter((b) => b.date >= 19940101);
    const ours = adjustBars(from1994, buildFactors(actions, prevClose), 'forward');
    const last = sinaAt(hfq, 20110527);
    const off: { date: number; ticks: number }[] = [];
    from1994.forEach((b, i) => {
      const f = sinaAt(hfq, b.date);
      const ref = px(b.close, f.num * last.den, f.den * last.num);
      if (ours[i].close !== ref) off.push({ date: b.date, ticks: (ours[i].close - ref) / 10 });
    });
    // Exact on every bar since the last event where the inputs differ (2000-01-10); before it,
    // a handful of 1-tick differences from the 1998/2000 input differences noted above.
    expect(off.filter((o) => o.date >= 20000110)).toEqual([]);
    expect(off.every((o) => Math.abs(o.ticks) === 1)).toBe(true);
    expect(off.length).toBeLessThanOrEqual(10);
  });

  it('our backward closes equal Sina hfq rebased to 1994 up to the first input difference (1998-07-10)', () => {
    const span = bars.filter((b) => b.date >= 19940101 && b.date < 19980710);
    const ours = adjustBars(span, buildFactors(actions, prevClose), 'backward');
    const base = sinaAt(hfq, 19940620);
    const bad = span.filter((b, i) => {
      const f = sinaAt(hfq, b.date);
      return ours[i].close !== px(b.close, f.num * base.den, f.den * base.num);
    });
    expect(bad.map((b) => b.date)).toEqual([]);
  });

  it('adjusted bars keep low ≤ open, close ≤ high and scale volume inversely', () => {
    const f = buildFactors(actions, prevClose);
    for (const mode of ['backward', 'forward'] as const) {
      const adj = adjustBars(bars, f, mode);
      expect(
        adj.every((b) => b.low <= b.open && b.open <= b.high && b.low <= b.close && b.close <= b.high),
        mode,
      ).toBe(true);
      expect(adj.every((b, i) => b.amount === bars[i].amount)).toBe(true);
    }
    const back = adjustBars(bars, f, 'backward'),
      i = bars.findIndex((b) => b.date >= 20110527);
    // by 2011 the cumulative factor is ≈ 41: prices × 41, volume ÷ 41
    expect(back[i].close / bars[i].close).toBeGreaterThan(40);
    expect(Math.abs(back[i].volume * (back[i].close / bars[i].close) - bars[i].volume) / bars[i].volume).toBeLessThan(0.01);
  });

  // The stored days: from the listing (1991-01-29), without Hikyuu's zero-volume (suspended) rows.
  const stored = () => bars.filter((b) => b.date >= 19910129 && b.volume > 0);

  it("Sina's factors as a vendor basis: backward = raw × hfq, forward = raw × hfq / hfq(latest), every stored day from listing", () => {
    const basis = vendorBasis(hfqRows);
    expect(basis.factors).toHaveLength(36); // 37 rows less the 1900-01-01 sentinel; every row is a change
    const days = stored(),
      last = hfq[hfq.length - 1];
    const back = adjustBars(days, basis.factors, 'backward', 10, basis.initial),
      fwd = adjustBars(days, basis.factors, 'forward', 10, basis.initial);
    const bad = days.filter((b, i) => {
      const f = sinaAt(hfq, b.date);
      return back[i].close !== px(b.close, f.num, f.den) || fwd[i].close !== px(b.close, f.num * last.den, f.den * last.num);
    });
    expect(days).toHaveLength(4992);
    expect(bad.map((b) => b.date)).toEqual([]);
  });

  it('backward from the events vs Sina (rebased to 1993-04-05): 1,674 of 4,468 closes differ, by 1–6 ticks, all from the 1998-07-10 and 2000-01-10 inputs', () => {
    const days = stored().filter((b) => b.date >= 19930405),
      base = sinaAt(hfq, 19930405);
    const ticks = (fs: Factor[]) => {
      const ours = adjustBars(days, fs, 'backward');
      return days.map((b, i) => {
        const f = sinaAt(hfq, b.date);
        return Math.abs(ours[i].close - px(b.close, f.num * base.den, f.den * base.num)) / 10;
      });
    };
    const ours = buildFactors(actions, prevClose);
    const t = ticks(ours);
    expect(days).toHaveLength(4468);
    expect(t.filter((x) => x > 0)).toHaveLength(1674);
    expect(Math.max(...t)).toBe(6);
    expect(days[t.findIndex((x) => x > 0)].date).toBe(19990428);
    // Sina's own step (f(D)/f(prev)) on those two ex-dates instead of ours: no close differs.
    let cum = { num: 1n, den: 1n };
    const swapped = ours.map((f, k) => {
      const p = k ? ours[k - 1] : { num: 1n, den: 1n };
      let n = f.num * p.den,
        d = f.den * p.num;
      if (f.ex_date === 19980710 || f.ex_date === 20000110) {
        const i = hfq.findIndex((x) => x.ex_date === f.ex_date);
        [n, d] = [hfq[i].num * hfq[i - 1].den, hfq[i].den * hfq[i - 1].num];
      }
      cum = { num: cum.num * n, den: cum.den * d };
      return { ex_date: f.ex_date, ...cum };
    });
    expect(ticks(swapped).filter((x) => x > 0)).toEqual([]);
  });
});
