/**
 * One data version per response (docs/api.md, "Consistency"): while ingests commit, every page
 * read is the whole answer of one state of the data, never a mix of new rows with state cached
 * from before, and its ETag names that state. The commits alternate between two states (A, B)
 * of one equity's English name, daily bars, published adjustment factors and ST period, which
 * change the equity and the catalog page it is on (answered from the catalog snapshot alone),
 * its forward-adjusted prices and its price limits; the answers of each state come from an app
 * built afresh over the quiet store, the pages checked from a long-lived app that reads while
 * another store connection commits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../src/app/app.js';
import { dataTags, httpCache } from '../src/http/plugins/http-cache.js';
import { auth } from '../src/http/plugins/auth.js';
import { routeDefaults } from '../src/http/route-config.js';
import { openSnapshot, QueryCaches } from '../src/query/snapshot.js';
import { errorHandling } from '../src/http/plugins/errors.js';
import { CursorCodec } from '../src/http/cursor.js';
import { fingerprint } from '../src/http/collection.js';
import { loadConfig } from '../src/app/config.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { get, harness, STORES, uncursored, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';

/** Commits per store, and a bound on the time they may take. */
const COMMITS = 8;
const MAX_MS = 20_000;
const READERS = 4;

const dir = tmp('mds-versions-');

/** The instrument, bars, factors and ST period of state `s` (0: A, 1: B) as files for one ingest. */
function stateFiles(s: 0 | 1, equity: Record<string, string>, bars: Record<string, string>[]) {
  const id = equity.id;
  const instruments = [
    'instrument_id,kind,board,name,name_en,list_date',
    [id, 'equity', equity.board, equity.name, `${equity.name_en}${s === 0 ? '' : ' B'}`, equity.list_date].join(','),
  ];
  const cents = s === 0 ? 0 : 1;
  const px = (v: string) => (Math.round(Number(v) * 100) + cents) / 100;
  const lines = ['instrument_id,trade_date,open,high,low,close,volume,amount'];
  for (const b of bars) lines.push([id, b.trade_date, px(b.open), px(b.high), px(b.low), px(b.close), b.volume, b.amount ?? ''].join(','));
  const days = bars.map((b) => b.trade_date);
  const factors = ['instrument_id,trade_date,adj_factor', `${id},${days[0]},1`, `${id},${days[10]},${s === 0 ? '1.5' : '2'}`];
  const st = ['instrument_id,start_date,end_date', `${id},${days[5]},${s === 0 ? days[8] : days[15]}`];
  const files = { instruments, bars_1d: lines, adj_factors: factors, st_periods: st };
  return Object.entries(files).map(([name, rows]) => {
    const path = join(dir, `${name}-${s}.csv`);
    writeFileSync(path, rows.join('\n') + '\n');
    return { path, dataset: dataset(name)! };
  });
}

describe.each(STORES)('one data version per response ($name)', ({ url: makeUrl }) => {
  let h: Harness;
  let writer: Store;
  let urls: string[];
  let files: [ReturnType<typeof stateFiles>, ReturnType<typeof stateFiles>];
  /** The pages of each state, by URL. */
  const answers: [Map<string, string>, Map<string, string>] = [new Map(), new Map()];

  /** Commits state `s` through the writer's own connection. */
  const commit = async (s: 0 | 1) => {
    const r = await ingest(writer, files[s]);
    if (!r.ok || r.dataVersion === null) throw new Error(`state ${s} did not commit: ${r.errors.join('\n')}`);
  };

  beforeAll(async () => {
    h = await harness(await makeUrl());
    writer = openStore(h.url);
    const id: string = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
    const all = (await get(h, `/api/v1/equities/${id}/bars?interval=1d&from=2000-01-01&page[size]=1000`)).body.data;
    const bars = all.slice(-20);
    expect(bars.length).toBe(20);
    const equity = (await get(h, `/api/v1/equities/${id}`)).body.data;
    files = [stateFiles(0, equity, bars), stateFiles(1, equity, bars)];
    const [from, to] = [bars[0].trade_date, bars[19].trade_date];
    urls = [
      `/api/v1/equities/${id}`,
      '/api/v1/equities?page[size]=50',
      `/api/v1/equities/${id}/bars?interval=1d&adjustment=forward&from=${from}&to=${to}T23:59:59%2B08:00`,
      `/api/v1/equities/${id}/bars?interval=1w&adjustment=forward&from=${from}&to=${to}T23:59:59%2B08:00`,
      `/api/v1/equities/${id}/price-limits?from=${from}&to=${to}`,
      `/api/v1/equities/${id}/price-limits?from=${from}&to=${to}&page[size]=7`,
    ];
    for (const s of [0, 1] as const) {
      await commit(s);
      // A fresh app: no cache, a catalog read now.
      const app = await buildApp({ config: { ...loadConfig({}), databaseUrl: h.url }, store: h.store });
      for (const u of urls) {
        const r = await app.inject({ method: 'GET', url: u, headers: { 'x-api-key': h.key } });
        expect(r.statusCode, r.payload).toBe(200);
        answers[s].set(u, r.payload);
      }
      await app.close();
    }
    for (const u of urls) expect(answers[0].get(u), u).not.toBe(answers[1].get(u));
  });
  afterAll(async () => {
    await writer?.close();
    await h?.close();
  });

  it('serves every page whole from one state, under a tag that names it, while ingests commit', async () => {
    const tags = new Map<string, string>();
    const bad: string[] = [];
    let pages = 0;
    let done = false;
    const reader = async (n: number) => {
      for (let i = n; !done; i++) {
        const url = urls[i % urls.length];
        const r = await h.app.inject({ method: 'GET', url, headers: { 'x-api-key': h.key } });
        pages++;
        expect(r.statusCode, r.payload).toBe(200);
        // A next page's cursor names the version the page was read at: the states compare without it.
        const body = uncursored(r.payload);
        if (body !== uncursored(answers[0].get(url)!) && body !== uncursored(answers[1].get(url)!)) bad.push(`${url}: in neither state`);
        const tag = String(r.headers.etag);
        const seen = tags.get(tag);
        if (seen !== undefined && seen !== r.payload) bad.push(`${url}: tag ${tag} on two different bodies`);
        tags.set(tag, r.payload);
      }
    };
    const readers = Array.from({ length: READERS }, (_, n) => reader(n));
    const started = Date.now();
    try {
      for (let c = 0; c < COMMITS && Date.now() - started < MAX_MS; c++) {
        await commit(c % 2 === 0 ? 0 : 1);
        // Let the readers run between commits (reads both just after a commit and later).
        await new Promise((r) => setTimeout(r, 30 * (c % 3)));
      }
    } finally {
      done = true;
      await Promise.all(readers);
    }
    expect(pages).toBeGreaterThan(0);
    expect(bad.slice(0, 10)).toEqual([]);
  });
});

describe.each(STORES)('a request reads one snapshot ($name)', ({ url: makeUrl }) => {
  let h: Harness;
  let writer: Store;
  let id: string;
  beforeAll(async () => {
    h = await harness(await makeUrl());
    writer = openStore(h.url);
    id = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
  });
  afterAll(async () => {
    await writer?.close();
    await h?.close();
  });

  /** Commits a daily bar file of `bars` (as the API gives them) with each volume raised by `more`, through the writer's connection. */
  const commitVolumes = async (bars: Record<string, any>[], more: number) => {
    const path = join(dir, `volumes-${more}.csv`);
    writeFileSync(
      path,
      [
        'instrument_id,trade_date,open,high,low,close,volume,amount',
        ...bars.map((b) => [id, b.trade_date, b.open, b.high, b.low, b.close, b.volume + more, b.amount ?? ''].join(',')),
      ].join('\n') + '\n',
    );
    const r = await ingest(writer, [{ path, dataset: dataset('bars_1d')! }]);
    expect(r.ok && r.dataVersion).toBeGreaterThan(1);
    return r.dataVersion!;
  };

  it('is answered whole from its snapshot while another connection commits, its handler run once', async () => {
    const a = Fastify();
    await a.register(httpCache, { maxAge: async () => null });
    await a.register(errorHandling);
    const caches = new QueryCaches();
    let runs = 0;
    const bars = (await get(h, `/api/v1/equities/${id}/bars?interval=1d&page[size]=3`)).body.data;
    await a.register(async (scope) => {
      routeDefaults(scope, { cache: 'data', versioned: true, store: true });
      await scope.register(auth, { check: async () => {} });
      await scope.register(dataTags, { revision: 'r', open: () => openSnapshot(h.store, caches), maxAge: async () => null });
      scope.get('/v', async (req) => {
        runs++;
        const snap = req.snap!;
        const inst = snap.catalog.get(id)!;
        const read = async () => (await snap.marketData.dailyBars(inst.inst, 0, 99991231, null, 3)).map((b) => b.volume);
        const before = await read();
        // A commit between two reads of one request: the second read still sees the first's data.
        const committed = await commitVolumes(bars, 1000 + runs);
        return { version: snap.version, committed, before, after: await read() };
      });
    });
    await a.ready();
    try {
      const r = await a.inject({ url: '/v' });
      expect(r.statusCode, r.payload).toBe(200);
      const body = r.json();
      expect(runs).toBe(1);
      expect(body.after).toEqual(body.before);
      expect(body.committed).toBe(body.version + 1);
      expect(r.headers['data-version']).toBe(String(body.version));
      // The next request reads the version committed, under another tag.
      const next = await a.inject({ url: '/v', headers: { 'if-none-match': r.headers.etag as string } });
      expect(next.statusCode).toBe(200);
      expect(next.json().version).toBe(body.committed);
      expect(body.before).toEqual(bars.map((b: any) => b.volume));
      expect(next.json().before).toEqual(bars.map((b: any) => b.volume + 1001));
    } finally {
      await a.close();
    }
  });

  it("walks pages across a commit after the cursor's key, saying which version the cursor came from", async () => {
    const path = `/api/v1/equities/${id}/bars?interval=1d&from=2025-03-03&page[size]=5`;
    const first = await get(h, path);
    // The version of what the page shows (its ETag's): the cursor names it, not the snapshot's.
    const v1 = Number(/^"(\d+)\./.exec(first.headers.etag as string)![1]);
    expect(v1).toBeLessThanOrEqual(Number(first.headers['data-version']));
    expect(first.headers['data-version-cursor']).toBeUndefined();
    const ten = (await get(h, path.replace('page[size]=5', 'page[size]=10'))).body.data;
    // Rows of the first page and of the second change.
    const v2 = await commitVolumes(ten, 7);
    expect(v2).toBeGreaterThan(v1);
    const second = await get(h, first.body.links.next);
    expect(second.status).toBe(200);
    expect(Number(second.headers['data-version'])).toBe(v2);
    expect(Number(second.headers['data-version-cursor'])).toBe(v1);
    // No row repeated or skipped by key: the second page starts after the first's last bar, and shows the new data.
    expect(second.body.data.map((b: any) => b.trade_date)).toEqual(ten.slice(5).map((b: any) => b.trade_date));
    expect(second.body.data.map((b: any) => b.volume)).toEqual(ten.slice(5).map((b: any) => b.volume + 7));
    // Rows before the cursor are not read again; the walk restarted shows them new.
    expect((await get(h, path)).body.data.map((b: any) => b.volume)).toEqual(ten.slice(0, 5).map((b: any) => b.volume + 7));
    // A cursor of the version read carries no such header.
    const third = await get(h, second.body.links.next);
    expect(third.headers['data-version-cursor']).toBeUndefined();
  });

  it("refuses a cursor naming version 0 or one above the store's (400 invalid_cursor naming it), whatever it is signed with", async () => {
    const path = `/api/v1/equities/${id}/bars?interval=1d&from=2025-03-03&page[size]=5`;
    const first = await get(h, path);
    const latest = Number(first.headers['data-version']);
    const cursor: string = first.body.meta.next_cursor;
    const key: unknown[] = JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString('utf8'));
    expect(key.at(-1)).toBe(latest);
    // Signed as the server signs (the default CURSOR_SECRET is public): only the version differs.
    const codec = new CursorCodec(loadConfig({}).cursorSecret);
    const fp = fingerprint('listEquityBars', { instrument_id: id }, { interval: '1d', from: '2025-03-03' });
    expect(codec.encode(key, fp)).toBe(cursor);
    const second = (await get(h, first.body.links.next)).body.data.map((b: any) => b.trade_date);
    for (const version of [0, latest + 1, 2 ** 31 - 1]) {
      const r = await get(h, `${path}&page[after]=${codec.encode([...key.slice(0, -1), version], fp)}`);
      expect(r.status, `version ${version}`).toBe(400);
      expect(r.body.errors).toMatchObject([
        {
          code: 'invalid_cursor',
          source: { parameter: 'page[after]' },
          detail: `page[after] names data version ${version}, which no page of this store was read at (its versions are 1..${latest}); restart the walk without page[after]`,
        },
      ]);
      // Newest first too.
      const desc = await get(h, `${path}&order=desc&page[after]=${codec.encode([...key.slice(0, -1), version], fp + '&order=desc')}`);
      expect([desc.status, desc.body.errors?.[0]?.code], `desc, version ${version}`).toEqual([400, 'invalid_cursor']);
    }
    // Versions 1..latest are the store's: the walk goes on after the key.
    for (const version of [1, latest]) {
      const r = await get(h, `${path}&page[after]=${codec.encode([...key.slice(0, -1), version], fp)}`);
      expect(r.status, `version ${version}`).toBe(200);
      expect(r.body.data.map((b: any) => b.trade_date)).toEqual(second);
    }
  });
});
