/** `mds serve` as a child process on a free port, and requests to it with bounded waits. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { BUILT_CLI, exited } from './ingest-helpers.js';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

export interface Served {
  child: ChildProcess;
  base: string;
  logs: any[];
  stderr: () => string;
  /** Resolves when stderr matches `pattern`; rejects when the process exits first or after `limitMs` (a bound, not a timing). */
  says(pattern: RegExp, limitMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `mds serve` (see `spawnServer`); resolves once it has said it listens (every worker, within 60 s). */
export async function serve(env: Record<string, string>): Promise<Served> {
  const served = await spawnServer(env);
  try {
    await served.says(/listening on/, 60_000);
  } catch (e) {
    await served.stop();
    throw e;
  }
  return served;
}

/** Starts `mds serve` (dist/, as `npm start`) on a free port (or `env.PORT`) with `env`, without waiting for it. */
export async function spawnServer(env: Record<string, string>): Promise<Served> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [...BUILT_CLI, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: port, DEMO: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: any[] = [];
  let out = '',
    err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const l of lines) {
      try {
        logs.push(JSON.parse(l));
      } catch {
        logs.push({ msg: l });
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  const served: Served = {
    child,
    base,
    logs,
    stderr: () => err,
    says: (pattern, limitMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(err)) return;
          done();
          resolve();
        };
        const gone = () => {
          done();
          reject(new Error(`server exited before saying ${pattern}: ${err}`));
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`server did not say ${pattern} within ${limitMs} ms: ${err}`));
        }, limitMs);
        const done = () => {
          clearTimeout(timer);
          child.stderr!.off('data', check);
          child.off('exit', gone);
        };
        child.stderr!.on('data', check);
        child.on('exit', gone);
        if (child.exitCode !== null || child.signalCode !== null) gone();
        else check();
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
    },
  };
  return served;
}

/** GET with a bound on the wait (it throws past `limitMs`): the status, the parsed body, Retry-After, X-Request-Id and Data-Version. */
export async function probe(url: string, key?: string, limitMs = 8000) {
  const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {}, signal: AbortSignal.timeout(limitMs) });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return {
    status: res.status,
    body,
    text,
    retryAfter: res.headers.get('retry-after'),
    requestId: res.headers.get('x-request-id'),
    dataVersion: res.headers.get('data-version'),
  };
}
