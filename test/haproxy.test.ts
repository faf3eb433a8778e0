/**
 * Several API processes behind a load balancer (docs/scaling.md): Debian's haproxy with the
 * project's deploy/haproxy.cfg on loopback, two `mds serve` processes behind it sharing nothing
 * but the store (PostgreSQL where TEST_DATABASE_URL is set, else one SQLite file) and the cursor
 * secret. Both servers answer; a page walk whose pages alternate between them loses and repeats
 * no row; a server killed under load leaves the pool with no request failing (haproxy resends a
 * refused connection to the other), and is used again once restarted. Skipped, saying why,
 * where /usr/sbin/haproxy is absent (`.ci/run` installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, probe, serve, type Served } from './serve-helpers.js';
import { sleep } from './ingest-helpers.js';
import { harness, SMALL_DEMO, STORES, TINY_DEMO, type Harness } from './helpers.js';

/** The benchmark's concurrency (bench/run.ts `--connections`). */
const BENCH_CONNECTIONS = 64;

describe.each(STORES)('probes ahead of queued requests ($name)', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url(), TINY_DEMO);
  });
  afterAll(() => h?.close());

  it('answers readiness and health in the turn they arrive, before the requests queued ahead of them', async () => {
    const eq = (await h.app.inject({ url: '/api/v1/equities?page[size]=1', headers: { 'x-api-key': h.key } })).json().data[0].id;
    const page = (i: number) => `/api/v1/equities/${eq}/bars?interval=1m&order=desc&page[size]=${100 + i}`;
    expect((await h.app.inject({ url: page(0), headers: { 'x-api-key': h.key } })).statusCode).toBe(200);
    for (const probe of ['/api/v1/system/readiness', '/api/v1/system/health']) {
      // A request that spends this turn's budget (turns.ts), so the next ones wait for their turns:
      // a busy server, as at the benchmark's 64 connections.
      h.app.turns.enter(() => {
        const end = performance.now() + 5;
        while (performance.now() < end);
      });
      // (`then` sends it: light-my-request's chain sends nothing until then.)
      const pages = Array.from({ length: BENCH_CONNECTIONS }, (_, i) =>
        h.app.inject({ url: page(i), headers: { 'x-api-key': h.key } }).then((r) => r),
      );
      const answered = await h.app
        .inject({ url: probe })
        .then((r) => ({ status: r.statusCode, body: r.json(), queued: h.app.turns.queued }));
      expect(answered, probe).toMatchObject({ status: 200, body: { status: probe.endsWith('readiness') ? 'ready' : 'ok' } });
      // Answered while (nearly) all of them still waited: it used to wait behind all 64.
      expect(answered.queued, probe).toBeGreaterThanOrEqual(BENCH_CONNECTIONS - 2);
      const statuses = (await Promise.all(pages)).map((r) => r.statusCode);
      expect(statuses).toEqual(Array(BENCH_CONNECTIONS).fill(200));
    }
  });

  it('answers readiness from what its queries tell while they are answered, and asks the store once they have not been lately', async () => {
    const health = h.store.health;
    expect((await h.app.inject({ url: '/api/v1/markets', headers: { 'x-api-key': h.key } })).statusCode).toBe(200);
    expect(health.answeredWithin(1000)).toBe(true);
    const ping = h.app.svc.store.ping;
    let pinged = 0;
    h.app.svc.store.ping = () => {
      pinged++;
      return ping();
    };
    try {
      expect((await h.app.inject({ url: '/api/v1/system/readiness' })).statusCode).toBe(200);
      expect(pinged).toBe(0);
      // A second later with no query answered: readiness asks the store itself.
      await sleep(1100);
      expect((await h.app.inject({ url: '/api/v1/system/readiness' })).statusCode).toBe(200);
      expect(pinged).toBe(1);
    } finally {
      h.app.svc.store.ping = ping;
    }
  });
});

const HAPROXY = '/usr/sbin/haproxy';
if (!existsSync(HAPROXY)) console.warn(`haproxy.test: ${HAPROXY} is absent (apt-get install haproxy); skipping`);
const CONFIG = fileURLToPath(new URL('../deploy/haproxy.cfg', import.meta.url));

describe.skipIf(!existsSync(HAPROXY))('two servers behind haproxy (deploy/haproxy.cfg)', () => {
  let h: Harness;
  const servers: (Served | null)[] = [null, null];
  const ports: number[] = [];
  let proxy: ChildProcess;
  /** What haproxy logged: servers marked down or up, checks that failed. */
  let proxyLog = '';
  let front: string;
  let env: Record<string, string>;
  const start = async (i: number) => {
    servers[i] = await serve({ ...env, PORT: String(ports[i]) });
  };

  beforeAll(async () => {
    // The store both share: the last of STORES (PostgreSQL when the suite has one).
    h = await harness(await STORES[STORES.length - 1].url(), SMALL_DEMO);
    env = { DATABASE_URL: h.url, CURSOR_SECRET: 'shared-by-both', TRUST_PROXY: '127.0.0.1' };
    ports.push(await freePort(), await freePort());
    await Promise.all([start(0), start(1)]);
    const port = await freePort();
    front = `http://127.0.0.1:${port}`;
    proxy = spawn(HAPROXY, ['-db', '-f', CONFIG], {
      env: { ...process.env, MDS_FRONT: `127.0.0.1:${port}`, MDS_A: `127.0.0.1:${ports[0]}`, MDS_B: `127.0.0.1:${ports[1]}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Its request log is one line a request (option httplog): only what concerns the servers is kept.
    for (const out of [proxy.stdout!, proxy.stderr!])
      out.on('data', (d: Buffer) => {
        for (const line of d.toString().split('\n')) if (/Server |Health check|no server available/.test(line)) proxyLog += line + '\n';
      });
    for (let i = 0; i < 100; i++) {
      if ((await probe(`${front}/api/v1/system/readiness`).catch(() => null))?.status === 200) break;
      await sleep(100);
    }
  }, 180_000);
  afterAll(async () => {
    proxy?.kill();
    await Promise.all(servers.map((s) => s?.stop()));
    await h?.close();
  });

  /** A GET through the proxy: status, body and the server that answered. */
  const through = async (path: string): Promise<{ status: number; body: any; server: string | null; text: string }> => {
    const res = await fetch(`${front}${path}`, { headers: { 'x-api-key': h.key }, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: said by the status */
    }
    return { status: res.status, body, server: res.headers.get('x-backend-server'), text };
  };

  it('spreads requests over both servers, and a page walk across them loses and repeats nothing', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 20; i++) seen.add((await through('/api/v1/markets')).server);
    expect([...seen].sort()).toEqual(['a', 'b']);

    const id = (await through('/api/v1/equities?page[size]=1')).body.data[0].id;
    const all = (await through(`/api/v1/equities/${id}/bars?interval=1d&page[size]=1000`)).body.data.map((b: any) => b.trade_date);
    expect(all.length).toBeGreaterThan(50);
    const walked: string[] = [];
    const servedBy = new Set<string | null>();
    let next: string | null = `/api/v1/equities/${id}/bars?interval=1d&page[size]=7`;
    while (next !== null) {
      const r = await through(next);
      expect(r.status).toBe(200);
      servedBy.add(r.server);
      walked.push(...r.body.data.map((b: any) => b.trade_date));
      next = r.body.links.next;
    }
    expect(walked).toEqual(all);
    expect(servedBy.size).toBe(2);
  });

  it(`keeps both servers in the pool at the benchmark's ${BENCH_CONNECTIONS} connections of heavy pages: no 503, no server marked down`, async () => {
    const ids: string[] = (await through('/api/v1/equities?page[size]=5')).body.data.map((e: any) => e.id);
    const day = (await through(`/api/v1/equities/${ids[0]}/bars?interval=1d&order=desc&page[size]=1`)).body.data[0].trade_date;
    // Pages of 10-100 ms each: 32 of them queued on a server took its readiness check past a second.
    const paths = ids.flatMap((id) => [
      `/api/v1/equities/${id}/bars?interval=1m&order=desc&page[size]=1000`,
      `/api/v1/equities/${id}/technical-indicators/kdj?interval=1m&adjustment=forward&page[size]=1000`,
      `/api/v1/equities/${id}/bars?interval=1d&adjustment=forward&page[size]=1000`,
    ]);
    paths.push(`/api/v1/markets/SH/bars?date=${day}&page[size]=1000`);
    for (const p of paths) expect((await through(p)).status, p).toBe(200);
    const before = proxyLog.length;
    let n = 0;
    const r = await autocannon({
      url: front,
      connections: BENCH_CONNECTIONS,
      duration: 10,
      timeout: 30,
      headers: { 'x-api-key': h.key },
      requests: [{ setupRequest: (req: any) => ({ ...req, path: paths[n++ % paths.length] }) }],
    });
    expect({ non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts }).toEqual({ non2xx: 0, errors: 0, timeouts: 0 });
    expect(r.requests.total).toBeGreaterThan(100);
    // Never a check failed, so never a server out of the pool (haproxy answered 503 with none left).
    expect(proxyLog.slice(before)).toBe('');
  }, 60_000);

  it('keeps answering when a server is killed under load, and uses it again once restarted', async () => {
    let stop = false;
    const statuses: number[] = [];
    const failures: string[] = [];
    const servedBy: (string | null)[] = [];
    const loops = Array.from({ length: 4 }, async () => {
      for (let i = 0; !stop && i < 2000; i++) {
        const r = await through('/api/v1/equities?page[size]=5').catch((e: unknown) => ({ status: 0, server: null, text: String(e) }));
        statuses.push(r.status);
        if (r.status !== 200) failures.push(`${r.status} ${r.text.slice(0, 120)}`);
        servedBy.push(r.server);
        await sleep(5);
      }
    });
    await sleep(300);
    servers[0]!.child.kill('SIGKILL');
    await sleep(2500);
    const whileDown = servedBy.length;
    await start(0);
    // Back in the pool after two good checks (1 s apart).
    for (let i = 0; i < 60 && !servedBy.slice(whileDown).includes('a'); i++) await sleep(100);
    stop = true;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    expect(statuses.length).toBeGreaterThan(100);
    expect(servedBy.slice(whileDown)).toContain('a');
  }, 60_000);
});
