import { loadConfig, type Config } from './config.js';
import { buildApp } from './app.js';
import { openConfiguredStore } from './bootstrap.js';

function banner(cfg: Config, firstKey?: string): string {
  const base = `http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port}`;
  const key = firstKey ?? '<your key>';
  return [
    '',
    `market-data-service listening on ${base}  (docs: ${base}/docs, OpenAPI: ${base}/openapi.json)`,
    firstKey
      ? `An API key was created for you (shown once, stored only as a hash):\n  ${firstKey}`
      : 'Create an API key with:  npx mds keys create --name me',
    'Try an authenticated call:',
    `  curl -g -H 'X-API-Key: ${key}' '${base}/api/v1/equities?page[size]=5'`,
    '',
  ].join('\n');
}

/** Entry point: open the store (building the demo market on first run), listen, drain on signals. */
export async function main(cfg: Config = loadConfig()): Promise<void> {
  const say = (m: string) => process.stderr.write(m + '\n');
  const opened = await openConfiguredStore(cfg.databaseUrl, cfg.demoOnFirstRun ? { seed: cfg.demoSeed } : null, say);
  const app = await buildApp({
    config: cfg, store: opened.store,
    logger: { level: cfg.logLevel, redact: ['req.headers["x-api-key"]'] },
  });
  app.addHook('onClose', async () => { await opened.store.close(); });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'draining');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ host: cfg.host, port: cfg.port });
  say(banner(cfg, opened.firstKey));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    process.stderr.write(`mds: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
