/**
 * The request loop of bench/ha.ts: `connections` keep-alive connections, each sending one GET
 * after another, bounded in time (`seconds`) and in count (`maxRequests`), with faults run at
 * fractions of the time. Every answer is counted: a failure is anything but a whole 200 (another
 * status, a connection refused or reset, a body cut short, no answer within `timeoutMs`), named
 * by its kind. Req/s, latency and the failures are reported for the whole run and for each phase
 * between faults, and which server answered (haproxy's `X-Backend-Server`).
 */
import { Agent, request } from 'node:http';

export interface LoadOptions {
  seconds: number;
  connections: number;
  maxRequests: number;
  timeoutMs: number;
}

/** A fault run during the loop, `at` a fraction of its time (0..1). */
export interface Fault {
  at: number;
  name: string;
  run: () => Promise<unknown> | void;
}

interface Phase {
  name: string;
  /** Seconds from the start of the loop. */
  from: number;
  seconds: number;
  ok: number;
  failed: number;
  rps: number;
  p99: number;
  max: number;
}

export interface LoadResult {
  requests: number;
  ok: number;
  failed: number;
  /** Failures by kind: `503 not_ready`, `error ECONNRESET`, … */
  failures: Record<string, number>;
  /** The first failures, as answered (at most 10). */
  samples: string[];
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers by the server that gave them (X-Backend-Server; `direct` without one). */
  servers: Record<string, number>;
  phases: Phase[];
  /** When each fault was begun (s from the start) and how long it took (s). */
  faults: { name: string; at: number; took: number }[];
}

interface Answer {
  status: number;
  server: string | null;
  /** A failure's text (its body's first bytes, or the error). */
  text: string;
}

/** One GET on `agent`'s keep-alive connections, never rejecting: a failure is an Answer with status 0. */
function get(agent: Agent, base: URL, path: string, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: base.hostname, port: base.port, path, agent, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const server = (res.headers['x-backend-server'] as string | undefined) ?? null;
      let text = '';
      res.on('data', (c: Buffer) => {
        if (status !== 200 && text.length < 300) text += c.toString();
      });
      res.on('end', () =>
        resolve(res.complete ? { status, server, text: text.slice(0, 300) } : { status: 0, server, text: 'a body cut short' }),
      );
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, server, text: e.code ?? e.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, server: null, text: e.code ?? e.message }));
    req.end();
  });
}

/** What kind of failure an answer is (null: none). */
function failureKind(a: Answer): string | null {
  if (a.status === 200) return null;
  if (a.status === 0) return `error ${a.text}`;
  try {
    return `${a.status} ${JSON.parse(a.text).errors[0].code}`;
  } catch {
    return String(a.status);
  }
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))].toFixed(2) : 0;

/** Drives `base` with the paths `path()` makes; `faults` run meanwhile (awaited before it returns). */
export async function drive(
  base: string,
  path: () => string,
  headers: Record<string, string>,
  o: LoadOptions,
  faults: Fault[] = [],
): Promise<LoadResult> {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const done: { end: number; ms: number; ok: boolean }[] = [];
  const result = { failures: {} as Record<string, number>, samples: [] as string[], servers: {} as Record<string, number> };
  const t0 = performance.now();
  const end = t0 + o.seconds * 1000;
  const ran: LoadResult['faults'] = [];
  const running = faults.map(
    (f) =>
      new Promise<void>((resolve, reject) =>
        setTimeout(
          async () => {
            const at = performance.now();
            try {
              await f.run();
              ran.push({ name: f.name, at: (at - t0) / 1000, took: (performance.now() - at) / 1000 });
              resolve();
            } catch (e) {
              reject(e);
            }
          },
          f.at * o.seconds * 1000,
        ),
      ),
  );
  let issued = 0;
  const connection = async () => {
    while (performance.now() < end && issued < o.maxRequests) {
      issued++;
      const start = performance.now();
      const a = await get(agent, url, path(), headers, o.timeoutMs);
      const now = performance.now();
      const kind = failureKind(a);
      done.push({ end: now - t0, ms: now - start, ok: kind === null });
      const server = a.server ?? 'direct';
      if (kind === null) result.servers[server] = (result.servers[server] ?? 0) + 1;
      else {
        result.failures[kind] = (result.failures[kind] ?? 0) + 1;
        if (result.samples.length < 10) result.samples.push(`${((now - t0) / 1000).toFixed(2)} s: ${kind} ${a.text.slice(0, 160)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, connection));
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(running);
  agent.destroy();
  return summarize(done, seconds, ran, result);
}

function summarize(
  done: { end: number; ms: number; ok: boolean }[],
  seconds: number,
  faults: LoadResult['faults'],
  r: Pick<LoadResult, 'failures' | 'samples' | 'servers'>,
): LoadResult {
  const stats = (xs: typeof done, from: number, to: number) => {
    const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
    const ok = xs.filter((x) => x.ok).length;
    return {
      ok,
      failed: xs.length - ok,
      rps: Math.round(ok / Math.max(0.001, to - from)),
      p99: percentile(ms, 99),
      max: percentile(ms, 100),
    };
  };
  const bounds = [0, ...faults.map((f) => f.at).sort((a, b) => a - b), seconds];
  const names = ['before any fault', ...faults.map((f) => `after ${f.name}`)];
  const phases = names.map((name, i) => {
    const [from, to] = [bounds[i], bounds[i + 1]];
    const xs = done.filter((x) => x.end >= from * 1000 && x.end < to * 1000);
    return { name, from: +from.toFixed(2), seconds: +(to - from).toFixed(2), ...stats(xs, from, to) };
  });
  const all = stats(done, 0, seconds);
  const sorted = done.map((x) => x.ms).sort((a, b) => a - b);
  return {
    requests: done.length,
    ...all,
    ...r,
    seconds: +seconds.toFixed(2),
    p50: percentile(sorted, 50),
    phases,
    faults,
  };
}
