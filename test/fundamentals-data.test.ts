import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, SMALL_DEMO, STORES, walk, type Harness } from './helpers.js';
import { cents, divide, render, scaled } from './fundamentals-helpers.js';
import { formatDate } from '../src/lib/time.js';

/**
 * The datasets agree with each other and with the core demo: statement identities, indicators
 * recomputed here from the published statements, dividends = corporate actions, flows = bars.
 */
describe.each(STORES)('fundamentals data on $name', ({ url }) => {
  let h: Harness;
  let equities: any[];
  const END = formatDate(SMALL_DEMO.end!);
  const list = (id: string, seg: string) => walk(h, `/api/v1/equities/${id}/${seg}`, 1000);
  beforeAll(async () => {
    h = await harness(await url());
    equities = await walk(h, '/api/v1/equities', 1000);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reports every quarter in time, with balanced statements', async () => {
    const TYPE: Record<string, string> = { '03-31': 'q1', '06-30': 'h1', '09-30': 'q3', '12-31': 'annual' };
    const DEADLINE: Record<string, [number, string]> = { q1: [0, '04-30'], h1: [0, '08-31'], q3: [0, '10-31'], annual: [1, '04-30'] };
    for (const e of equities) {
      const [inc, bal, cf] = await Promise.all(['income-statements', 'balance-sheets', 'cash-flow-statements'].map((s) => list(e.id, s)));
      if (e.list_date < '2025-06-01') expect(inc.length, e.id).toBeGreaterThan(0);
      expect(bal.map((b) => b.report_date)).toEqual(inc.map((i) => i.report_date));
      expect(cf.map((c) => c.report_date)).toEqual(inc.map((i) => i.report_date));
      const actions = await h.store.db
        .selectFrom('corporate_actions')
        .select('ex_date')
        .where(
          'inst',
          '=',
          (await h.store.db.selectFrom('instruments').select('inst').where('id', '=', e.id).executeTakeFirstOrThrow()).inst,
        )
        .where((eb) => eb.or([eb('bonus_ratio', '>', 0), eb('transfer_ratio', '>', 0), eb('rights_ratio', '>', 0)]))
        .execute();
      const lastChange = formatDate(Math.max(0, ...actions.map((a) => a.ex_date)));
      inc.forEach((s, k) => {
        const b = bal[k],
          c = cf[k],
          y = Number(s.report_date.slice(0, 4));
        expect(s.report_type).toBe(TYPE[s.report_date.slice(5)]);
        const [dy, dl] = DEADLINE[s.report_type];
        expect(
          s.announce_date > s.report_date && s.announce_date <= `${y + dy}-${dl}` && s.announce_date <= END,
          `${e.id} ${s.report_date}`,
        ).toBe(true);
        expect(s.report_date >= '2022-01-01' && s.report_date.slice(0, 7) >= e.list_date.slice(0, 7)).toBe(true);
        if (k > 0) expect(s.report_date.slice(0, 4) === inc[k - 1].report_date.slice(0, 4) || s.report_type === 'q1').toBe(true);
        if (k > 0 && s.report_type === 'q1') expect(s.announce_date >= inc[k - 1].announce_date).toBe(true);
        const m = (x: string) => cents(x);
        expect(m(s.net_profit)).toBe(m(s.total_profit) - m(s.income_tax));
        expect(m(b.total_assets)).toBe(m(b.total_liabilities) + m(b.total_equity));
        expect(m(b.total_equity)).toBe(m(b.equity_attributable) + m(b.minority_interest));
        expect(m(b.current_assets) >= m(b.cash) + m(b.receivables) + m(b.inventory)).toBe(true);
        expect(m(b.total_assets) >= m(b.current_assets) + m(b.fixed_assets)).toBe(true);
        const shares = m(b.share_capital) / 100n;
        expect(m(b.share_capital) % 100n).toBe(0n);
        if (b.report_date >= lastChange) expect(Number(shares), `${e.id} share capital`).toBe(e.total_shares);
        expect(s.basic_eps).toBe(render(divide(m(s.net_profit_attributable), shares, 100n), 4));
        expect(m(c.free_cash_flow)).toBe(m(c.operating_cash_flow) - m(c.capex));
        expect(c.cash_end).toBe(b.cash);
        expect(m(c.cash_end)).toBe(m(c.cash_begin) + m(c.operating_cash_flow) + m(c.investing_cash_flow) + m(c.financing_cash_flow));
        const prevAnnual = inc.findIndex((x) => x.report_date === `${y - 1}-12-31`);
        if (prevAnnual >= 0) expect(c.cash_begin).toBe(cf[prevAnnual].cash_end);
        if (k > 0 && s.report_type !== 'q1') expect(m(s.revenue) >= m(inc[k - 1].revenue)).toBe(true);
      });
    }
  });

  it('derives every indicator from the statements of its period', async () => {
    const pct = (a: bigint, b: bigint) => render(divide(a, b, 10000n), 2);
    for (const e of equities) {
      const [inc, bal, ind] = await Promise.all(['income-statements', 'balance-sheets', 'financial-indicators'].map((s) => list(e.id, s)));
      expect(ind.map((i) => i.report_date)).toEqual(inc.map((i) => i.report_date));
      const byDate = new Map(inc.map((s) => [s.report_date, s]));
      ind.forEach((x, k) => {
        const s = inc[k],
          b = bal[k];
        const v = (o: any, f: string) => cents(o[f]);
        const shares = v(b, 'share_capital') / 100n,
          equity = v(b, 'equity_attributable');
        const prev = byDate.get(`${Number(s.report_date.slice(0, 4)) - 1}${s.report_date.slice(4)}`);
        const yoy = (f: string) =>
          prev && v(prev, f) !== 0n ? pct(v(s, f) - v(prev, f), v(prev, f) < 0n ? -v(prev, f) : v(prev, f)) : null;
        expect(x, `${e.id} ${x.report_date}`).toEqual({
          instrument_id: e.id,
          report_date: s.report_date,
          report_type: s.report_type,
          announce_date: s.announce_date,
          eps: render(divide(v(s, 'net_profit_attributable'), shares, 100n), 4),
          bps: render(divide(equity, shares, 100n), 4),
          roe: equity > 0n ? pct(v(s, 'net_profit_attributable'), equity) : null,
          roa: pct(v(s, 'net_profit'), v(b, 'total_assets')),
          gross_margin: pct(v(s, 'revenue') - v(s, 'operating_cost'), v(s, 'revenue')),
          net_margin: pct(v(s, 'net_profit'), v(s, 'revenue')),
          debt_to_assets: pct(v(b, 'total_liabilities'), v(b, 'total_assets')),
          current_ratio: render(divide(v(b, 'current_assets'), v(b, 'current_liabilities'), 100n), 2),
          quick_ratio: render(divide(v(b, 'current_assets') - v(b, 'inventory'), v(b, 'current_liabilities'), 100n), 2),
          revenue_yoy: yoy('revenue'),
          net_profit_yoy: yoy('net_profit_attributable'),
        });
      });
    }
  });

  it('implements exactly the corporate actions, and pays cash only out of positive profit', async () => {
    const db = h.store.db;
    for (const e of equities) {
      const inst = (await db.selectFrom('instruments').select('inst').where('id', '=', e.id).executeTakeFirstOrThrow()).inst;
      const actions = await db.selectFrom('corporate_actions').selectAll().where('inst', '=', inst).orderBy('ex_date').execute();
      const divs = await list(e.id, 'dividends');
      const implemented = divs.filter((d) => d.progress === 'implemented');
      expect(
        implemented.map((d) => [
          d.ex_date,
          d.record_date,
          d.pay_date,
          d.announce_date,
          scaled(d.cash_per_share, 5),
          scaled(d.bonus_per_share, 6),
          scaled(d.transfer_per_share, 6),
        ]),
        e.id,
      ).toEqual(
        actions
          .filter((a) => a.cash_per_share > 0 || a.bonus_ratio > 0 || a.transfer_ratio > 0)
          .map((a) => [
            formatDate(a.ex_date),
            formatDate(a.record_date),
            a.pay_date === null ? null : formatDate(a.pay_date),
            formatDate(a.announce_date),
            BigInt(a.cash_per_share),
            BigInt(a.bonus_ratio),
            BigInt(a.transfer_ratio),
          ]),
      );
      const annual = new Map(
        (await list(e.id, 'income-statements')).filter((s) => s.report_type === 'annual').map((s) => [s.report_date, s]),
      );
      for (const d of divs) {
        expect(d.report_period.endsWith('-12-31')).toBe(true);
        if (d.progress !== 'implemented') expect([d.ex_date, d.record_date, d.pay_date]).toEqual([null, null, null]);
        if (scaled(d.cash_per_share, 5) === 0n) continue;
        const s = annual.get(d.report_period);
        expect(s, `${e.id} ${d.report_period}`).toBeDefined();
        expect(cents(s.net_profit_attributable) > 0n, `${e.id} ${d.report_period} profit`).toBe(true);
        expect(s.announce_date <= d.announce_date).toBe(true);
      }
    }
  });

  it("splits each day's traded amount into capital flows", async () => {
    for (const e of equities.filter((_, i) => i % 3 === 0)) {
      const bars = await walk(h, `/api/v1/equities/${e.id}/bars?interval=1d`, 1000);
      const flows = await list(e.id, 'capital-flows');
      expect(flows.map((f) => f.trade_date)).toEqual(bars.map((b) => b.trade_date));
      flows.forEach((f, k) => {
        const amount = cents(bars[k].amount);
        expect(f.amount).toBe(bars[k].amount);
        let buys = 0n,
          sells = 0n;
        for (const c of ['extra_large', 'large', 'medium', 'small', 'main']) {
          const buy = cents(f[`${c}_buy`]),
            sell = cents(f[`${c}_sell`]),
            net = cents(f[`${c}_net`]);
          expect(buy >= 0n && sell >= 0n).toBe(true);
          expect(net).toBe(buy - sell);
          expect(f[`${c}_net_ratio`]).toBe(render(divide(net, amount, 10000n), 2));
          if (c !== 'main') {
            buys += buy;
            sells += sell;
          }
        }
        expect([buys, sells]).toEqual([amount, amount]);
        expect(cents(f.main_buy)).toBe(cents(f.extra_large_buy) + cents(f.large_buy));
        expect(cents(f.main_net)).toBe(cents(f.extra_large_net) + cents(f.large_net));
      });
    }
  });

  it('lists the stored classifications as sector memberships', async () => {
    for (const e of equities) {
      const rows = await h.store.db
        .selectFrom('instrument_classifications as ic')
        .innerJoin('instruments as i', 'i.inst', 'ic.inst')
        .innerJoin('classifications as c', 'c.id', 'ic.classification_id')
        .select(['c.id', 'c.name', 'c.type'])
        .where('i.id', '=', e.id)
        .orderBy('c.id')
        .execute();
      expect(await list(e.id, 'sector-memberships')).toEqual(
        rows.map((c, k) => ({ instrument_id: e.id, seq: k + 1, type: c.type, text: c.name, classification_id: c.id })),
      );
      const scope = await list(e.id, 'business-scope');
      expect(scope.map((s) => s.seq)).toEqual(scope.map((_, k) => k + 1));
      expect(scope.every((s) => s.classification_id === null && s.text.length > 0)).toBe(true);
    }
  });

  it('brackets the later reported profit in every earnings forecast', async () => {
    const TYPES = ['increase', 'decrease', 'turnaround', 'loss', 'continued_loss', 'slight_increase', 'slight_decrease', 'uncertain'];
    let n = 0;
    for (const e of equities) {
      const inc = new Map((await list(e.id, 'income-statements')).map((s) => [s.report_date, s]));
      for (const f of await list(e.id, 'earnings-forecasts')) {
        n++;
        const min = cents(f.net_profit_min),
          max = cents(f.net_profit_max),
          prev = cents(f.previous_net_profit);
        expect(min <= max && TYPES.includes(f.type)).toBe(true);
        const last = inc.get(`${Number(f.report_date.slice(0, 4)) - 1}${f.report_date.slice(4)}`);
        expect(last.net_profit_attributable).toBe(f.previous_net_profit);
        expect(last.announce_date <= f.announce_date).toBe(true);
        const abs = prev < 0n ? -prev : prev;
        expect([f.change_min, f.change_max]).toEqual([
          render(divide(min - prev, abs, 10000n), 2),
          render(divide(max - prev, abs, 10000n), 2),
        ]);
        const type =
          min < 0n && max > 0n
            ? 'uncertain'
            : max <= 0n
              ? prev < 0n
                ? 'continued_loss'
                : 'loss'
              : prev < 0n
                ? 'turnaround'
                : min + max >= 3n * prev
                  ? 'increase'
                  : min + max >= 2n * prev
                    ? 'slight_increase'
                    : min + max > prev
                      ? 'slight_decrease'
                      : 'decrease';
        expect(f.type, `${e.id} ${f.report_date}`).toBe(type);
        const actual = inc.get(f.report_date);
        if (!actual) continue;
        expect(f.announce_date < actual.announce_date).toBe(true);
        const a = cents(actual.net_profit_attributable);
        expect(min <= a && a <= max, `${e.id} ${f.report_date}`).toBe(true);
      }
    }
    expect(n).toBeGreaterThan(10);
  });

  it('keeps holdings, management and the profile consistent', async () => {
    for (const e of equities.filter((x) => x.list_date < '2025-01-01')) {
      const holdings = await list(e.id, 'institutional-holdings');
      expect(holdings.length, e.id).toBeGreaterThan(0);
      const byDate = new Map<string, any[]>();
      for (const x of holdings) byDate.set(x.report_date, [...(byDate.get(x.report_date) ?? []), x]);
      let previous: any[] | null = null;
      for (const rows of byDate.values()) {
        expect(rows.map((x) => x.rank)).toEqual(rows.map((_, k) => k + 1));
        for (let k = 1; k < rows.length; k++) expect(rows[k].shares <= rows[k - 1].shares).toBe(true);
        for (const x of rows) {
          const before = previous?.find((p) => p.holder_name === x.holder_name);
          expect(x.change).toBe(before ? x.shares - before.shares : null);
          expect(cents(x.percent_of_float) > 0n && cents(x.percent_of_float) <= 10000n).toBe(true);
        }
        previous = rows;
      }
      const people = await list(e.id, 'management-history');
      expect(people.every((p) => p.end_date === null || p.end_date >= p.start_date)).toBe(true);
      const chairs = people.filter((p) => p.title === 'chairman' && p.end_date === null);
      expect(chairs).toHaveLength(1);
      const profile = (await get(h, `/api/v1/equities/${e.id}/company-profile`)).body.data;
      expect(profile).toMatchObject({
        name: e.name,
        list_date: e.list_date,
        legal_representative: chairs[0].name,
        registered_capital: `${e.total_shares}.00`,
      });
      const region = (await list(e.id, 'sector-memberships')).find((m) => m.type === 'region');
      expect(profile.province).toBe(region.text);
    }
  });
});
