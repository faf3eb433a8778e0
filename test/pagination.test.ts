import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, TINY_DEMO, walk, type Harness } from './helpers.js';

/** Walking page by page, with any size, yields exactly the rows of one large page. */
describe.each(STORES)('pagination on $name', ({ url }) => {
  let h: Harness;
  let eq: string, fund: string;
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?board=main&page[size]=1')).body.data[0].id;
    fund = (await get(h, '/api/v1/funds?page[size]=1')).body.data[0].id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const paths = () => [
    '/api/v1/equities',
    '/api/v1/equities?market=SH',
    '/api/v1/indices',
    '/api/v1/classifications/sectors',
    '/api/v1/markets/SZ/trading-days?from=2025-01-01&to=2025-12-31',
    `/api/v1/equities/${eq}/bars?interval=1d`,
    `/api/v1/equities/${eq}/bars?interval=1w`,
    `/api/v1/equities/${eq}/bars?interval=5m`,
    `/api/v1/equities/${eq}/bars?interval=60m&from=2025-11-18T10:00:00`,
    `/api/v1/indices/000300.SH/bars?interval=1mo`,
    `/api/v1/equities/${eq}/trades?from=2025-11-20T09:00:00&to=2025-11-20T09:45:00`,
    `/api/v1/funds/${fund}/quotes`,
    '/api/v1/equities/pools',
  ];

  it('yields every row once, in order, for any page size', async () => {
    for (const p of paths()) {
      const whole = await walk(h, p, 1000);
      expect(whole.length, p).toBeGreaterThan(0);
      for (const size of [1, 7, 100]) {
        if (size === 1 && whole.length > 400) continue; // bounded run time; size 7 covers it
        const paged = await walk(h, p, size);
        expect(paged, `${p} size ${size}`).toEqual(whole);
      }
    }
  });

  it('lets the page size change mid-walk', async () => {
    const p = `/api/v1/equities/${eq}/bars?interval=1d`;
    const whole = await walk(h, p, 1000);
    const a = await get(h, `${p}&page[size]=5`);
    const b = await get(h, `${p}&page[size]=11&page[after]=${a.body.meta.next_cursor}`);
    expect([...a.body.data, ...b.body.data]).toEqual(whole.slice(0, 16));
  });

  it('takes a parameter written at its default as the same query as one without it', async () => {
    const walks = [
      `/api/v1/equities/${eq}/bars?interval=1d`,
      `/api/v1/equities/${eq}/bars?interval=5m`,
      `/api/v1/equities/${eq}/technical-indicators/macd?interval=1d`,
      `/api/v1/equities/${eq}/technical-indicators/kdj?interval=1w`,
      '/api/v1/indices/000300.SH/technical-indicators/rsi?interval=1d',
    ];
    for (const p of walks) {
      const whole = await walk(h, p, 1000);
      expect(whole.length, p).toBeGreaterThan(12);
      // Started with adjustment=none and continued without it, and the other way round.
      for (const [first, then] of [
        [`${p}&adjustment=none`, p],
        [p, `${p}&adjustment=none`],
      ]) {
        const a = await get(h, `${first}&page[size]=5`);
        const b = await get(h, `${then}&page[size]=7&page[after]=${a.body.meta.next_cursor}`);
        expect(b.status, `${first} then ${then}: ${b.payload}`).toBe(200);
        expect([...a.body.data, ...b.body.data], `${first} then ${then}`).toEqual(whole.slice(0, 12));
      }
      // Another adjustment is another query.
      if (p.startsWith('/api/v1/equities')) {
        const a = await get(h, `${p}&page[size]=5`);
        const b = await get(h, `${p}&adjustment=forward&page[after]=${a.body.meta.next_cursor}`);
        expect(b.body.errors?.[0].code, p).toBe('invalid_cursor');
      }
    }
  });

  it('links next to the following page and ends with nulls', async () => {
    const r = await get(h, '/api/v1/equities?market=SH&page[size]=3');
    expect(r.body.links.self).toBe('/api/v1/equities?market=SH&page[size]=3');
    expect(r.body.links.next).toBe(`/api/v1/equities?market=SH&page[size]=3&page[after]=${r.body.meta.next_cursor}`);
    const last = await get(h, '/api/v1/equities?market=SH&page[size]=1000');
    expect(last.body.meta.next_cursor).toBeNull();
    expect(last.body.links.next).toBeNull();
  });

  it('rejects an altered cursor or one replayed with other filters', async () => {
    const r = await get(h, '/api/v1/equities?market=SH&page[size]=2');
    const c: string = r.body.meta.next_cursor;
    const replay = await get(h, `/api/v1/equities?market=SZ&page[size]=2&page[after]=${c}`);
    expect(replay.status).toBe(400);
    expect(replay.body.errors[0]).toMatchObject({ code: 'invalid_cursor', source: { parameter: 'page[after]' } });
    const [k, s] = c.split('.');
    const forged = Buffer.from(JSON.stringify(['999999.SH'])).toString('base64url');
    for (const bad of [`${forged}.${s}`, `${k}.${s.slice(0, -2)}AA`, 'abc', `${k}`]) {
      const x = await get(h, `/api/v1/equities?market=SH&page[size]=2&page[after]=${bad}`);
      expect(x.status, bad).toBe(400);
      expect(x.body.errors[0].code).toBe('invalid_cursor');
    }
    const other = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&page[after]=${c}`);
    expect(other.body.errors[0].code).toBe('invalid_cursor');
  });
});

/** Cursors signed with the (public) default secret but holding keys of the wrong types get 400 invalid_cursor (see page-params.test.ts for every operation). */
describe.each(STORES)('forged cursors on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url(), TINY_DEMO);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 400 invalid_cursor', async () => {
    const { CursorCodec } = await import('../src/http/cursor.js');
    const { fingerprint } = await import('../src/http/collection.js');
    const codec = new CursorCodec('mds-cursor-v1');
    const eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
    const cases: [string, string, unknown[]][] = [
      [`/api/v1/equities/${eq}/trades`, 'listEquityTrades', ['x', 'y']],
      [`/api/v1/equities/${eq}/dividends`, 'listDividends', ['x', 'y', 'z']],
      [`/api/v1/equities/${eq}/balance-sheets`, 'listBalanceSheets', [{}, []]],
      [`/api/v1/equities/${eq}/bars?interval=1d`, 'listEquityBars', ['abc', 1e300]],
      [`/api/v1/equities/${eq}/price-limits`, 'listPriceLimits', [null]],
    ];
    for (const [path, op, key] of cases) {
      const q = Object.fromEntries(new URL('http://x' + path).searchParams);
      const c = codec.encode(key, fingerprint(op, { instrument_id: eq }, q));
      const r = await get(h, `${path}${path.includes('?') ? '&' : '?'}page[after]=${c}`);
      expect(r.status, `${op} ${JSON.stringify(key)}`).toBe(400);
      expect(r.body.errors[0].code).toBe('invalid_cursor');
    }
  });
});
