/**
 * Caches and ETags that survive a commit (docs/api.md, "Caching"; query/change-index.ts): a
 * version that did not touch what a page shows leaves its ETag valid (304 on revalidation, the
 * `Data-Version` header the store's latest) and the server's cache entries in use; one that did
 * makes it 200 under a tag naming that version. Commits go through a second store connection
 * while the app reads, as an ingest beside a running server does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { openStore } from '../src/derived/open.js';
import { setPrecomputed } from '../src/derived/indicator-pages.js';
import type { QueryCaches } from '../src/query/snapshot.js';
import type { Store } from '../src/store/types.js';
import { get, harness, STORES, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';

const dir = tmp('mds-commit-etags-');
/** The version an ETag names (`"42.k3V…"`). */
const versionOf = (etag: unknown) => Number(/^"(\d+)\./.exec(String(etag))![1]);

describe.each(STORES)('ETags and caches across commits ($name)', ({ url: makeUrl }) => {
  let h: Harness;
  let writer: Store;
  let caches: QueryCaches;
  /** Two equities of one market, and the other's; 40 trading days they both have bars on (dates YYYY-MM-DD). */
  let a: string, b: string, c: string, market: string;
  let days: string[];
  /** Their bars on those days, as the API gives them. */
  const bars = new Map<string, Record<string, any>[]>();
  let files = 0;

  /** Commits `id`'s bars of days `which` (indices into `days`) with volumes raised by `more`; returns the version. */
  const commitBars = async (id: string, which: number[], more: number) => {
    const path = join(dir, `bars-${++files}.csv`);
    const rows = which.map((i) => bars.get(id)![i]);
    writeFileSync(
      path,
      [
        'instrument_id,trade_date,open,high,low,close,volume,amount',
        ...rows.map((r) => [id, r.trade_date, r.open, r.high, r.low, r.close, r.volume + more, r.amount ?? ''].join(',')),
      ].join('\n') + '\n',
    );
    const r = await ingest(writer, [{ path, dataset: dataset('bars_1d')! }]);
    expect(r.ok && r.dataVersion, r.errors.join('\n')).toBeGreaterThan(1);
    return r.dataVersion!;
  };
  /** GET with If-None-Match `etag`. */
  const revalidate = (path: string, etag: string) => get(h, path, { 'x-api-key': h.key, 'if-none-match': etag });
  const latest = async () => Number((await get(h, '/api/v1/markets/SH/bars?page[size]=1')).headers['data-version']);

  beforeAll(async () => {
    h = await harness(await makeUrl());
    writer = openStore(h.url);
    caches = (h.app as unknown as { svc: { caches: QueryCaches } }).svc.caches;
    const equities = (await get(h, '/api/v1/equities?page[size]=100')).body.data as { id: string; market: string }[];
    market = equities[0].market;
    const same = equities.filter((e) => e.market === market);
    [a, b] = [same[0].id, same[1].id];
    c = equities.find((e) => e.market !== market)?.id ?? same[2].id;
    // The last 40 days all three have bars on.
    const all = new Map<string, Record<string, any>[]>();
    for (const id of [a, b, c]) all.set(id, (await get(h, `/api/v1/equities/${id}/bars?interval=1d&page[size]=1000`)).body.data);
    const common = [...all.values()].map((l) => new Set(l.map((r) => r.trade_date)));
    days = all
      .get(a)!
      .map((r) => r.trade_date as string)
      .filter((d) => common.every((s) => s.has(d)))
      .slice(-40);
    expect(days.length).toBe(40);
    for (const [id, list] of all)
      bars.set(
        id,
        days.map((d) => list.find((r) => r.trade_date === d)!),
      );
  });
  afterAll(async () => {
    await writer?.close();
    await h?.close();
  });

  /** A's daily bars of days 0..19 (unadjusted, backward-adjusted), an indicator over them, and the cross-section of day 5 and day 35. */
  const pages = () => ({
    plain: `/api/v1/equities/${a}/bars?interval=1d&from=${days[0]}&to=${days[19]}`,
    adjusted: `/api/v1/equities/${a}/bars?interval=1d&adjustment=backward&from=${days[0]}&to=${days[19]}`,
    indicator: `/api/v1/equities/${a}/technical-indicators/ma?interval=1d&from=${days[0]}&to=${days[19]}`,
    day5: `/api/v1/markets/${market}/bars?date=${days[5]}&page[size]=10&kind=equity`,
    day35: `/api/v1/markets/${market}/bars?date=${days[35]}&page[size]=10&kind=equity`,
  });
  /** Each page's 200 now: its tag and body. */
  const fetchAll = async () => {
    const out: Record<string, { etag: string; payload: string }> = {};
    for (const [k, u] of Object.entries(pages())) {
      const r = await get(h, u);
      expect(r.status, `${k}: ${r.payload}`).toBe(200);
      out[k] = { etag: r.headers.etag as string, payload: r.payload };
    }
    return out;
  };

  it('revalidates to 304 after a commit that did not touch a page, to 200 after one that did', async () => {
    const before = await fetchAll();
    const p = pages();
    // B's bars of days 30..39: nothing of A, nothing on or before day 5.
    const v1 = await commitBars(b, [30, 31, 32, 33, 34, 35, 36, 37, 38, 39], 3);
    for (const k of ['plain', 'adjusted', 'indicator', 'day5'] as const) {
      const r = await revalidate(p[k], before[k].etag);
      expect(r.status, k).toBe(304);
      // The store's version all the same, and the tag the client holds.
      expect(Number(r.headers['data-version']), k).toBe(v1);
      expect(r.headers.etag, k).toBe(before[k].etag);
    }
    const day35 = await revalidate(p.day35, before.day35.etag);
    expect(day35.status).toBe(200);
    expect(versionOf(day35.headers.etag)).toBe(v1);
    expect(day35.payload).not.toBe(before.day35.payload);

    // B's bars of days 0..3: the cross-section of day 5 follows the days before it.
    const v2 = await commitBars(b, [0, 1, 2, 3], 4);
    const day5 = await revalidate(p.day5, before.day5.etag);
    expect(day5.status).toBe(200);
    expect(versionOf(day5.headers.etag)).toBe(v2);
    expect((await revalidate(p.plain, before.plain.etag)).status).toBe(304);

    // A's bars after the window (days 25..30): its unadjusted bars and indicator there stay; adjusted prices follow every bar.
    const v3 = await commitBars(a, [25, 26, 27, 28, 29, 30], 5);
    expect((await revalidate(p.plain, before.plain.etag)).status).toBe(304);
    expect((await revalidate(p.indicator, before.indicator.etag)).status).toBe(304);
    const adjusted = await revalidate(p.adjusted, before.adjusted.etag);
    expect(adjusted.status).toBe(200);
    expect(versionOf(adjusted.headers.etag)).toBe(v3);

    // A's bar of day 10: its page is 200, under a tag naming that version, with the new volume.
    const v4 = await commitBars(a, [10], 6);
    const plain = await revalidate(p.plain, before.plain.etag);
    expect(plain.status).toBe(200);
    expect(versionOf(plain.headers.etag)).toBe(v4);
    expect(plain.body.data[10].volume).toBe(bars.get(a)![10].volume + 6);
    expect(plain.body.data[9].volume).toBe(bars.get(a)![9].volume);
    const indicator = await revalidate(p.indicator, before.indicator.etag);
    expect(indicator.status).toBe(200);
    expect(versionOf(indicator.headers.etag)).toBe(v4);
  });

  it('makes an adjusted page 200 after a corporate action of its instrument', async () => {
    const p = pages();
    const held = await get(h, p.adjusted);
    const path = join(dir, `actions-${++files}.csv`);
    writeFileSync(
      path,
      [
        'instrument_id,ex_date,record_date,pay_date,announce_date,cash_per_share,bonus_per_share,transfer_per_share,rights_per_share,rights_price',
        `${a},${days[15]},${days[14]},${days[15]},${days[2]},0.25000,0.000000,0.000000,0.000000,0.00`,
      ].join('\n') + '\n',
    );
    const r = await ingest(writer, [{ path, dataset: dataset('corporate_actions')! }]);
    expect(r.ok, r.errors.join('\n')).toBe(true);
    const after = await revalidate(p.adjusted, held.headers.etag as string);
    expect(after.status).toBe(200);
    expect(versionOf(after.headers.etag)).toBe(r.dataVersion);
    // Another instrument's page stays.
    const other = `/api/v1/equities/${b}/bars?interval=1d&adjustment=backward&from=${days[0]}&to=${days[19]}`;
    const o = await get(h, other);
    await commitBars(a, [12], 7);
    expect((await revalidate(other, o.headers.etag as string)).status).toBe(304);
  });

  it('makes every page 200 after a change of all instruments (indicators precomputed)', async () => {
    const held = await fetchAll();
    const { after } = await setPrecomputed(writer, ['ma']);
    expect(after).toEqual(['ma']);
    const v = await latest();
    for (const [k, u] of Object.entries(pages())) {
      const r = await revalidate(u, held[k].etag);
      expect(r.status, k).toBe(200);
      expect(versionOf(r.headers.etag), k).toBe(v);
    }
  });

  it('carries the cache entries of what a commit did not touch over to its version', async () => {
    const p = pages();
    await get(h, p.adjusted);
    await get(h, p.day5);
    const series = caches.analytics.factors;
    const days5 = caches.marketDays.days;
    const carried = caches.catalog.carried;
    const [hits, misses, dayHits, dayMisses] = [series.hits, series.misses, days5.hits, days5.misses];
    // A commit of B's bars after day 5: A's adjustment factors, the day's records and the catalog serve the new version as they are.
    await commitBars(b, [38, 39], 8);
    const r = await get(h, p.adjusted);
    expect(r.status).toBe(200);
    expect([series.hits - hits, series.misses - misses]).toEqual([1, 0]);
    expect((await get(h, p.day5)).status).toBe(200);
    expect([days5.hits - dayHits, days5.misses - dayMisses]).toEqual([1, 0]);
    expect(caches.catalog.carried).toBe(carried + 1);
    // A commit of A's bars: its factors are read again (they follow its bars).
    await commitBars(a, [39], 9);
    expect((await get(h, p.adjusted)).status).toBe(200);
    expect([series.hits - hits, series.misses - misses]).toEqual([1, 1]);
  });

  it('answers 304 only where a fresh 200 would have the same bytes, over random commits and revalidations', async () => {
    let seed = 20260101;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const ids = [a, b, c];
    const urls = ids.flatMap((id) => [
      `/api/v1/equities/${id}/bars?interval=1d&from=${days[10]}&to=${days[29]}`,
      `/api/v1/equities/${id}/bars?interval=1w&from=${days[10]}&to=${days[29]}`,
      `/api/v1/equities/${id}/bars?interval=1d&adjustment=forward&from=${days[0]}&to=${days[19]}`,
      `/api/v1/equities/${id}/bars?interval=1d&from=${days[20]}&page[size]=5`,
      `/api/v1/equities/${id}/technical-indicators/macd?interval=1d&from=${days[20]}&to=${days[30]}`,
      `/api/v1/equities/${id}/price-limits?from=${days[10]}&to=${days[29]}`,
      `/api/v1/equities/${id}/price-limits?from=${days[30]}`,
      `/api/v1/equities/${id}/adjustment-factors`,
      `/api/v1/equities/${id}/valuations?from=${days[10]}&to=${days[29]}`,
      `/api/v1/equities/${id}/suspensions`,
      `/api/v1/equities/${id}/management-history`,
      `/api/v1/equities/${id}`,
    ]);
    urls.push(
      `/api/v1/markets/${market}/bars?date=${days[20]}&page[size]=20`,
      `/api/v1/markets/${market}/breadth?from=${days[0]}&to=${days[25]}`,
      `/api/v1/equities/pools/limit_up?date=${days[30]}`,
      `/api/v1/equities?page[size]=20`,
    );
    /** Per URL the tag held and the body it was sent with. */
    const held = new Map<string, { etag: string; payload: string }>();
    for (const u of urls) {
      const r = await get(h, u);
      expect(r.status, `${u}: ${r.payload}`).toBe(200);
      held.set(u, { etag: r.headers.etag as string, payload: r.payload });
    }
    let kept = 0,
      changed = 0;
    for (let round = 0; round < 10; round++) {
      const first = rand(38);
      await commitBars(
        ids[rand(3)],
        Array.from({ length: 1 + rand(3) }, (_, i) => first + i),
        10 + round,
      );
      for (let i = 0; i < 8; i++) {
        const u = urls[rand(urls.length)];
        const mine = held.get(u)!;
        const r = await revalidate(u, mine.etag);
        const fresh = await get(h, u);
        expect(fresh.status).toBe(200);
        if (r.status === 304) {
          kept++;
          // What the client holds is what the server would send now.
          expect(fresh.headers.etag, u).toBe(mine.etag);
          expect(fresh.payload, u).toBe(mine.payload);
        } else {
          expect(r.status, u).toBe(200);
          expect(r.payload).toBe(fresh.payload);
          if (r.payload !== mine.payload) changed++;
          held.set(u, { etag: r.headers.etag as string, payload: r.payload });
        }
      }
    }
    expect(kept).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(0);
  });
});
