/**
 * clients/ts against the app listening on a port (both stores): its answers are the API's JSON,
 * its iterators walk every page once, errors and retries; and docs/clients.md's TypeScript block runs.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  all,
  createClient,
  events,
  MdsError,
  pages,
  retryAfterMs,
  rows,
  type MdsClient,
  type Row,
  type Schemas,
} from '../clients/ts/src/index.js';
import { currentVersion, recordVersion } from '../src/store/versions.js';
import { harness, STORES, walk, type Harness } from './helpers.js';
import type { DemoOptions } from '../src/demo/generate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BARS = '/api/v1/equities/{instrument_id}/bars' as const;
/** The demo's last year (the dates docs/clients.md's walk names), 20 equities, no minutes or ticks (as the Python tests). */
const LAST_YEAR: Partial<DemoOptions> = { seed: 1, equities: 20, start: 20251103, end: 20261120, minuteDays: 0, tickDays: 0 };

describe.each(STORES)('the TypeScript client on $name', ({ url }) => {
  let h: Harness;
  let base: string;
  let mds: MdsClient;
  beforeAll(async () => {
    h = await harness(await url(), LAST_YEAR);
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
    mds = createClient({ baseUrl: `${base}/api/v1/`, key: h.key });
  });
  afterAll(() => h?.close());

  it('answers the API’s JSON, typed by its path', async () => {
    expectTypeOf<Row<typeof BARS>>().toEqualTypeOf<Schemas['Bar']>();
    expectTypeOf<Row<'/api/v1/equities/{instrument_id}/valuations'>>().toEqualTypeOf<Schemas['Valuation']>();
    const { data, error, response } = await mds.GET('/api/v1/equities/{instrument_id}', {
      params: { path: { instrument_id: '600519.SH' } },
    });
    expect(error).toBeUndefined();
    expect(response.headers.get('data-version')).toMatch(/^\d+$/);
    const equity: Schemas['Instrument'] = data!.data;
    expect([equity.id, equity.name, equity.list_date, equity.kind]).toEqual(['600519.SH', '贵州茅台', '2001-08-27', 'equity']);
  });

  it('walks every page once: all() is the API’s rows, pages() one page per next_cursor', async () => {
    const expected = await walk(h, '/api/v1/equities/000001.SZ/bars?interval=1d&from=2025-08-01', 1000);
    const params = { path: { instrument_id: '000001.SZ' }, query: { interval: '1d' as const, from: '2025-08-01', 'page[size]': 20 } };
    const got: Row<typeof BARS>[] = await all(mds, BARS, params);
    expect(expected.length).toBeGreaterThan(60);
    expect(got).toEqual(expected);
    expect(got.map((b) => b.close)).toEqual(expected.map((b) => b.close));
    let count = 0;
    let last: string | null = 'first';
    for await (const page of pages(mds, BARS, params)) {
      count++;
      expect(page.data.length).toBeLessThanOrEqual(20);
      last = page.meta.next_cursor;
    }
    expect(count).toBe(Math.ceil(expected.length / 20));
    expect(last).toBeNull();
    const newest: string[] = [];
    for await (const bar of rows(mds, BARS, {
      path: { instrument_id: '000001.SZ' },
      query: { interval: '1d', order: 'desc', 'page[size]': 3 },
    })) {
      newest.push(bar.trade_date);
      if (newest.length === 5) break;
    }
    expect(newest).toEqual(
      expected
        .slice(-5)
        .map((b) => b.trade_date)
        .reverse(),
    );
  });

  it('walks collections without parameters and with a path and a date', async () => {
    const markets = await all(mds, '/api/v1/markets');
    expect(markets.map((m) => m.id).sort()).toEqual(['BJ', 'SH', 'SZ']);
    const breadth = [...(await walk(h, '/api/v1/markets/SZ/breadth', 1000)), ...(await walk(h, '/api/v1/markets/SH/breadth', 1000))];
    const day = breadth.reduce((a, b) => (b.limit_up > a.limit_up ? b : a));
    const pool = await all(mds, '/api/v1/equities/pools/{pool_type}', { path: { pool_type: 'limit_up' }, query: { date: day.trade_date } });
    expect(day.limit_up).toBeGreaterThan(0);
    expect(pool.map((r) => r.instrument_id)).toEqual(
      (await walk(h, `/api/v1/equities/pools/limit_up?date=${day.trade_date}`, 1000)).map((r) => r.instrument_id),
    );
    expect(pool.every((r) => r.close === r.limit_up)).toBe(true);
  });

  it('throws MdsError naming the problem', async () => {
    const bad = await all(mds, BARS, { path: { instrument_id: '600519.SH' }, query: { interval: '2d' as '1d' } }).catch((e) => e);
    expect(bad).toBeInstanceOf(MdsError);
    expect([bad.status, bad.code, bad.parameter]).toEqual([400, 'invalid_parameter', 'interval']);
    expect(bad.requestId).toMatch(/\w/);
    const missing = await all(mds, BARS, { path: { instrument_id: '000300.SH' }, query: { interval: '1d' } }).catch((e) => e);
    expect([missing.status, missing.detail]).toEqual([404, '000300.SH is an index: /api/v1/indices/000300.SH/bars']);
  });

  it('iterates the event stream: the versions after `after`, then each as it commits, filtered by dataset', async () => {
    const commit = (dataset: string) =>
      h.store.bulkTransaction((s) => recordVersion(s, `test ${dataset}`, [{ dataset, rows: 1, instruments: null, from: null, to: null }]));
    const v0 = await currentVersion((q, p) => h.store.selectRows(q, p));
    await commit('classifications');
    const got: Schemas['DataVersionRecord'][] = [];
    for await (const r of events({ baseUrl: `${base}/api/v1/`, key: h.key, query: { after: v0 } })) {
      got.push(r);
      if (got.length === 1) await commit('trading_days');
      if (got.length === 2) break;
    }
    expect(got.map((r) => [r.version, r.origin])).toEqual([
      [v0 + 1, 'test classifications'],
      [v0 + 2, 'test trading_days'],
    ]);
    const ctl = new AbortController();
    const only: number[] = [];
    for await (const r of events({ baseUrl: base, key: h.key, query: { after: v0, dataset: 'trading_days' }, signal: ctl.signal })) {
      only.push(r.version);
      ctl.abort();
    }
    expect(only).toEqual([v0 + 2]);
  });

  it('runs docs/clients.md’s TypeScript block', async () => {
    const doc = readFileSync(join(ROOT, 'docs/clients.md'), 'utf8');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toHaveLength(1);
    const dir = mkdtempSync(join(tmpdir(), 'mds-ts-doc-'));
    try {
      const file = join(dir, 'walk.mts');
      writeFileSync(file, blocks[0].replace(`from 'mds-client'`, `from '${join(ROOT, 'clients/ts/src/index.ts')}'`));
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        env: { ...process.env, MDS_URL: base, MDS_KEY: h.key },
        timeout: 60_000,
      });
      const bars = await walk(h, '/api/v1/equities/600519.SH/bars?interval=1d&from=2025-11-20&to=2026-11-20', 1000);
      const pool = await walk(h, '/api/v1/equities/pools/limit_up?date=2026-11-20', 1000);
      expect(stdout.split('\n')).toEqual([
        '贵州茅台',
        `${bars.length} ${bars.at(-1)?.close}`,
        `[${pool.map((r) => ` '${r.instrument_id}'`).join(',')}${pool.length ? ' ' : ''}]`,
        '',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the TypeScript client’s retries', () => {
  const page = { data: [], meta: { next_cursor: null }, links: { self: '/api/v1/markets', next: null } };
  const answer =
    (status: number, headers: Record<string, string> = {}) =>
    () =>
      new Response(
        JSON.stringify(
          status === 200 ? page : { errors: [{ status: String(status), code: 'x', title: 'x', detail: 'x' }], meta: { request_id: 'r' } },
        ),
        {
          status,
          headers: { 'content-type': 'application/json', ...headers },
        },
      );
  /** A fetch answering each request with the next of `answers`, the last one ever after. */
  const scripted = (answers: (() => Response)[]) => {
    const seen: string[] = [];
    const fetch = async (r: Request) => {
      seen.push(`${r.headers.get('x-api-key')} ${new URL(r.url).pathname}`);
      return answers[Math.min(seen.length, answers.length) - 1]();
    };
    return { seen, fetch };
  };

  it('waits as Retry-After says, then backs off, up to its retries', async () => {
    const waits: number[] = [];
    const s = scripted([answer(429, { 'retry-after': '2' }), answer(503), answer(200)]);
    const mds = createClient({
      baseUrl: 'http://stub',
      key: 'k',
      fetch: s.fetch,
      backoffMs: 250,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(await all(mds, '/api/v1/markets')).toEqual([]);
    expect(waits).toEqual([2000, 500]);
    expect(s.seen).toEqual(['k /api/v1/markets', 'k /api/v1/markets', 'k /api/v1/markets']);

    const gone = scripted([answer(503)]);
    const waits2: number[] = [];
    const again = createClient({ baseUrl: 'http://stub', fetch: gone.fetch, retries: 2, sleep: async (ms) => void waits2.push(ms) });
    const err = await all(again, '/api/v1/markets').catch((e) => e);
    expect([err.status, waits2, gone.seen.length]).toEqual([503, [500, 1000], 3]);
  });

  it('returns a Retry-After beyond maxWaitMs at once, and reads both forms of the header', async () => {
    const s = scripted([answer(429, { 'retry-after': '3600' }), answer(200)]);
    const mds = createClient({ baseUrl: 'http://stub', fetch: s.fetch, sleep: async () => expect.fail('no wait') });
    expect((await all(mds, '/api/v1/markets').catch((e) => e)).status).toBe(429);
    expect(s.seen).toHaveLength(1);
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(30_000);
    expect(retryAfterMs('soon')).toBeNull();
  });

  it('resumes the event stream with Last-Event-ID after an end, a 503 and `dropped`, and throws on a revoked key', async () => {
    const version = (v: number) =>
      `id: ${v}\nevent: version\ndata: ${JSON.stringify({ version: v, committed_at: 'x', origin: 'stub', changes: [] })}\n\n`;
    const sse = (body: string) => () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    const revoked = JSON.stringify({ code: 'invalid_api_key', detail: 'the API key of this stream was revoked' });
    const answers = [
      sse(`retry: 5\n\n: heartbeat 4\n\n${version(5)}`),
      answer(503, { 'retry-after': '1' }),
      sse(`${version(6)}event: dropped\ndata: {"after": 6}\n\n`),
      sse(`${version(7)}event: error\ndata: ${revoked}\n\n`),
    ];
    const ids: (string | null)[] = [];
    const fetch = async (r: Request) => {
      ids.push(r.headers.get('last-event-id'));
      return answers[ids.length - 1]();
    };
    const waits: number[] = [];
    const got: number[] = [];
    const err = await (async () => {
      for await (const r of events({
        baseUrl: 'http://stub',
        key: 'k',
        query: { after: 4 },
        fetch,
        sleep: async (ms) => void waits.push(ms),
      }))
        got.push(r.version);
    })().catch((e) => e);
    expect(got).toEqual([5, 6, 7]);
    expect(ids).toEqual([null, '5', '5', '6']);
    expect(waits).toEqual([5, 1000, 5]);
    expect(err).toBeInstanceOf(MdsError);
    expect([err.status, err.code]).toEqual([401, 'invalid_api_key']);
  });
});
