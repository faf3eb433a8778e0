import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

/** The HTTP contract, run against every store (SQLite always, PostgreSQL when configured). */
describe.each(STORES)('API contract on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url());
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('system and auth', () => {
    it('serves the public probes without a key', async () => {
      expect((await get(h, '/api/v1/system/health', {})).body).toEqual({ status: 'ok' });
      expect((await get(h, '/api/v1/system/readiness', {})).body).toEqual({ status: 'ready' });
      const v = await get(h, '/api/v1/system/version', {});
      expect(v.body).toMatchObject({ name: 'market-data-service', api_version: 'v1' });
      expect(v.body.version).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('rejects protected operations without an acceptable key', async () => {
      const missing = await get(h, '/api/v1/markets', {});
      expect(missing.status).toBe(401);
      expect(missing.body.errors[0]).toMatchObject({ status: '401', code: 'missing_api_key' });
      expect(missing.body.meta.request_id).toBeTruthy();
      const wrong = await get(h, '/api/v1/markets', { 'x-api-key': 'mds_AAAAAAAA_' + 'A'.repeat(32) });
      expect(wrong.status).toBe(401);
      expect(wrong.body.errors[0].code).toBe('invalid_api_key');
      const garbage = await get(h, '/api/v1/equities/600000.SH/bars?interval=1d', { 'x-api-key': 'nope' });
      expect(garbage.body.errors[0].code).toBe('invalid_api_key');
    });

    it('stops accepting a revoked key', async () => {
      const { KeyStore } = await import('../src/auth/keys.js');
      const ks = new KeyStore(h.store.db, 0);
      const { id, key } = await ks.create('temp');
      expect((await get(h, '/api/v1/markets', { 'x-api-key': key })).status).toBe(200);
      expect(await ks.revoke(id)).toBe(true);
      const app = h.app;
      (app.svc.keys as any).cache.clear();
      expect((await get(h, '/api/v1/markets', { 'x-api-key': key })).status).toBe(401);
      const rows = await h.store.db.selectFrom('api_keys').selectAll().execute();
      expect(rows.some((r) => r.hash.includes(key) || r.id === key)).toBe(false);
    });
  });

  describe('markets and classifications', () => {
    it('lists the three markets and gets one', async () => {
      const r = await get(h, '/api/v1/markets');
      expect(r.body.data.map((m: any) => m.id)).toEqual(['BJ', 'SH', 'SZ']);
      expect(r.body.meta).toEqual({ next_cursor: null });
      expect(r.body.links).toEqual({ self: '/api/v1/markets', next: null });
      const sh = await get(h, '/api/v1/markets/SH');
      expect(sh.body.data).toMatchObject({ id: 'SH', mic: 'XSHG', timezone: 'Asia/Shanghai' });
      const nx = await get(h, '/api/v1/markets/XX');
      expect(nx.status).toBe(404);
      expect(nx.body.errors[0].code).toBe('not_found');
      expect((await get(h, '/api/v1/markets/XX/trading-days')).status).toBe(404);
    });

    it('lists trading days of the real calendar', async () => {
      const y2024 = await walk(h, '/api/v1/markets/SH/trading-days?from=2024-01-01&to=2024-12-31', 100);
      expect(y2024).toHaveLength(242);
      expect(y2024[0]).toEqual({ market: 'SH', date: '2024-01-02' });
      expect(y2024.map((d) => d.date)).not.toContain('2024-02-09');
      const bj = await get(h, '/api/v1/markets/BJ/trading-days?to=2021-11-16');
      expect(bj.body.data.map((d: any) => d.date)).toEqual(['2021-11-15', '2021-11-16']);
      const bad = await get(h, '/api/v1/markets/SH/trading-days?from=2024-02-30');
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0]).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'from' } });
      const rev = await get(h, '/api/v1/markets/SH/trading-days?from=2024-03-01&to=2024-02-01');
      expect(rev.status).toBe(400);
    });

    it('classifies every equity', async () => {
      const sectors = await walk(h, '/api/v1/classifications/sectors', 1000);
      expect(new Set(sectors.map((s) => s.type))).toEqual(new Set(['industry', 'concept', 'region']));
      const primary = await walk(h, '/api/v1/classifications/primary-industries', 1000);
      expect(primary.length).toBeGreaterThanOrEqual(10);
      expect(primary.every((p) => p.type === 'primary_industry')).toBe(true);
      const unclassified = await h.store.db
        .selectFrom('instruments')
        .select('id')
        .where('kind', '=', 'equity')
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('instrument_classifications as c').select('c.inst').whereRef('c.inst', '=', 'instruments.inst'))),
        )
        .execute();
      expect(unclassified).toEqual([]);
    });
  });

  describe('instruments', () => {
    it('filters equities by market, board, code and name', async () => {
      const all = await walk(h, '/api/v1/equities', 1000);
      expect(all.length).toBe(40);
      expect(new Set(all.map((e) => e.board))).toEqual(new Set(['main', 'chinext', 'star', 'bse']));
      const star = await walk(h, '/api/v1/equities?board=star', 1000);
      expect(star.length).toBe(all.filter((e) => e.board === 'star').length);
      expect(star.every((e) => e.code.startsWith('688') || e.code.startsWith('689'))).toBe(true);
      const sz = await walk(h, '/api/v1/equities?market=SZ', 1000);
      expect(sz.every((e) => e.id.endsWith('.SZ'))).toBe(true);
      // Both filters, walked in small pages: exactly the equities that pass both, in id order.
      const szMain = await walk(h, '/api/v1/equities?market=SZ&board=main', 3);
      expect(szMain).toEqual(all.filter((e) => e.market === 'SZ' && e.board === 'main'));
      expect(szMain.length).toBeGreaterThan(3);
      const one = all[3];
      expect((await get(h, `/api/v1/equities?code=${one.code}`)).body.data).toEqual([one]);
      const part = one.name.slice(1, 3);
      const byName = await walk(h, `/api/v1/equities?name=${encodeURIComponent(part)}`, 1000);
      expect(byName).toContainEqual(one);
      expect(byName.every((e) => e.name.toLowerCase().includes(part.toLowerCase()))).toBe(true);
      const st = all.find((e) => e.is_st);
      if (st) {
        const lower = await walk(h, `/api/v1/equities?name=${encodeURIComponent(st.name.slice(0, 3).toLowerCase())}`, 1000);
        expect(lower).toContainEqual(st);
      }
    });

    it('lists each instrument as the same JSON, key for key, as its own route serialises it', async () => {
      // List pages copy each instrument's JSON made once per catalog row (serialize.ts); the
      // single-instrument route goes through the response schema's serialiser.
      for (const path of ['equities', 'indices', 'funds']) {
        const list = await walk(h, `/api/v1/${path}`, 7);
        expect(list.length).toBeGreaterThan(5);
        for (const item of list) {
          const one = await get(h, `/api/v1/${path}/${item.id}`);
          expect(JSON.stringify(item)).toBe(JSON.stringify(one.body.data));
        }
      }
    });

    it('gets one instrument of each kind and 404s across kinds', async () => {
      const e = await get(h, '/api/v1/equities?page[size]=1');
      const id = e.body.data[0].id;
      expect((await get(h, `/api/v1/equities/${id}`)).body.data).toEqual(e.body.data[0]);
      const idx = await get(h, '/api/v1/indices/000300.SH');
      expect(idx.body.data).toMatchObject({ id: '000300.SH', kind: 'index', board: null });
      expect((await get(h, '/api/v1/equities/000300.SH')).status).toBe(404);
      const funds = await walk(h, '/api/v1/funds', 100);
      expect(funds.length).toBeGreaterThanOrEqual(10);
      expect(funds[0].tick_size).toBe('0.001');
      expect((await get(h, `/api/v1/funds/${funds[0].id}`)).body.data).toEqual(funds[0]);
      expect((await get(h, '/api/v1/indices/nope')).status).toBe(404);
      expect((await walk(h, '/api/v1/indices', 100)).length).toBeGreaterThanOrEqual(10);
    });

    it('says where an id of another kind is, in its 404', async () => {
      const eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
      const fund = (await get(h, '/api/v1/funds?page[size]=1')).body.data[0].id;
      const cases: [string, string][] = [
        ['/api/v1/equities/000300.SH', '000300.SH is an index: /api/v1/indices/000300.SH'],
        ['/api/v1/equities/000300.SH/bars?interval=1d', '000300.SH is an index: /api/v1/indices/000300.SH/bars'],
        [
          '/api/v1/equities/000300.SH/technical-indicators/macd?interval=1w',
          '000300.SH is an index: /api/v1/indices/000300.SH/technical-indicators/macd',
        ],
        ['/api/v1/equities/000300.SH/quotes', '000300.SH is an index: /api/v1/indices/000300.SH/quotes'],
        // Indices have no dividends: the index itself.
        ['/api/v1/equities/000300.SH/dividends', '000300.SH is an index: /api/v1/indices/000300.SH'],
        [`/api/v1/indices/${eq}`, `${eq} is an equity: /api/v1/equities/${eq}`],
        [`/api/v1/funds/${eq}/quotes?date=2025-11-20`, `${eq} is an equity: /api/v1/equities/${eq}/quotes`],
        [
          `/api/v1/indices/${eq}/technical-indicators/kdj?interval=1d`,
          `${eq} is an equity: /api/v1/equities/${eq}/technical-indicators/kdj`,
        ],
        [`/api/v1/equities/${fund}`, `${fund} is a fund: /api/v1/funds/${fund}`],
        [`/api/v1/indices/${fund}/quotes`, `${fund} is a fund: /api/v1/funds/${fund}/quotes`],
        [`/api/v1/indices/${fund}/bars?interval=5m`, `${fund} is a fund: /api/v1/funds/${fund}/bars`],
        [
          `/api/v1/equities/${fund}/technical-indicators/rsi?interval=1d`,
          `${fund} is a fund: /api/v1/funds/${fund}/technical-indicators/rsi`,
        ],
        [`/api/v1/equities/${fund}/price-limits`, `${fund} is a fund: /api/v1/funds/${fund}`],
        ['/api/v1/equities/999999.SH/bars?interval=1d', 'No equity with id 999999.SH'],
      ];
      for (const [path, detail] of cases) {
        const r = await get(h, path);
        expect(r.status, path).toBe(404);
        expect(r.body.errors, path).toEqual([{ status: '404', code: 'not_found', title: 'Not found', detail }]);
      }
    });
  });

  describe('ids that are not one as written', () => {
    it('are 404, and the detail suggests the id a bare code, another case or a vendor spelling means, with its path', async () => {
      const wide = '６００５１９';
      const cases: [string, string][] = [
        ['/api/v1/equities/600519', 'No equity with id 600519; did you mean 600519.SH (/api/v1/equities/600519.SH)?'],
        ['/api/v1/equities/600519.sh', 'No equity with id 600519.sh; did you mean 600519.SH (/api/v1/equities/600519.SH)?'],
        [
          '/api/v1/equities/600519.sh/bars?interval=1d&from=2025-11-03',
          'No equity with id 600519.sh; did you mean 600519.SH (/api/v1/equities/600519.SH/bars)?',
        ],
        [
          '/api/v1/equities/sh600519/technical-indicators/macd?interval=1d',
          'No equity with id sh600519; did you mean 600519.SH (/api/v1/equities/600519.SH/technical-indicators/macd)?',
        ],
        [
          `/api/v1/equities/${encodeURIComponent(wide)}/valuations`,
          `No equity with id ${wide}; did you mean 600519.SH (/api/v1/equities/600519.SH/valuations)?`,
        ],
        // A code two kinds share: the asked kind's.
        ['/api/v1/equities/000001', 'No equity with id 000001; did you mean 000001.SZ (/api/v1/equities/000001.SZ)?'],
        ['/api/v1/indices/000001/bars?interval=1d', 'No index with id 000001; did you mean 000001.SH (/api/v1/indices/000001.SH/bars)?'],
        // Only another kind has it: where it is.
        [
          '/api/v1/equities/000300/bars?interval=1d',
          'No equity with id 000300; did you mean 000300.SH, an index (/api/v1/indices/000300.SH/bars)?',
        ],
        [
          '/api/v1/equities/000300.sh/dividends',
          'No equity with id 000300.sh; did you mean 000300.SH, an index (/api/v1/indices/000300.SH)?',
        ],
        ['/api/v1/funds/510300.XSHG/quotes', 'No fund with id 510300.XSHG; did you mean 510300.SH (/api/v1/funds/510300.SH/quotes)?'],
        // Nothing near: no suggestion.
        ['/api/v1/equities/999999', 'No equity with id 999999'],
        ['/api/v1/equities/600519.SX', 'No equity with id 600519.SX'],
      ];
      for (const [path, detail] of cases) {
        const r = await get(h, path);
        expect(r.status, path).toBe(404);
        expect(r.body.errors, path).toEqual([{ status: '404', code: 'not_found', title: 'Not found', detail }]);
      }
      // The suggested path, with the request's query, answers: the bars the mistyped request asked for.
      const bars = await get(h, '/api/v1/equities/600519.SH/bars?interval=1d&from=2025-11-03');
      expect(bars.status).toBe(200);
      expect(bars.body.data[0]).toMatchObject({ instrument_id: '600519.SH', trade_date: '2025-11-03' });
    });
  });

  describe('parameter errors', () => {
    const first = (r: any) => r.body.errors[0];
    it('names the problem', async () => {
      const eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
      let r = await get(h, `/api/v1/equities/${eq}/bars`);
      expect(r.status).toBe(400);
      expect(first(r)).toMatchObject({ code: 'missing_parameter', source: { parameter: 'interval' } });
      r = await get(h, `/api/v1/equities/${eq}/bars?interval=2d`);
      expect(first(r)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'interval' } });
      expect(first(r).detail).toContain('1m');
      r = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&date=2025-03-03&from=2025-03-01`);
      expect(first(r).code).toBe('conflicting_parameters');
      r = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&page_size=5`);
      expect(first(r)).toMatchObject({ code: 'unknown_parameter', source: { parameter: 'page_size' } });
      r = await get(h, '/api/v1/equities?market=HK&board=x');
      expect(r.body.errors.map((e: any) => e.source.parameter).sort()).toEqual(['board', 'market']);
      r = await get(h, '/api/v1/equities?page[size]=0');
      expect(first(r)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'page[size]' } });
      r = await get(h, '/api/v1/equities?page[size]=1001');
      expect(first(r).code).toBe('page_size_too_large');
      r = await get(h, '/api/v1/equities?page[size]=abc');
      expect(r.status).toBe(400);
      r = await get(h, `/api/v1/equities/${eq}/trades?from=yesterday`);
      expect(first(r)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'from' } });
      r = await get(h, `/api/v1/equities/${eq}/quotes?from=2025-11-20T15:00:00&to=2025-11-20T09:00:00`);
      expect(r.status).toBe(400);
      r = await get(h, '/api/v1/equities/NOPE.SH/bars?interval=1d');
      expect(r.status).toBe(404);
    });

    it('never answers 500 to odd input', async () => {
      const odd = ['%00', '%E4%B8', "'; drop table bars_1d; --", 'x'.repeat(300), '[]', '{}', '..%2F..'];
      for (const o of odd) {
        for (const p of [
          `/api/v1/equities/${o}`,
          `/api/v1/equities?name=${o}`,
          `/api/v1/equities/${o}/bars?interval=1d`,
          `/api/v1/equities?page[after]=${o}`,
          `/api/v1/markets/SH/trading-days?from=${o}`,
        ]) {
          const r = await get(h, p);
          expect(r.status, p).toBeLessThan(500);
          expect(r.body?.errors ?? r.body?.data, p).toBeDefined();
        }
      }
    });
  });
});
