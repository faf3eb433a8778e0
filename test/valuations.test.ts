/**
 * listValuations on the demo: each figure recomputed here, independently, from what the API
 * serves elsewhere (bars, share capital, statements, dividends), on the trading days around an
 * annual report's announcement: the day before it knows only the older reports, the day of it
 * the new ones (point in time). Integers and BigInt throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

const units = (s: string, digits: number) => {
  const [i, f = ''] = s.split('.');
  const neg = i.startsWith('-');
  const v = BigInt(i.replace('-', '')) * 10n ** BigInt(digits) + BigInt((f + '0'.repeat(digits)).slice(0, digits));
  return neg ? -v : v;
};
/** a / b with `d` decimals, half away from zero, as text; null unless b > 0. */
function div(a: bigint, b: bigint, d: number): string | null {
  if (b <= 0n) return null;
  const s = 10n ** BigInt(d);
  const n = a < 0n ? -a : a;
  const q = (n * s * 2n + b) / (b * 2n);
  const t = q.toString().padStart(d + 1, '0');
  return `${a < 0n && q !== 0n ? '-' : ''}${t.slice(0, -d)}.${t.slice(-d)}`;
}

describe.each(STORES)('valuations on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('knows on each day only the reports announced by then, and every figure is the formula of docs/fundamentals.md', async () => {
    let checked = 0,
      moved = 0;
    for (const e of (await walk(h, '/api/v1/equities', 1000)).slice(0, 12)) {
      const income = await walk(h, `/api/v1/equities/${e.id}/income-statements`, 1000);
      const balance = await walk(h, `/api/v1/equities/${e.id}/balance-sheets`, 1000);
      const shares = await walk(h, `/api/v1/equities/${e.id}/share-capital`, 1000);
      const dividends = await walk(h, `/api/v1/equities/${e.id}/dividends`, 1000);
      const bars = await walk(h, `/api/v1/equities/${e.id}/bars?interval=1d`, 1000);
      const annual = income.filter((s) => s.report_type === 'annual' && s.announce_date > bars[1]?.trade_date).at(-1);
      if (!annual) continue;
      const at = bars.findIndex((b) => b.trade_date >= annual.announce_date);
      if (at < 1) continue;
      const inForce = (d: string, strict = false) => shares.filter((c) => (strict ? c.change_date < d : c.change_date <= d)).at(-1);
      for (const b of [bars[at - 1], bars[at]]) {
        const d = b.trade_date;
        const [v] = (await get(h, `/api/v1/equities/${e.id}/valuations?date=${d}`)).body.data;
        const c = inForce(d);
        const close = units(b.close, 2); // fen
        const mv = close * BigInt(c.total_shares);
        const known = income.filter((s) => s.announce_date <= d).sort((x, y) => (x.report_date < y.report_date ? 1 : -1));
        const last = known[0];
        const ttm = (field: string) => {
          if (!last) return null;
          if (last.report_type === 'annual') return units(last[field], 2);
          const y = Number(last.report_date.slice(0, 4));
          const a = known.find((s) => s.report_type === 'annual' && s.report_date === `${y - 1}-12-31`);
          const p = known.find((s) => s.report_type === last.report_type && s.report_date === `${y - 1}${last.report_date.slice(4)}`);
          return a && p ? units(last[field], 2) + units(a[field], 2) - units(p[field], 2) : null;
        };
        const lyr = known.find((s) => s.report_type === 'annual');
        const bs = balance.filter((s) => s.announce_date <= d).sort((x, y) => (x.report_date < y.report_date ? 1 : -1))[0];
        const yearAgo = `${Number(d.slice(0, 4)) - 1}${d.slice(4)}`;
        const cash = dividends
          .filter((x) => x.progress === 'implemented' && x.ex_date !== null && x.ex_date > yearAgo && x.ex_date <= d)
          .reduce((s, x) => s + units(x.cash_per_share, 5) * BigInt(inForce(x.ex_date, true).total_shares), 0n);
        const pe = (base: bigint | null) => (base === null ? null : div(mv, base, 4));
        expect(v, `${e.id} ${d}`).toEqual({
          instrument_id: e.id,
          trade_date: d,
          close: b.close,
          total_shares: c.total_shares,
          float_shares: c.float_shares,
          total_market_value: div(mv, 100n, 2),
          float_market_value: div(close * BigInt(c.float_shares), 100n, 2),
          turnover_rate: div(BigInt(b.volume) * 100n, BigInt(c.float_shares), 2),
          pe: pe(lyr ? units(lyr.net_profit_attributable, 2) : null),
          pe_ttm: pe(ttm('net_profit_attributable')),
          pb: pe(bs ? units(bs.equity_attributable, 2) : null),
          ps_ttm: pe(ttm('revenue')),
          // Σ cash (1/100000 CNY) × shares over the market value in 1/100000 CNY, × 100 for percent.
          dividend_yield_ttm: div(cash * 100n, mv * 1000n, 4),
        });
        checked++;
      }
      const [before, on] = await Promise.all(
        [bars[at - 1], bars[at]].map(async (b) => (await get(h, `/api/v1/equities/${e.id}/valuations?date=${b.trade_date}`)).body.data[0]),
      );
      if (before.pe_ttm !== on.pe_ttm || before.pe !== on.pe) moved++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
    // The new annual report moves the static and TTM bases on its day.
    expect(moved).toBeGreaterThan(0);
  });

  it('pages through a window, one record per day with a bar', async () => {
    const e = (await walk(h, '/api/v1/equities', 1)).at(0);
    const bars = await walk(h, `/api/v1/equities/${e.id}/bars?interval=1d&from=2025-06-01&to=2025-07-31`, 1000);
    const vals = await walk(h, `/api/v1/equities/${e.id}/valuations?from=2025-06-01&to=2025-07-31`, 7);
    expect(vals.map((v) => [v.trade_date, v.close])).toEqual(bars.map((b) => [b.trade_date, b.close]));
  });
});
