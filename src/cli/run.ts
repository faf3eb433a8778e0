/**
 * The `mds` command line as a function: `run(argv, io)` parses `argv` (the arguments after the
 * program name), writes to `io` and resolves with the exit code. index.ts runs it on the
 * process; the tests run it in-process.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadConfig } from '../app/config.js';
import { describeMigration } from '../derived/open.js';
import { KeyStore } from '../auth/keys.js';
import { MAX_TOKEN_TTL_S, signToken } from '../auth/tokens.js';
import { generateDemo, timedSteps } from '../demo/generate.js';
import { parseDate } from '../lib/time.js';
import { registerVersions } from './versions.js';
import { registerCheck } from './check.js';
import { registerIngest } from './ingest.js';
import { intAtLeast, type CliExit, type CliIO } from './io.js';
import { StoreOpenError, withStore } from './store.js';
import { shownUrl, StoreUrlError } from '../store/connect.js';
import { hasInstruments } from '../store/tables/instruments.js';

export type { CliExit, CliIO } from './io.js';
import { INDICATOR_IDS, INDICATORS, type IndicatorId } from '../indicators/registry.js';
import { precomputedIds, setPrecomputed } from '../derived/indicator-pages.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

const int = intAtLeast(0);
const date = (v: string) => {
  const d = parseDate(v);
  if (d === null) throw new InvalidArgumentError('expected a date YYYY-MM-DD');
  return d;
};

/** An ISO 8601 instant in this machine's time zone: 2026-11-23 21:04:05 +08:00. */
function localTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  return (
    `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())} ` +
    `${off >= 0 ? '+' : '-'}${p(Math.floor(Math.abs(off) / 60))}:${p(Math.abs(off) % 60)}`
  );
}

/** Rows as columns padded to their widest cell, under a header. */
function table(header: string[], rows: string[][]): string[] {
  const width = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(width[i]))).join('  '));
}

const indicatorIds = (ids: string[]): IndicatorId[] => {
  if (ids.includes('all')) return [...INDICATOR_IDS];
  const unknown = ids.filter((id) => !(INDICATOR_IDS as readonly string[]).includes(id));
  if (unknown.length) throw new Error(`unknown indicator ${unknown.join(', ')} (one of ${INDICATOR_IDS.join(', ')}, or all)`);
  return ids as IndicatorId[];
};

/** The program, writing to `io`; commander's own exits (usage errors, --help) throw instead. */
function buildProgram(io: CliIO, exit: CliExit): Command {
  const out = (line: string) => {
    io.stdout.write(line + '\n');
  };
  const program = new Command('mds')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .description('market-data-service: read-only A-share market data API')
    .version(pkg.version)
    .option(
      '--database <url>',
      'SQLite file (a path, sqlite:PATH or file:///PATH) or postgres:// URL (default: DATABASE_URL or data/mds.sqlite)',
    );
  const db = () => program.opts().database as string | undefined;

  program
    .command('serve')
    .description('start the HTTP server (HOST, PORT, DATABASE_URL from the environment)')
    .action(async () => {
      const c = loadConfig();
      if (db()) c.databaseUrl = db()!;
      // The app is loaded by the commands that serve it (serve, openapi) only: the others start in
      // half the time without its modules (a spawned `mds ingest` or `mds keys list`).
      const { main: serve } = await import('../app/server.js');
      await serve(c);
    });

  program
    .command('migrate')
    .description('create or upgrade the store schema, and rebuild derived data the code makes differently now')
    .action(() =>
      withStore(db(), async (_s, migrated) => {
        for (const line of describeMigration(migrated)) out(line);
      }),
    );

  registerCheck(program, db, io, exit);

  program
    .command('demo')
    .description('generate the deterministic demo market into an empty store')
    .option('--seed <n>', 'random seed', int, 1)
    .option('--equities <n>', 'number of equities (>= 20)', int, 220)
    .addOption(new Option('--start <date>', 'first day of daily bars (YYYY-MM-DD)').argParser(date).default(20230103, '2023-01-03'))
    .addOption(new Option('--end <date>', 'last day of the market (YYYY-MM-DD)').argParser(date).default(20261120, '2026-11-20'))
    .option('--minute-days <n>', 'trading days with 1m bars', int, 10)
    .option('--tick-days <n>', 'trading days with quotes and trades', int, 2)
    .action((o) =>
      withStore(db(), async (s) => {
        if (await hasInstruments(s.db)) throw new Error('the store already holds instruments; demo needs an empty store');
        const t = Date.now();
        // Each step on stderr as it is done, as the first start prints them (PostgreSQL takes minutes).
        const say = (line: string) => io.stderr.write(line + '\n');
        say(`building the demo market into ${shownUrl(db() ?? loadConfig().databaseUrl)} (seed ${o.seed}, ${o.equities} equities) ...`);
        const opts = { seed: o.seed, equities: o.equities, start: o.start, end: o.end, minuteDays: o.minuteDays, tickDays: o.tickDays };
        const summary = await generateDemo(s, opts, timedSteps(say, t));
        out(`demo market generated in ${((Date.now() - t) / 1000).toFixed(1)} s: ${JSON.stringify(summary)}`);
      }),
    );

  registerIngest(program, withStore, db, io, exit);
  registerVersions(program, withStore, db, io);

  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create a key; prints the key alone on stdout (it is stored only as a hash)')
    .requiredOption('--name <name>', 'who or what the key is for')
    .option('--rate <n>', "this key's rate limit: requests per RATE_LIMIT_WINDOW (0: unlimited; default: the server's RATE_LIMIT)", int)
    .action((o) =>
      withStore(db(), async (s) => {
        out((await new KeyStore(s.db).create(o.name, { rateLimit: o.rate })).key);
      }),
    );
  keys
    .command('list')
    .description('list keys: id, name, rate limit, created and revoked (local time)')
    .action(() =>
      withStore(db(), async (s) => {
        const rows = (await new KeyStore(s.db).list()).map((k) => [
          k.id,
          k.name,
          k.rate_limit === null ? 'default' : k.rate_limit === 0 ? 'unlimited' : String(k.rate_limit),
          localTime(k.created_at),
          k.revoked_at === null ? 'active' : `revoked ${localTime(k.revoked_at)}`,
        ]);
        for (const line of table(['ID', 'NAME', 'RATE', 'CREATED', 'STATUS'], rows)) out(line);
      }),
    );
  keys
    .command('revoke')
    .description('revoke a key by id (or by the key itself)')
    .argument('<id>')
    .action((id: string) =>
      withStore(db(), async (s) => {
        if (!(await new KeyStore(s.db).revoke(id))) throw new Error(`no active key ${id}`);
        out(`revoked ${id}`);
      }),
    );

  keys
    .command('token')
    .description(
      'issue a short-lived stream token for key <id>, for GET /api/v1/events?token= (EventSource sends no headers); needs TOKEN_SECRET',
    )
    .argument('<id>', "the key's id (mds keys list)")
    .option('--ttl <seconds>', `how long it is valid, 1..${MAX_TOKEN_TTL_S} s`, int, 3600)
    .action((id: string, o: { ttl: number }) =>
      withStore(db(), async (s) => {
        const secret = loadConfig().tokenSecret;
        if (secret === null)
          throw new Error('TOKEN_SECRET is not set: the server signs and checks tokens with it; set the same value on both');
        if (!(o.ttl >= 1 && o.ttl <= MAX_TOKEN_TTL_S)) throw new Error(`--ttl must be 1..${MAX_TOKEN_TTL_S} seconds, got ${o.ttl}`);
        if ((await new KeyStore(s.db).liveById(id)) === null) throw new Error(`no active key ${id}`);
        out(signToken(secret, id, Math.floor(Date.now() / 1000) + o.ttl));
      }),
    );

  const setIndicators = (change: (stored: IndicatorId[]) => IndicatorId[]) =>
    withStore(db(), async (s) => {
      const t = Date.now();
      const stored = await s.bulkTransaction(precomputedIds, { readOnly: true });
      const { after } = await setPrecomputed(s, change(stored));
      const added = after.filter((id) => !stored.includes(id)),
        dropped = stored.filter((id) => !after.includes(id));
      const did = [added.length ? `precomputed ${added.join(', ')}` : '', dropped.length ? `dropped ${dropped.join(', ')}` : ''].filter(
        Boolean,
      );
      out(
        `${did.join('; ') || 'nothing changed'} in ${((Date.now() - t) / 1000).toFixed(1)} s; precomputed now: ${after.join(', ') || 'none'}`,
      );
    });
  const indicators = program
    .command('indicators')
    .description(
      'technical indicators; precomputed ones are served from stored JSON (unadjusted daily points), at about 215 bytes a bar each',
    );
  indicators
    .command('list')
    .description('each indicator, its value keys, and whether it is precomputed')
    .action(() =>
      withStore(db(), async (s) => {
        const stored = await s.bulkTransaction(precomputedIds, { readOnly: true });
        for (const id of INDICATOR_IDS)
          out([id, INDICATORS[id].keys.join(','), stored.includes(id) ? 'precomputed' : 'computed'].join('\t'));
      }),
    );
  indicators
    .command('precompute')
    .description('render and store the points of these indicators (or all), and keep them in step with every ingest')
    .argument('<indicators...>')
    .action((ids: string[]) => setIndicators((stored) => [...stored, ...indicatorIds(ids)]));
  indicators
    .command('drop')
    .description('stop precomputing these indicators (or all) and delete their stored points')
    .argument('<indicators...>')
    .action((ids: string[]) => {
      const drop = indicatorIds(ids);
      return setIndicators((stored) => stored.filter((id) => !drop.includes(id)));
    });

  program
    .command('backup')
    .description('copy a SQLite store into FILE while it serves and loads (online backup); PostgreSQL: use pg_dump')
    .argument('<file>', 'the copy: a new file')
    .action((file: string) =>
      withStore(db(), async (s) => {
        if (!s.backup) throw new Error('backup copies SQLite stores; back up PostgreSQL with pg_dump (docs/operations.md, "Backups")');
        if (existsSync(file)) throw new Error(`${file} exists; give a new file`);
        const t = Date.now();
        await s.backup(file);
        out(`backed up to ${file} (${(statSync(file).size / 1e6).toFixed(1)} MB) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      }),
    );

  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document')
    .action(() =>
      withStore(db() ?? ':memory:', async (s) => {
        const { buildApp } = await import('../app/app.js');
        const app = await buildApp({ config: loadConfig(), store: s });
        await app.ready();
        out(JSON.stringify(app.swagger(), null, 2));
        await app.close();
      }),
    );

  return program;
}

/** Runs `mds ...argv` writing to `io`; resolves with the exit code. */
export async function run(argv: readonly string[], io: CliIO = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const exit: CliExit = { code: 0 };
  try {
    await buildProgram(io, exit).parseAsync(argv, { from: 'user' });
    return exit.code;
  } catch (e) {
    // Commander has written its message (usage errors) or the help or version already.
    if (e instanceof CommanderError) return e.exitCode;
    io.stderr.write(`mds: ${e instanceof Error ? e.message : String(e)}\n`);
    return e instanceof StoreOpenError || e instanceof StoreUrlError ? 3 : 1;
  }
}
