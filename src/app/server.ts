import cluster from 'node:cluster';
import { loadConfig, storeTimeouts, type Config } from './config.js';
import { buildApp } from './app.js';
import { openConfiguredStore } from './bootstrap.js';
import { trackConnections } from '../http/connections.js';
import { startMetrics } from './metrics-server.js';

function banner(cfg: Config, firstKey?: string): string {
  const base = `http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port}`;
  const key = firstKey ?? '<your key>';
  return [
    '',
    `market-data-service listening on ${base} with ${cfg.workers} worker(s)  (docs: ${base}/docs, OpenAPI: ${base}/openapi.json)`,
    firstKey
      ? `An API key was created for you (shown once, stored only as a hash):\n  ${firstKey}`
      : 'Create an API key with:  npx mds keys create --name me',
    'Try an authenticated call:',
    `  curl -g -H 'X-API-Key: ${key}' '${base}/api/v1/equities?page[size]=5'`,
    '',
  ].join('\n');
}

const say = (m: string) => process.stderr.write(m + '\n');

/** One HTTP server over the store; drains on SIGINT/SIGTERM. */
async function serveOne(cfg: Config, demo: boolean): Promise<{ firstKey?: string }> {
  const opened = await openConfiguredStore(cfg.databaseUrl, demo && cfg.demoOnFirstRun ? { seed: cfg.demoSeed } : null, say,
    storeTimeouts(cfg));
  const metrics = startMetrics.forWorker(cfg);
  const app = await buildApp({
    config: cfg, store: opened.store,
    logger: { level: cfg.logLevel, redact: ['req.headers["x-api-key"]'] },
    metrics,
  });
  // An outage of the store: one line when it starts, one when it ends (store/health.ts).
  opened.store.health.log = (level, msg) => app.log[level](msg);
  app.addHook('onClose', async () => { await opened.store.close(); });
  const connections = trackConnections(app.server);
  let closing = false;
  // Stop accepting, answer the requests in flight, close every other connection at once (idle
  // ones and those still sending their headers), then exit 0; exit 1 if requests are still in
  // flight after 10 s.
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, in_flight: connections.inFlight() }, 'draining');
    setTimeout(() => {
      app.log.error({ in_flight: connections.inFlight() }, 'requests still in flight 10 s after the signal; exiting');
      process.exit(1);
    }, 10_000).unref();
    const closed = app.close();
    connections.drain();
    closed.then(() => process.exit(0), (e) => { app.log.error({ err: e }, 'close failed'); process.exit(1); });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // The primary asks for this when a replacement worker starts listening (see main).
  process.on('message', (m: { mds?: string } | null) => { if (m?.mds === 'recycle') connections.recycle(); });
  await app.listen({ host: cfg.host, port: cfg.port });
  // One process: it serves its own metrics (a cluster's primary serves the workers', see main).
  if (metrics && !cluster.isWorker) await startMetrics.single(cfg, metrics, app);
  return { firstKey: opened.firstKey };
}

/** Start failures of workers (exits before listening) allowed within `START_WINDOW_MS`. */
const START_FAILURES = 5;
const START_WINDOW_MS = 60_000;
/** The delay before forking again after a start failure: 250 ms, doubling, at most 8 s. */
const backoff = (failures: number) => Math.min(8000, 250 * 2 ** (failures - 1));

/**
 * Entry point. With WORKERS > 1 the primary prepares the store (building the demo market on a
 * first run), then forks that many workers which share the port. A worker that dies is replaced
 * at once; when the replacement listens, the other workers close their keep-alive connections
 * after their next response, so that clients reconnect and reach it too. A worker that fails
 * before listening is forked again after a back-off (250 ms doubling to 8 s); after
 * `START_FAILURES` such failures within a minute the primary stops the others and exits 1.
 */
export async function main(cfg: Config = loadConfig()): Promise<void> {
  if (cfg.workers <= 1) {
    say(banner(cfg, (await serveOne(cfg, true)).firstKey));
    return;
  }
  if (cluster.isWorker) {
    await serveOne(cfg, false);
    return;
  }
  const opened = await openConfiguredStore(cfg.databaseUrl, cfg.demoOnFirstRun ? { seed: cfg.demoSeed } : null, say);
  await opened.store.close();
  await startMetrics.primary(cfg, say);
  let stopping = false;
  let started = false;
  const listening = new Set<number>();
  let failures: number[] = [];
  const fork = () => {
    const w = cluster.fork();
    w.on('listening', () => {
      listening.add(w.id);
      if (!started) {
        if (listening.size === cfg.workers) { started = true; say(banner(cfg, opened.firstKey)); }
        return;
      }
      for (const other of Object.values(cluster.workers ?? {})) if (other && other !== w && other.isConnected()) other.send({ mds: 'recycle' });
    });
  };
  for (let i = 0; i < cfg.workers; i++) fork();
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(code || 1), 12_000).unref();
    cluster.on('exit', () => { if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code); });
  };
  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    const how = signal ?? `exit code ${code}`;
    if (listening.delete(w.id)) {
      say(`worker ${w.process.pid} exited (${how}); starting another`);
      fork();
      return;
    }
    const now = Date.now();
    failures = failures.filter((t) => now - t < START_WINDOW_MS);
    failures.push(now);
    if (failures.length >= START_FAILURES) {
      say(`mds: ${failures.length} workers failed to start within ${START_WINDOW_MS / 1000} s (the last: ${how}; its error is above); giving up`);
      stop(1);
      return;
    }
    const delay = backoff(failures.length);
    say(`worker ${w.process.pid} failed to start (${how}); starting another in ${delay} ms`);
    setTimeout(() => { if (!stopping) fork(); }, delay);
  });
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    say(`mds: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
