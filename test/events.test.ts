/**
 * GET /api/v1/events (docs/api.md, "Events"): a subscriber sees every committed version once,
 * in order, across a reconnect with Last-Event-ID and across a restart of the server; filters;
 * a revoked key's stream ends; the per-key limit answers 429; stream tokens accepted, expired
 * and forged ones refused; a slow reader is told where to resume. Both stores (PostgreSQL: the
 * hub hears LISTEN; SQLite: it polls).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { harness, STORES, type Harness } from './helpers.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { currentVersion, recordVersion } from '../src/store/versions.js';
import { signToken } from '../src/auth/tokens.js';
import { KeyStore } from '../src/auth/keys.js';
import { EventHub } from '../src/http/events/hub.js';
import { EventStream } from '../src/http/events/stream.js';
import type { App } from '../src/http/services.js';
import { openStream } from './sse-client.js';

const SECRET = 'test-token-secret-0123456789';
/** An open stream (test/sse-client.ts). */
const connect = (base: string, path: string, headers: Record<string, string>) => openStream(base + path, headers);

describe.each(STORES)('GET /api/v1/events on $name', ({ url }) => {
  let h: Harness;
  let app: App;
  let base: string;
  const config = () => ({
    ...loadConfig({}),
    databaseUrl: h.url,
    events: { heartbeatMs: 200, pollMs: 30, streamsPerKey: 3, bufferKb: 256 },
    tokenSecret: SECRET,
  });
  const start = async () => {
    app = await buildApp({ config: config(), store: h.store });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  };
  const commit = (dataset: string, instruments: string[] | null) =>
    h.store.bulkTransaction((s) => recordVersion(s, `test ${dataset}`, [{ dataset, rows: 1, instruments, from: 20261120, to: 20261120 }]));
  const keyed = () => ({ 'x-api-key': h.key });
  /** As the server process stops on SIGTERM (app/server.ts): close, and drain the connections. */
  const stop = async () => {
    const closed = app.close();
    app.connections.drain();
    await closed;
  };

  beforeAll(async () => {
    h = await harness(await url(), null);
    await start();
  }, 120_000);
  afterAll(async () => {
    await stop();
    await h?.close();
  });

  it('replays after `after`, goes live, and resumes with Last-Event-ID with every version once, across a server restart', async () => {
    const v0 = await currentVersion((q, p) => h.store.selectRows(q, p));
    const a = await connect(base, `/api/v1/events?after=${v0}`, keyed());
    expect(a.status).toBe(200);
    expect(a.header('content-type')).toBe('text/event-stream; charset=utf-8');
    for (let i = 0; i < 3; i++) await commit('bars_1d', ['600519.SH']);
    expect(await a.waitFor(3)).toBe(true);
    expect(a.versions()).toEqual([v0 + 1, v0 + 2, v0 + 3]);
    const first = JSON.parse(a.events[0].data);
    expect(first).toMatchObject({ version: v0 + 1, origin: 'test bars_1d' });
    expect(first.changes).toEqual([{ dataset: 'bars_1d', rows: 1, instruments: ['600519.SH'], from: '2026-11-20', to: '2026-11-20' }]);
    await a.close();
    // Two commits while away: the reconnect replays them, then goes live.
    await commit('bars_1d', null);
    await commit('income_statements', ['000001.SZ']);
    const b = await connect(base, `/api/v1/events?after=${v0}`, { ...keyed(), 'last-event-id': String(v0 + 3) });
    expect(await b.waitFor(2)).toBe(true);
    await commit('bars_1d', ['000001.SZ']);
    expect(await b.waitFor(3)).toBe(true);
    expect(b.versions()).toEqual([v0 + 4, v0 + 5, v0 + 6]);
    // The server closes (SIGTERM drains it so): the stream ends cleanly.
    await stop();
    expect(await b.waitEnd()).toBe(true);
    await b.close();
    await commit('bars_1d', ['600519.SH']);
    await start();
    const c = await connect(base, '/api/v1/events', { ...keyed(), 'last-event-id': String(v0 + 6) });
    expect(await c.waitFor(1)).toBe(true);
    expect(c.versions()).toEqual([v0 + 7]);
    await c.close();
  }, 60_000);

  it('sends only the versions that match dataset= and instrument_id=, with their matching changes', async () => {
    const v0 = await currentVersion((q, p) => h.store.selectRows(q, p));
    const s = await connect(base, `/api/v1/events?after=${v0}&dataset=bars_1d&instrument_id=600519.SH`, keyed());
    await commit('bars_1d', ['000001.SZ']);
    await commit('income_statements', ['600519.SH']);
    await commit('bars_1d', null);
    await commit('bars_1d', ['600519.SH']);
    expect(await s.waitFor(2)).toBe(true);
    expect(s.versions()).toEqual([v0 + 3, v0 + 4]);
    expect(JSON.parse(s.events[0].data).changes[0].instruments).toBe('all');
    await s.close();
  }, 30_000);

  it('ends the stream of a revoked key, and answers 429 over the per-key limit', async () => {
    const keys = new KeyStore(h.store.db);
    const { id, key } = await keys.create('revoked');
    const open = await Promise.all([1, 2, 3].map(() => connect(base, '/api/v1/events', { 'x-api-key': key })));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const over = await fetch(`${base}/api/v1/events`, { headers: { 'x-api-key': key } });
    expect(over.status).toBe(429);
    const body = (await over.json()) as any;
    expect(body.errors[0].code).toBe('too_many_streams');
    expect(body.errors[0].detail).toContain('EVENT_STREAMS_PER_KEY=3');
    await open[2].close();
    await keys.revoke(id);
    expect(await open[0].waitEnd()).toBe(true);
    expect(open[0].events.at(-1)).toMatchObject({ event: 'error' });
    expect(JSON.parse(open[0].events.at(-1)!.data).code).toBe('invalid_api_key');
    await Promise.all(open.map((s) => s.close()));
  }, 30_000);

  it('accepts a stream token as ?token= on /events only; an expired or forged one is 401 invalid_token', async () => {
    const id = h.key.split('_')[1];
    const token = signToken(SECRET, id, Math.floor(Date.now() / 1000) + 60);
    const s = await connect(base, `/api/v1/events?token=${token}`, {});
    expect(s.status).toBe(200);
    await s.close();
    for (const bad of [signToken(SECRET, id, Math.floor(Date.now() / 1000) - 1), signToken('another-secret-0123456789', id, 2e9), 'x']) {
      const r = await fetch(`${base}/api/v1/events?token=${bad}`);
      expect(r.status, bad).toBe(401);
      expect(((await r.json()) as any).errors[0].code).toBe('invalid_token');
    }
    const other = await fetch(`${base}/api/v1/changes?token=${token}`);
    expect(other.status).toBe(401);
    expect(((await other.json()) as any).errors[0].code).toBe('missing_api_key');
  }, 30_000);
});

describe('a slow reader', () => {
  it('is sent `event: dropped` naming the version to resume after, and ended, once its unread bytes pass the bound', async () => {
    const chunks: string[] = [];
    // A socket whose reader takes nothing: every write stays buffered.
    const res = new Writable({
      highWaterMark: 1,
      write(chunk, _enc, _cb) {
        chunks.push(String(chunk));
      },
    }) as unknown as ServerResponse;
    const written: string[] = [];
    const write = res.write.bind(res) as (s: string) => boolean;
    res.write = ((s: string) => (written.push(s), write(s))) as never;
    const versions = Array.from({ length: 50 }, (_, i) => ({ version: i + 1, at: 0, origin: 'x'.repeat(100), changes: [] }));
    let ended = 0;
    const snap = { version: 50, changeLog: async (after: number, limit: number) => versions.slice(after, after + limit), release() {} };
    const hub = new EventHub({ open: async () => snap as never, pollMs: 1000, onError: () => {} });
    const stream = new EventStream({
      res,
      hub,
      open: async () => snap as never,
      filter: {},
      after: 0,
      record: (v) => v,
      heartbeatMs: 60_000,
      bufferBytes: 1024,
      keyLive: async () => true,
      onError: (e) => {
        throw e;
      },
      onEnd: () => ended++,
    });
    stream.start();
    for (let i = 0; i < 100 && ended === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ended).toBe(1);
    hub.close();
    // The first write is buffered at once (a byte of room): the rest queue behind it.
    const all = (res as unknown as Writable).writableLength;
    expect(all).toBeGreaterThan(1024);
    // Events 1..n went out, then `dropped` naming n: /changes?after=n holds what follows.
    const ids = written.filter((w) => w.startsWith('id: ')).map((w) => Number(/^id: (\d+)/.exec(w)![1]));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    expect(ids.length).toBeLessThan(50);
    const last = written.at(-1)!;
    expect(last).toMatch(/^event: dropped\ndata: /);
    expect(JSON.parse(last.split('data: ')[1]).after).toBe(ids.at(-1));
    expect(chunks.length).toBe(1);
    res.destroy();
  });
});
