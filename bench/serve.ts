/** The benches' servers: `node dist/app/server.js` over a store, on a free loopback port, once ready. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** Resolves once the server on `port` answers its readiness probe (at most 60 s). */
export function waitReady(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const poll = () => fetch(`http://127.0.0.1:${port}/api/v1/system/readiness`).then((r) => (r.ok ? resolve() : retry()), retry);
    const retry = () => (Date.now() - t0 > 60_000 ? reject(new Error('server did not start')) : setTimeout(poll, 200));
    poll();
  });
}

/** Serves the store at `url` (one worker, no demo, quiet logs) on a free port; resolves once ready. */
export async function serveStore(url: string): Promise<{ base: string; process: ChildProcess; stop: () => void }> {
  const port = await freePort();
  const server = spawn(process.execPath, ['dist/app/server.js'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), DEMO: '0', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    await waitReady(port);
  } catch (e) {
    server.kill();
    throw e;
  }
  return { base: `http://127.0.0.1:${port}`, process: server, stop: () => server.kill() };
}
