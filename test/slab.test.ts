/**
 * The app's renderer slab (src/render/json-bytes.ts) across requests: a body ending in the last
 * bytes of a grown slab whose length is not a multiple of 8 once left the next body's start past
 * the slab's end, and every collection answered 500 until a restart while readiness said ready
 * (issue 37). Every answer here is compared byte for byte with a fresh server's (test/slab-steer.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { get, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';
import { Renderer } from '../src/render/json-bytes.js';
import { SLAB, Steering } from './slab-steer.js';

const BARS = '/api/v1/equities/600519.SH/bars';

/** Rows of a CSV body (header first), split on commas (the values asked for here hold none). */
const csvRows = (body: Buffer) =>
  body
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));

describe('the five requests of issue 37, on the default demo market (SQLite, as `npm start` builds it)', () => {
  let h: Harness;
  let s: Steering;
  beforeAll(async () => {
    h = await harness(await STORES[0].url(), {});
    s = await Steering.over(h, '600519.SH');
  });
  afterAll(async () => {
    await s?.close();
    await h?.close();
  });

  it('answers every collection after them, in JSON, CSV and NDJSON, with the values a fresh server gives', async () => {
    const first = JSON.parse((await s.same(`${BARS}?interval=1d&page[size]=93`)).body.toString());
    await s.same(`${BARS}?interval=1m&page[size]=01000`);
    // The slab the report saw: 478,558 bytes, 6 past a multiple of 8.
    expect(s.renderer.slab.length).toBe(478_558);
    await s.same(`${BARS}?interval=1d&page[size]=1000`);
    const at = s.renderer.used;
    const fourth = await s.same(`${BARS}?interval=1d&page[size]=000000000000000039`);
    // It ends at byte 478,553, in the slab's last 8 bytes (rounded up to 8: 478,560, past its end).
    expect(at + fourth.body.length).toBe(478_553);
    const fifth = JSON.parse((await s.same(`${BARS}?interval=1d&page[size]=2`)).body.toString());
    expect(fifth.data).toEqual(first.data.slice(0, 2));
    expect(fifth.data[0]).toMatchObject({ instrument_id: '600519.SH', trade_date: '2023-01-03' });
    // Every collection and format after it.
    const csv = csvRows((await s.same(`${BARS}?interval=1d&page[size]=3`, 'text/csv')).body);
    const close = csv[0].indexOf('close');
    expect(csv.slice(1).map((r) => r[close])).toEqual(first.data.slice(0, 3).map((b: { close: string }) => b.close));
    const ids = JSON.parse((await s.same('/api/v1/equities?page[size]=5')).body.toString()).data.map((e: { id: string }) => e.id);
    const ndjson = (await s.same('/api/v1/equities?page[size]=5', 'application/x-ndjson')).body.toString().trim().split('\n');
    expect(ndjson.map((l, i) => Object.values(JSON.parse(l)).includes(ids[i]))).toEqual([true, true, true, true, true]);
    await s.same(`${BARS}?interval=5m&date=2026-11-20&page[size]=48`);
    expect((await get(h, '/api/v1/system/readiness', {})).body).toEqual({ status: 'ready' });
  });
});

describe.each(STORES)('bodies ending at every byte near the end of a grown slab, on $name', ({ url }) => {
  let h: Harness;
  let s: Steering;
  /** A page of quotes over the two days that have them: longer than the first slab. */
  let big: string;
  beforeAll(async () => {
    h = await harness(await url(), SMALL_DEMO);
    s = await Steering.over(h, '000001.SZ');
    const days = (await get(h, '/api/v1/equities/000001.SZ/bars?interval=1d&order=desc&page[size]=2')).body.data;
    big = `/api/v1/equities/000001.SZ/quotes?from=${days[1].trade_date}&to=${days[0].trade_date}&page[size]=1000`;
  });
  afterAll(async () => {
    await s?.close();
    await h?.close();
  });

  /** A server just started (a renderer of its own) answers a daily page of `prefix` records (none: 0), then `big`: the slab's new length. */
  async function grow(prefix: number): Promise<number> {
    h.app.svc.renderer = new Renderer();
    if (prefix > 0) await s.same(s.daily(prefix));
    expect((await s.same(big)).body.length).toBeGreaterThan(SLAB);
    return s.renderer.slab.length;
  }

  it('answers the next collections with the bytes of a fresh server, whatever the slab length modulo 8', async () => {
    // Slabs grown to each length modulo 8 but 0 (grown slabs are even), by the page before the big one.
    const prefixes = new Map<number, number>();
    for (let prefix = 0; prefixes.size < 3 && prefix <= 60; prefix++) {
      const mod = (await grow(prefix)) % 8;
      if (mod !== 0 && !prefixes.has(mod)) prefixes.set(mod, prefix);
    }
    expect([...prefixes.keys()].sort()).toEqual([2, 4, 6]);
    let ends = 0;
    for (const prefix of prefixes.values()) {
      const size = await grow(prefix);
      // Every end from the last multiple of 8 below the slab's end on; those past it left the next start past the end.
      for (let end = size - (size % 8) - 1; end <= size; end++) {
        expect(await grow(prefix)).toBe(size);
        await s.endAt(end);
        ends++;
        const pair = JSON.parse((await s.same(s.daily(2))).body.toString());
        expect(s.renderer.used).toBeLessThanOrEqual(s.renderer.slab.length);
        expect(pair.data.map((b: { instrument_id: string }) => b.instrument_id)).toEqual(['000001.SZ', '000001.SZ']);
        await s.same(s.daily(5), 'text/csv');
        await s.same(`${big.replace('1000', '3')}`, 'application/x-ndjson');
        await s.same(big);
        expect((await get(h, '/api/v1/system/readiness', {})).status).toBe(200);
      }
    }
    expect(ends).toBe(2 + 4 + 6 + 3 * 2);
  });

  it('says not ready while the process cannot render a page (its slab full, no memory for another), and ready again once it can', async () => {
    const page = s.daily(3);
    const want = (await s.reference(page)).body;
    s.renderer.reset();
    const alloc = vi.spyOn(Buffer, 'allocUnsafeSlow').mockImplementation(() => {
      throw new RangeError('Array buffer allocation failed');
    });
    try {
      const ready = await get(h, '/api/v1/system/readiness', {});
      expect(ready.status).toBe(503);
      expect(ready.body.errors[0]).toMatchObject({ code: 'not_ready', detail: expect.stringContaining('cannot render') });
      expect((await s.ask(page)).status).toBe(500);
    } finally {
      alloc.mockRestore();
    }
    expect((await get(h, '/api/v1/system/readiness', {})).body).toEqual({ status: 'ready' });
    expect((await s.ask(page)).body.equals(want)).toBe(true);
  });
});
