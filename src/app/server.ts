import cluster from 'node:cluster';
import pretty from 'pino-pretty';
import { loadConfig, storeTimeouts, type Config } from './config.js';
import { buildApp } from './app.js';
import { openConfiguredStore } from './bootstrap.js';
import { startMetrics } from './metrics-server.js';
import { describeDemo, type DemoDescription } from '../demo/describe.js';
import { storeHoldings, type DayRange, type StoreHoldings } from '../store/tables/holdings.js';
import { formatDate } from '../lib/time.js';
import type { Store } from '../store/types.js';
import { StoreUnavailable } from '../store/health.js';
import { StoreUrlError } from '../store/connect.js';

/** What the banner says a store holds: the demo's description, or what any other store holds. */
export type Held = DemoDescription | StoreHoldings;

/** The demo's description of a store it built, else what the store holds. */
export async function describeHeld(store: Store): Promise<Held> {
  return (await describeDemo(store)) ?? (await storeHoldings(store));
}

/** Lines saying what a store the demo did not build holds (StoreHoldings). */
function holdingLines(h: StoreHoldings): string[] {
  if (Object.keys(h.kinds).length === 0) return ['The store holds no instruments yet: load data with npx mds ingest (docs/ingest.md).'];
  const n = (x: number) => x.toLocaleString('en-US');
  const names = { equity: ['equity', 'equities'], index: ['index', 'indices'], fund: ['fund', 'funds'] } as const;
  const kinds = (['equity', 'index', 'fund'] as const).map((k) => `${n(h.kinds[k] ?? 0)} ${names[k][(h.kinds[k] ?? 0) === 1 ? 0 : 1]}`);
  const days = (what: string, r: DayRange | null) =>
    r === null ? `no ${what}` : `${what} ${formatDate(r.from)}${r.to === r.from ? '' : `..${formatDate(r.to)}`}`;
  return [
    `The store holds ${kinds.join(', ')};`,
    `  ${days('daily bars', h.bars1d)}, ${days('1m bars', h.bars1m)}, ${days('quotes', h.quotes)}, ${days('trades', h.trades)};`,
    `  ${h.datasets.length ? `also ${h.datasets.join(', ')}` : 'no other datasets'}.`,
  ];
}

/** The start banner: where it listens, what the store holds (the demo market's, or any), a key, requests to try. */
export function banner(cfg: Config, firstKey: string | undefined, held: Held | null, env: NodeJS.ProcessEnv = process.env): string {
  const demo = held !== null && 'seed' in held ? held : null;
  const holdings = held !== null && !('seed' in held) ? held : null;
  const base = `http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port}`;
  const key = firstKey ?? '<your key>';
  // The key command must reach this server's store: name it unless it is the default file.
  const where = env.DATABASE_URL ? `DATABASE_URL='${env.DATABASE_URL}' ` : '';
  const lines = [
    '',
    `market-data-service listening on ${base} with ${cfg.workers} worker${cfg.workers === 1 ? '' : 's'}`,
    `  explorer: ${base}/explorer   docs: ${base}/docs   OpenAPI: ${base}/openapi.json`,
  ];
  if (holdings) lines.push(...holdingLines(holdings));
  if (demo) {
    const range = (xs: string[]) => (xs.length === 0 ? 'no days' : xs.length === 1 ? xs[0] : `${xs[0]}..${xs[xs.length - 1]}`);
    lines.push(
      `The demo market (seed ${demo.seed}): ${demo.counts.equities} equities, ${demo.counts.indices} indices, ${demo.counts.funds} funds;`,
      `  daily bars ${demo.first}..${demo.last}, 1m bars on the last ${demo.minuteDays.length} days (${range(demo.minuteDays)}),`,
      `  quotes and trades on ${range(demo.tickDays)}.`,
      `  Try ${demo.wellKnown
        .slice(0, 5)
        .map((w) => `${w.id} ${w.name}`)
        .join(', ')}; indices 000300.SH, 000001.SH, 399001.SZ; fund 510300.SH.`,
    );
  }
  lines.push(
    firstKey
      ? `An API key was created for you (shown once, stored only as a hash):\n  ${firstKey}`
      : `Create an API key with:  ${where}npx mds keys create --name me`,
  );
  lines.push('Try:');
  const curl = (path: string) => `  curl -g -H 'X-API-Key: ${key}' '${base}/api/v1${path}'`;
  // Requests for ids and days this store holds (a store the demo did not build: the list).
  const equity = demo?.wellKnown[0]?.id;
  if (demo && equity) {
    lines.push(
      curl(`/equities/${equity}`),
      curl(`/equities/${equity}/bars?interval=5m&date=${demo.minuteDays.at(-1) ?? demo.last}&page[size]=5`),
      curl(`/indices/000300.SH/technical-indicators/macd?interval=1d&from=${demo.minuteDays[0] ?? demo.last}&page[size]=5`),
    );
  } else {
    lines.push(curl('/equities?page[size]=5'));
  }
  lines.push('');
  return lines.join('\n');
}

const say = (m: string) => process.stderr.write(m + '\n');

/** One HTTP server over the store; drains on SIGINT/SIGTERM. */
async function serveOne(cfg: Config, demo: boolean): Promise<{ firstKey?: string; held: Held | null }> {
  // PostgreSQL out of reach does not stop the start: the server answers 503 not_ready until it is reached.
  const opened = await openConfiguredStore(
    cfg.databaseUrl,
    demo && cfg.demoOnFirstRun ? { seed: cfg.demoSeed } : null,
    say,
    storeTimeouts(cfg),
    true,
    cfg.replicaUrls,
  );
  opened.unready?.done.catch((e) => {
    say(`mds: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
  const metrics = startMetrics.forWorker(cfg);
  const app = await buildApp({
    config: cfg,
    store: opened.store,
    unready: opened.unready?.why,
    logger: {
      level: cfg.logLevel,
      redact: ['req.headers["x-api-key"]'],
      // On a terminal: `12:00:01 INFO GET /api/v1/equities 200 1.2 ms`; else one JSON object a line.
      ...(cfg.logFormat === 'pretty'
        ? { stream: pretty({ ignore: 'pid,hostname,reqId,method,url,status,ms,operation', translateTime: 'SYS:HH:MM:ss', sync: true }) }
        : {}),
    },
    metrics,
  });
  // An outage of the store: one line when it starts, one when it ends (store/health.ts).
  opened.store.health.log = (level, msg) => app.log[level](msg);
  app.addHook('onClose', async () => {
    await opened.store.close();
  });
  const connections = app.connections;
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
    closed.then(
      () => process.exit(0),
      (e) => {
        app.log.error({ err: e }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // The primary asks for this when a replacement worker starts listening (see main).
  process.on('message', (m: { mds?: string } | null) => {
    if (m?.mds === 'recycle') connections.recycle();
  });
  // One process: it serves its own metrics (a cluster's primary serves the workers', see main);
  // before listening, since the listener is closed by an onClose hook of `app`.
  if (metrics && !cluster.isWorker) await startMetrics.single(cfg, metrics, app);
  await app.listen({ host: cfg.host, port: cfg.port });
  // What the banner says the store holds, read once serving (a seek per instrument and table).
  const held = cluster.isWorker || opened.unready?.why() ? null : await describeHeld(opened.store);
  return { firstKey: opened.firstKey, held };
}

/** Start failures of workers (exits before listening) allowed within `START_WINDOW_MS`. */
const START_FAILURES = 5;
const START_WINDOW_MS = 60_000;
/**
 * The wait before forking again after the `failures`-th start failure: `first` ms (250 by
 * default, WORKER_RETRY_MS), doubling, at most 32 times that.
 */
export const restartDelay = (failures: number, first: number) => first * 2 ** Math.min(5, failures - 1);

/**
 * Entry point. With WORKERS > 1 the primary prepares the store (building the demo market on a
 * first run), then forks that many workers which share the port. A worker that dies is replaced
 * at once; when the replacement listens, the other workers close their keep-alive connections
 * after their next response, so that clients reconnect and reach it too. A worker that fails
 * before listening is forked again after a back-off (`restartDelay`: 250 ms doubling to 8 s); after
 * `START_FAILURES` such failures within a minute the primary stops the others and exits 1. PostgreSQL
 * out of reach is no such failure: the primary and the workers start all the same, the workers
 * answering 503 not_ready until they have migrated it (bootstrap.ts, `waitForStore`).
 */
export async function main(cfg: Config = loadConfig()): Promise<void> {
  if (cfg.workers <= 1) {
    const served = await serveOne(cfg, true);
    say(banner(cfg, served.firstKey, served.held));
    return;
  }
  if (cluster.isWorker) {
    await serveOne(cfg, false);
    return;
  }
  // The workers migrate a store that cannot be reached now once it can (serveOne).
  let held: Held | null = null;
  let firstKey: string | undefined;
  try {
    const opened = await openConfiguredStore(cfg.databaseUrl, cfg.demoOnFirstRun ? { seed: cfg.demoSeed } : null, say, storeTimeouts(cfg));
    firstKey = opened.firstKey;
    try {
      held = await describeHeld(opened.store);
    } finally {
      await opened.store.close();
    }
  } catch (e) {
    if (!(e instanceof StoreUnavailable)) throw e;
    say(`the store cannot be reached (${e.reason}); starting the workers, which answer 503 not_ready until it can`);
  }
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
        if (listening.size === cfg.workers) {
          started = true;
          say(banner(cfg, firstKey, held));
        }
        return;
      }
      for (const other of Object.values(cluster.workers ?? {}))
        if (other && other !== w && other.isConnected()) other.send({ mds: 'recycle' });
    });
  };
  for (let i = 0; i < cfg.workers; i++) fork();
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(code || 1), 12_000).unref();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    });
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
      say(
        `mds: ${failures.length} workers failed to start within ${START_WINDOW_MS / 1000} s (the last: ${how}; its error is above); giving up`,
      );
      stop(1);
      return;
    }
    const delay = restartDelay(failures.length, cfg.workerRetryMs);
    say(`worker ${w.process.pid} failed to start (${how}); starting another in ${delay} ms`);
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    say(`mds: ${e instanceof Error ? e.message : String(e)}`);
    // A store URL of another kind exits as every command does when the store cannot be opened.
    process.exit(e instanceof StoreUrlError ? 3 : 1);
  });
}
