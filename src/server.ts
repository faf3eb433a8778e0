import cluster from 'node:cluster';
import { loadConfig, storeTimeouts, type Config } from './config.js';
import { buildApp } from './app.js';
import { openConfiguredStore } from './bootstrap.js';

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
  const app = await buildApp({
    config: cfg, store: opened.store,
    logger: { level: cfg.logLevel, redact: ['req.headers["x-api-key"]'] },
  });
  // An outage of the store: one line when it starts, one when it ends (store/health.ts).
  opened.store.health.log = (level, msg) => app.log[level](msg);
  app.addHook('onClose', async () => { await opened.store.close(); });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'draining');
    setTimeout(() => process.exit(1), 10_000).unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ host: cfg.host, port: cfg.port });
  return { firstKey: opened.firstKey };
}

/**
 * Entry point. With WORKERS > 1 the primary prepares the store (building the demo market on a
 * first run), then forks that many workers which share the port and restarts any that die.
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
  let stopping = false;
  let ready = 0;
  const fork = () => cluster.fork().on('listening', () => { if (++ready === cfg.workers) say(banner(cfg, opened.firstKey)); });
  for (let i = 0; i < cfg.workers; i++) fork();
  cluster.on('exit', (w, code, signal) => {
    if (stopping) { if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0); return; }
    say(`worker ${w.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    say(`mds: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
