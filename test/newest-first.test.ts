/**
 * order=desc on the time series: every walk newest first is the oldest-first walk reversed,
 * record for record, whatever the page size; the first page of 60 is the last 60 records; a
 * cursor of one order is refused by the other; files come in the same order; operations without
 * a time window do not take the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, walk, type Harness } from './helpers.js';

describe.each(STORES)('newest first on $name', ({ url }) => {
  let h: Harness;
  let eq: string;
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?board=chinext&page[size]=1')).body.data[0].id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('walks every time series as the oldest-first walk reversed', async () => {
    const paths = [
      `/api/v1/equities/${eq}/bars?interval=1d`,
      `/api/v1/equities/${eq}/bars?interval=1d&adjustment=forward&from=2025-03-01`,
      `/api/v1/equities/${eq}/bars?interval=5m&date=2025-11-20`,
      `/api/v1/equities/${eq}/bars?interval=1w`,
      '/api/v1/indices/000300.SH/technical-indicators/macd?interval=1d',
      `/api/v1/equities/${eq}/technical-indicators/kdj?interval=1d&from=2025-06-01`,
      `/api/v1/equities/${eq}/price-limits`,
      `/api/v1/equities/${eq}/trades?date=2025-11-20`,
      `/api/v1/equities/${eq}/capital-flows`,
      `/api/v1/equities/${eq}/valuations`,
      '/api/v1/funds/510300.SH/bars?interval=1d',
      '/api/v1/markets/SH/breadth',
      `/api/v1/equities/${eq}/income-statements`,
    ];
    for (const path of paths) {
      const asc = await walk(h, path, 1000);
      expect(asc.length, path).toBeGreaterThan(3);
      for (const size of [13, 1000])
        expect(await walk(h, `${path}${path.includes('?') ? '&' : '?'}order=desc`, size), `${path} by ${size}`).toEqual([...asc].reverse());
    }
  });

  it('gives the last 60 daily bars in one request, and refuses a cursor of the other order', async () => {
    const asc = await walk(h, `/api/v1/equities/${eq}/bars?interval=1d`, 1000);
    const r = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&order=desc&page[size]=60`);
    expect(r.body.data).toEqual(asc.slice(-60).reverse());
    const cursor = r.body.meta.next_cursor;
    expect(cursor).not.toBeNull();
    const wrong = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&page[after]=${cursor}`);
    expect([wrong.status, wrong.body.errors[0].code]).toEqual([400, 'invalid_cursor']);
    const csv = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&order=desc&page[size]=2`, { 'x-api-key': h.key, accept: 'text/csv' });
    expect(
      csv.payload
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[1]),
    ).toEqual([asc.at(-1).trade_date, asc.at(-2).trade_date]);
    expect(csv.headers.link).toContain('order=desc');
    const bad = await get(h, `/api/v1/equities/${eq}/bars?interval=1d&order=newest`);
    expect([bad.status, bad.body.errors[0].source]).toEqual([400, { parameter: 'order' }]);
    // A collection without a time window is not a time series: no order parameter.
    const listed = await get(h, '/api/v1/equities?order=desc');
    expect([listed.status, listed.body.errors[0].code]).toEqual([400, 'unknown_parameter']);
  });
});
