/**
 * ETags across commits beyond bars (commit-etags.test.ts; query/change-scope.ts): price limits,
 * adjustment factors, fundamentals, an instrument's page and the instrument lists name the last
 * version that changed what they read, so revalidation after an unrelated commit is 304 (and a
 * fresh read has the same bytes), after a related one 200 with the new data under a tag naming
 * that version. Commits go through a second store connection while the app reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import type { QueryCaches } from '../src/query/snapshot.js';
import { get, harness, STORES, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';

const dir = tmp('mds-commit-scopes-');
/** The version an ETag names (`"42.k3V…"`). */
const versionOf = (etag: unknown) => Number(/^"(\d+)\./.exec(String(etag))![1]);
/** A price as cents, and back. */
const cents = (s: string) => Math.round(Number(s) * 100);
const px = (c: number) => (c / 100).toFixed(2);

describe.each(STORES)('ETags of limits, factors, fundamentals and instruments across commits ($name)', ({ url: makeUrl }) => {
  let h: Harness;
  let writer: Store;
  /** Two equities of one market; the last 40 days both have bars on (YYYY-MM-DD), and A's bars on them. */
  let a: string, b: string;
  let days: string[];
  let barsA: Record<string, any>[];
  /** A's market, and a day with A's ticks. */
  let market: string;
  let tickDay: string;
  let files = 0;

  /** Ingests `lines` (a header first) as `name`; returns the version committed. */
  const commit = async (name: string, lines: string[]) => {
    const path = join(dir, `${name}-${++files}.csv`);
    writeFileSync(path, lines.join('\n') + '\n');
    const r = await ingest(writer, [{ path, dataset: dataset(name)! }]);
    expect(r.ok && r.dataVersion, JSON.stringify(r.errors)).toBeGreaterThan(1);
    return r.dataVersion!;
  };
  /** Commits bar `i` of `id` (`base`: its row as the API gave it) with the close raised by `up` cents. */
  const commitBar = (id: string, base: Record<string, any>, up: number) => {
    const close = cents(base.close) + up;
    const high = Math.max(cents(base.high), close);
    return commit('bars_1d', [
      'instrument_id,trade_date,open,high,low,close,volume',
      [id, base.trade_date, base.open, px(high), base.low, px(close), base.volume].join(','),
    ]);
  };
  const revalidate = (path: string, etag: string) => get(h, path, { 'x-api-key': h.key, 'if-none-match': etag });

  beforeAll(async () => {
    h = await harness(await makeUrl());
    writer = openStore(h.url);
    const equities = (await get(h, '/api/v1/equities?page[size]=100')).body.data as { id: string; market: string; is_st: boolean }[];
    const same = equities.filter((e) => e.market === equities[0].market && !e.is_st);
    [a, b] = [same[0].id, same[1].id];
    market = same[0].market;
    const list = async (id: string) => (await get(h, `/api/v1/equities/${id}/bars?interval=1d&page[size]=1000`)).body.data as any[];
    const [la, lb] = [await list(a), await list(b)];
    const ofB = new Set(lb.map((r) => r.trade_date));
    days = la
      .map((r) => r.trade_date as string)
      .filter((d) => ofB.has(d))
      .slice(-40);
    expect(days.length).toBe(40);
    barsA = days.map((d) => la.find((r) => r.trade_date === d));
    const trade = (await get(h, `/api/v1/equities/${a}/trades?page[size]=1`)).body.data[0];
    expect(trade).toBeDefined();
    tickDay = trade.trade_date;
  });
  afterAll(async () => {
    await writer?.close();
    await h?.close();
  });

  const pages = () => ({
    limits: `/api/v1/equities/${a}/price-limits?from=${days[0]}&to=${days[19]}`,
    factors: `/api/v1/equities/${a}/adjustment-factors`,
    management: `/api/v1/equities/${a}/management-history?page[size]=1000`,
    income: `/api/v1/equities/${a}/income-statements`,
    profile: `/api/v1/equities/${a}/company-profile`,
    valuations: `/api/v1/equities/${a}/valuations?from=${days[0]}&to=${days[19]}`,
    equity: `/api/v1/equities/${a}`,
    otherEquity: `/api/v1/equities/${b}`,
    otherManagement: `/api/v1/equities/${b}/management-history?page[size]=1000`,
    list: `/api/v1/equities?page[size]=50`,
    search: `/api/v1/instruments?q=${a.slice(0, 6)}`,
    markets: '/api/v1/markets',
    market: `/api/v1/markets/${market}`,
    tradingDays: `/api/v1/markets/${market}/trading-days?from=${days[0]}&to=${days[39]}`,
    sectors: '/api/v1/classifications/sectors?page[size]=1000',
    industries: '/api/v1/classifications/primary-industries',
    poolTypes: '/api/v1/equities/pools',
    quotes: `/api/v1/equities/${a}/quotes?from=${tickDay}&to=${tickDay}&page[size]=5`,
    trades: `/api/v1/equities/${a}/trades?from=${tickDay}&to=${tickDay}&page[size]=5`,
  });
  type Page = keyof ReturnType<typeof pages>;
  /** Every page's 200 now: its tag and body. */
  const hold = async () => {
    const out = {} as Record<Page, { etag: string; payload: string; body: any }>;
    for (const [k, u] of Object.entries(pages()) as [Page, string][]) {
      const r = await get(h, u);
      expect(r.status, `${k}: ${r.payload}`).toBe(200);
      out[k] = { etag: r.headers.etag as string, payload: r.payload, body: r.body };
    }
    return out;
  };
  /** `kept` revalidate to 304 under the store's version `v`, a fresh read the same bytes; the others to 200 naming `v`, returned. */
  const check = async (held: Awaited<ReturnType<typeof hold>>, v: number, changed: Page[]) => {
    const out = {} as Record<Page, any>;
    for (const [k, u] of Object.entries(pages()) as [Page, string][]) {
      const r = await revalidate(u, held[k].etag);
      expect(Number(r.headers['data-version']), k).toBe(v);
      if (changed.includes(k)) {
        expect(r.status, k).toBe(200);
        expect(versionOf(r.headers.etag), k).toBe(v);
        out[k] = r.body;
      } else {
        expect(r.status, k).toBe(304);
        expect(r.headers.etag, k).toBe(held[k].etag);
        const fresh = await get(h, u);
        expect(fresh.headers.etag, k).toBe(held[k].etag);
        expect(fresh.payload, k).toBe(held[k].payload);
      }
    }
    return out;
  };

  it('keeps every page of A and the lists after a commit of B’s bars', async () => {
    const held = await hold();
    expect([held.limits.body.data.length, held.valuations.body.data.length]).toEqual([20, 20]);
    expect(held.income.body.data.length).toBeGreaterThan(0);
    expect(held.profile.body.data.instrument_id).toBe(a);
    const base = (await get(h, `/api/v1/equities/${b}/bars?interval=1d&date=${days[10]}`)).body.data[0];
    const v = await commitBar(b, base, 1);
    await check(held, v, []);
  });

  it('changes A’s management page alone after a commit of A’s management', async () => {
    const held = await hold();
    const v = await commit('management', [
      'instrument_id,seq,name,title,gender,birth_year,education,start_date,end_date',
      `${a},900,Test Person,director,female,1970,master,${days[5]},`,
    ]);
    const r = await check(held, v, ['management']);
    const added = r.management.data.filter((m: any) => m.name === 'Test Person');
    expect(added).toEqual([expect.objectContaining({ instrument_id: a, title: 'director', start_date: days[5], end_date: null })]);
    expect(r.management.data.length).toBe(held.management.body.data.length + 1);
  });

  it('carries A’s limits, factors and calendar entries over a commit of A’s fundamentals', async () => {
    const caches = (h.app as unknown as { svc: { caches: QueryCaches } }).svc.caches;
    const p = pages();
    const held0 = { limits: (await get(h, p.limits)).payload, factors: (await get(h, p.factors)).payload };
    const counted = [caches.equityDays.meta, caches.analytics.factors, caches.calendars.calendars];
    const before = counted.map((c) => [c.hits, c.misses]);
    await commit('management', [
      'instrument_id,seq,name,title,gender,birth_year,education,start_date,end_date',
      `${a},901,Other Person,supervisor,male,1968,bachelor,${days[6]},`,
    ]);
    // Plain reads (no tag): the handlers run at the new version, from the entries already kept.
    expect((await get(h, p.limits)).payload).toBe(held0.limits);
    expect((await get(h, p.factors)).payload).toBe(held0.factors);
    const after = counted.map((c) => [c.hits, c.misses]);
    expect(after.map(([hits], i) => hits - before[i][0]).every((n) => n > 0)).toBe(true);
    expect(after.map(([, misses], i) => misses - before[i][1])).toEqual([0, 0, 0]);
  });

  it('changes A’s limits, factors and valuations after a commit of A’s bars, and nothing else', async () => {
    const held = await hold();
    const v = await commitBar(a, barsA[10], 1);
    const r = await check(held, v, ['limits', 'factors', 'valuations']);
    // The next day's limits follow the new close; the days before stay.
    const next = r.limits.data.find((d: any) => d.trade_date === days[11]);
    expect(next.pre_close).toBe(px(cents(barsA[10].close) + 1));
    const prev = (list: any[]) => list.find((d: any) => d.trade_date === days[10]);
    expect(prev(r.limits.data)).toEqual(prev(held.limits.body.data));
    const val = r.valuations.data.find((d: any) => d.trade_date === days[10]);
    expect(val.close).toBe(px(cents(barsA[10].close) + 1));
    barsA[10] = { ...barsA[10], close: px(cents(barsA[10].close) + 1) };
  });

  it('keeps A’s limits and valuations of an earlier window after a commit of A’s later bars', async () => {
    const held = await hold();
    const v = await commitBar(a, barsA[30], 1);
    // Its factors follow every close (the one before an ex-date); the limits' rows end before its last bar either way.
    await check(held, v, ['factors']);
  });

  it('changes A’s factors and limits after a corporate action of A', async () => {
    const held = await hold();
    const v = await commit('corporate_actions', [
      'instrument_id,ex_date,record_date,pay_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price',
      `${a},${days[15]},${days[14]},${days[15]},${days[2]},0.25000,0.000000,0.000000,0.000000,0.00`,
    ]);
    const r = await check(held, v, ['limits', 'factors']);
    expect(r.factors.data.map((f: any) => f.trade_date)).toContain(days[15]);
    // The ex-date's reference price is the previous close less the cash.
    const ex = r.limits.data.find((d: any) => d.trade_date === days[15]);
    expect(ex.pre_close).toBe(px(cents(barsA[14].close) - 25));
  });

  it('changes A’s page, the lists and A’s limits after A’s ST period, and not B’s page', async () => {
    const held = await hold();
    const v = await commit('st_periods', ['instrument_id,start_date,end_date', `${a},${days[3]},`]);
    const r = await check(held, v, ['limits', 'equity', 'list', 'search']);
    expect([held.equity.body.data.is_st, r.equity.data.is_st]).toEqual([false, true]);
    expect(r.list.data.find((e: any) => e.id === a).is_st).toBe(true);
    expect(r.search.data.find((e: any) => e.id === a).is_st).toBe(true);
    const on = (list: any[]) => list.find((d: any) => d.trade_date === days[5]);
    expect([on(held.limits.body.data).is_st, on(r.limits.data).is_st]).toEqual([false, true]);
  });

  it('changes the trading days and A’s limits alone after a commit of its market’s calendar', async () => {
    const held = await hold();
    const v = await commit('trading_days', ['market,date,is_open', `${market},${days[39]},0`]);
    const r = await check(held, v, ['tradingDays', 'limits']);
    expect(r.tradingDays.data.map((d: any) => d.date)).toEqual(held.tradingDays.body.data.map((d: any) => d.date).slice(0, -1));
  });

  it('changes the classification lists alone after a commit of a classification', async () => {
    const held = await hold();
    const v = await commit('classifications', ['id,name,type', 'industry.etag_test,测试行业,industry']);
    const r = await check(held, v, ['sectors', 'industries']);
    expect(r.sectors.data.find((c: any) => c.id === 'industry.etag_test')).toMatchObject({ name: '测试行业', type: 'industry' });
    expect(r.industries.data).toEqual(held.industries.body.data);
  });

  it('changes A’s trades alone after a commit of A’s trades', async () => {
    const held = await hold();
    const t = held.trades.body.data[0];
    const v = await commit('trades', [
      'instrument_id,trade_date,seq,timestamp,price,volume,amount,side',
      [a, t.trade_date, t.seq, t.timestamp, px(cents(t.price) + 1), t.volume, t.amount, t.side].join(','),
    ]);
    const r = await check(held, v, ['trades']);
    expect(r.trades.data[0].price).toBe(px(cents(t.price) + 1));
  });
});
