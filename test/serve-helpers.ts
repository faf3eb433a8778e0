/** `mds serve` as a child process on a free port, and requests to it with bounded waits. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { BUILT_CLI, exited, sleep } from './ingest-helpers.js';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

export interface Served { child: ChildProcess; base: string; logs: any[]; stderr: () => string; stop(): Promise<void> }

/** Starts `mds serve` (see `spawnServer`); resolves once health answers (within 60 s). */
export async function serve(env: Record<string, string>): Promise<Served> {
  const served = await spawnServer(env);
  for (let i = 0; i < 240; i++) {
    if (served.child.exitCode !== null) throw new Error(`server exited ${served.child.exitCode}: ${served.stderr()}`);
    try {
      if ((await fetch(`${served.base}/api/v1/system/health`, { signal: AbortSignal.timeout(1000) })).status === 200) return served;
    } catch { /* not yet */ }
    await sleep(250);
  }
  await served.stop();
  throw new Error(`server did not start: ${served.stderr()}`);
}

/** Starts `mds serve` (dist/, as `npm start`) on a free port (or `env.PORT`) with `env`, without waiting for it. */
export async function spawnServer(env: Record<string, string>): Promise<Served> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [...BUILT_CLI, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: port, DEMO: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: any[] = [];
  let out = '', err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const l of lines) { try { logs.push(JSON.parse(l)); } catch { logs.push({ msg: l }); } }
  });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const base = `http://127.0.0.1:${port}`;
  const served: Served = {
    child, base, logs, stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
    },
  };
  return served;
}

/** GET with a bound on the wait: the status, the parsed body, Retry-After and the time taken. */
export async function probe(url: string, key?: string, limitMs = 8000) {
  const t = Date.now();
  const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {}, signal: AbortSignal.timeout(limitMs) });
  const text = await res.text();
  let body: any = null;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body, text, retryAfter: res.headers.get('retry-after'), ms: Date.now() - t };
}

