/**
 * The server process: SIGTERM drains and exits 0 at once when nothing is in flight; with
 * WORKERS=N a dead worker's replacement gets connections, and workers that cannot start are
 * forked again with back-off until the primary gives up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { exited, sleep, tmp } from './ingest-helpers.js';
import { freePort, serve, spawnServer, type Served } from './serve-helpers.js';
import { loadConfig } from '../src/app/config.js';
import { restartDelay } from '../src/app/server.js';

const running: Served[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
});

/** Waits at most `ms` for the child to exit: its exit, or null. */
async function exitWithin(s: Served, ms: number) {
  return { exit: await Promise.race([exited(s.child), sleep(ms).then(() => null)]) };
}

/** Opens a raw connection to the server and resolves once connected. */
function rawConnection(base: string): Promise<Socket> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => resolve(s)).on('error', reject);
  });
}

describe('SIGTERM', () => {
  it('closes idle and header-less connections at once and exits 0 promptly', async () => {
    const srv = await serve({ DATABASE_URL: join(tmp('mds-life-'), 'store.sqlite') });
    running.push(srv);
    // A keep-alive connection that was answered and stays open.
    const idle = await rawConnection(srv.base);
    const answered = new Promise((resolve) => idle.once('data', resolve));
    idle.write('GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered;
    // A connection whose headers never end, and one that never sends anything.
    const partial = await rawConnection(srv.base);
    partial.write('GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\n');
    const silent = await rawConnection(srv.base);
    const closed = [idle, partial, silent].map((s) => new Promise((resolve) => s.on('close', resolve).on('error', () => {})));
    await sleep(300);
    srv.child.kill('SIGTERM');
    const { exit } = await exitWithin(srv, 15_000);
    // Nothing in flight: the drain takes no wait. (It was the 10 s fallback: exit 1 and a log line.)
    expect(exit, srv.stderr()).toEqual({ code: 0, signal: null });
    expect(srv.logs.filter((l) => /still in flight/.test(l.msg))).toEqual([]);
    await Promise.all(closed);
  });
});

describe('WORKERS=2', () => {
  it('a dead worker is replaced and its replacement gets connections, keep-alive clients included', async () => {
    const srv = await serve({ DATABASE_URL: join(tmp('mds-life-'), 'store.sqlite'), WORKERS: '2' });
    running.push(srv);
    expect(srv.stderr()).toContain('with 2 workers');
    // Four keep-alive clients, each asking again as soon as it is answered.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    let n = 0;
    const ask = () =>
      new Promise<string>((resolve) => {
        const id = `life-${++n}`;
        http
          .get(`${srv.base}/api/v1/system/health`, { agent, headers: { 'x-request-id': id } }, (res) => {
            res.resume();
            res.on('end', () => resolve(id));
          })
          .on('error', () => resolve(''));
      });
    const pidOf = (id: string): number | undefined => srv.logs.find((l) => l.reqId === id && l.pid)?.pid;
    const round = () => Promise.all([ask(), ask(), ask(), ask()]);
    const first: string[] = [];
    for (let i = 0; i < 10; i++) first.push(...(await round()));
    await sleep(200);
    const before = new Set(first.map(pidOf).filter((p): p is number => p !== undefined));
    expect(before.size).toBeGreaterThanOrEqual(1);
    const victim = [...before][0];
    process.kill(victim, 'SIGKILL');
    let replacement: number | undefined;
    const deadline = Date.now() + 20_000;
    while (replacement === undefined && Date.now() < deadline) {
      const ids = await round();
      await sleep(50);
      replacement = ids.map((id) => (id ? pidOf(id) : undefined)).find((p) => p !== undefined && !before.has(p));
    }
    agent.destroy();
    expect(srv.stderr()).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`));
    expect(replacement, 'no request was answered by the replacement worker within 20 s').toBeDefined();
  });

  it('workers that fail at start are forked again with back-off, and the primary gives up with exit 1', async () => {
    const port = await freePort();
    const blocker = createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    try {
      // A first wait of 10 ms instead of 250: the same schedule (restartDelay), 25 times shorter.
      const srv = await spawnServer({
        DATABASE_URL: join(tmp('mds-life-'), 'store.sqlite'),
        WORKERS: '2',
        PORT: String(port),
        WORKER_RETRY_MS: '10',
      });
      running.push(srv);
      // Six workers, each loading the app before it fails to listen: a bound, not a timing.
      const { exit } = await exitWithin(srv, 100_000);
      expect(exit, srv.stderr()).toEqual({ code: 1, signal: null });
      const waits = [...srv.stderr().matchAll(/failed to start \(exit code 1\); starting another in (\d+) ms/g)].map((m) => Number(m[1]));
      expect(waits).toEqual([10, 20, 40, 80]);
      expect(srv.stderr()).toMatch(/5 workers failed to start within 60 s .*; giving up/);
    } finally {
      blocker.close();
    }
  }, 120_000);

  it('waits 250 ms after the first start failure by default, doubling to at most 8 s', () => {
    const first = loadConfig({}).workerRetryMs;
    expect(first).toBe(250);
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => restartDelay(n, first))).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
});
