/**
 * First contact: configuration checked whole at start, the start banner (what the demo market
 * holds, a key, three requests that answer), and one log line per request.
 */
import { DEMO_TABLES } from '../src/demo/generate.js';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/app/config.js';
import { banner } from '../src/app/server.js';
import { buildApp } from '../src/app/app.js';
import { describeDemo } from '../src/demo/describe.js';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { get, harness, SMALL_DEMO, STORES, type Harness } from './helpers.js';
import { storeLocation, StoreUrlError } from '../src/store/connect.js';
import { openConfiguredStore } from '../src/app/bootstrap.js';

describe('configuration', () => {
  it('names every bad variable in one error, each with what it must be', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '99999',
        LOG_LEVEL: 'loud',
        WORKERS: 'x',
        RATE_LIMIT: '-1',
        DEMO: 'yes',
        TRUST_PROXY: 'maybe',
        LOG_FORMAT: 'xml',
        DATABASE_URL: 'postgres://a b',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      [
        'bad configuration (8 problems):',
        '  PORT must be a port 1..65535, got 99999',
        '  RATE_LIMIT must be a non-negative integer, got -1',
        '  DATABASE_URL must be a SQLite file path or a postgres://user@host:port/db URL (host:port,host:port… for several), got postgres://a b: the host a b is not a host or host:port',
        "  WORKERS must be a number of processes 1..256 or 'auto', got x",
        '  LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got loud',
        '  LOG_FORMAT must be one of json, pretty, got xml',
        '  TRUST_PROXY must be true, false, a number of proxies or a comma list of proxy addresses, got maybe',
        '  DEMO must be one of 0, 1, got yes',
      ].join('\n'),
    );
  });

  it('reads good values', () => {
    const c = loadConfig({ PORT: '9000', LOG_FORMAT: 'json', TRUST_PROXY: '2', WORKERS: '3', DEMO: '0' });
    expect([c.port, c.logFormat, c.trustProxy, c.workers, c.demoOnFirstRun]).toEqual([9000, 'json', 2, 3, false]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });
});

describe.each(STORES)('the start banner and the request log on $name', ({ url }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(await url(), SMALL_DEMO);
  }, 300_000);
  afterAll(async () => h?.close());

  it('says what the demo holds and prints requests that answer with data', async () => {
    const demo = await describeDemo(h.store);
    const cfg = { ...loadConfig({}), port: 8080 };
    const text = banner(cfg, 'mds_KEY', demo, {});
    expect(text).toBe(
      [
        '',
        'market-data-service listening on http://127.0.0.1:8080 with 1 worker',
        '  explorer: http://127.0.0.1:8080/explorer   docs: http://127.0.0.1:8080/docs   OpenAPI: http://127.0.0.1:8080/openapi.json',
        'The demo market (seed 7): 40 equities, 11 indices, 13 funds;',
        '  daily bars 2025-01-02..2025-11-20, 1m bars on the last 3 days (2025-11-18..2025-11-20),',
        '  quotes and trades on 2025-11-19..2025-11-20.',
        '  Try 600519.SH 贵州茅台, 688981.SH 中芯国际, 000001.SZ 平安银行, 300750.SZ 宁德时代, 430047.BJ 诺思兰德; indices 000300.SH, 000001.SH, 399001.SZ; fund 510300.SH.',
        'An API key was created for you (shown once, stored only as a hash):',
        '  mds_KEY',
        'Try:',
        "  curl -g -H 'X-API-Key: mds_KEY' 'http://127.0.0.1:8080/api/v1/equities/600519.SH'",
        "  curl -g -H 'X-API-Key: mds_KEY' 'http://127.0.0.1:8080/api/v1/equities/600519.SH/bars?interval=5m&date=2025-11-20&page[size]=5'",
        "  curl -g -H 'X-API-Key: mds_KEY' 'http://127.0.0.1:8080/api/v1/indices/000300.SH/technical-indicators/macd?interval=1d&from=2025-11-18&page[size]=5'",
        '',
      ].join('\n'),
    );
    // Each printed request answers with data on this store.
    const paths = [...text.matchAll(/'http:\/\/127\.0\.0\.1:8080([^']+)'/g)].map((m) => m[1]);
    expect(paths).toHaveLength(3);
    for (const p of paths) {
      const r = await get(h, p);
      expect(r.status, p).toBe(200);
      expect(r.body.data.id ?? r.body.data.length, p).toBeTruthy();
    }
    expect((await get(h, paths[1])).body.data.map((b: { timestamp: string }) => b.timestamp)).toEqual(
      ['09:35', '09:40', '09:45', '09:50', '09:55'].map((t) => `2025-11-20T${t}:00+08:00`),
    );
    // A store the demo did not build: no ids it may not hold, the list instead.
    expect(
      banner(cfg, 'mds_KEY', null, {})
        .split('\n')
        .filter((l) => l.includes('curl')),
    ).toEqual(["  curl -g -H 'X-API-Key: mds_KEY' 'http://127.0.0.1:8080/api/v1/equities?page[size]=5'"]);
    // Without a new key it says how to make one for this store.
    expect(banner(cfg, undefined, demo, { DATABASE_URL: 'postgres://u@db:5432/mds' })).toContain(
      "Create an API key with:  DATABASE_URL='postgres://u@db:5432/mds' npx mds keys create --name me",
    );
  });

  it('logs one line per request, credentials in the URL redacted', async () => {
    const lines: any[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(String(chunk)));
        cb();
      },
    });
    const app = await buildApp({ config: loadConfig({}), store: h.store, logger: { level: 'info', stream } });
    await app.ready();
    for (const [url, headers] of [
      ['/api/v1/equities/600519.SH', { 'x-api-key': h.key }],
      ['/api/v1/equities/999999.SH', { 'x-api-key': h.key }],
      ['/api/v1/markets?api_key=SECRET', {}],
    ] as const)
      await app.inject({ method: 'GET', url, headers });
    await app.close();
    const requests = lines.filter((l) => l.status !== undefined);
    expect(requests.map((l) => [l.method, l.url, l.status, l.operation ?? null])).toEqual([
      ['GET', '/api/v1/equities/600519.SH', 200, 'getEquity'],
      ['GET', '/api/v1/equities/999999.SH', 404, 'getEquity'],
      ['GET', '/api/v1/markets?api_key=[REDACTED]', 401, 'listMarkets'],
    ]);
    expect(requests.every((l) => typeof l.ms === 'number' && l.msg === `GET ${l.url} ${l.status} ${l.ms} ms`)).toBe(true);
    // Nothing else is logged per request.
    expect(lines.filter((l) => l.reqId !== undefined)).toHaveLength(3);
  });
});

describe('the first start', () => {
  it('builds the demo with progress, and removes what an interrupted first build left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-first-'));
    try {
      const file = join(dir, 'mds.sqlite');
      // A first build killed before its rename (its process is gone: pid 2^22 + 1 is never one).
      const dead = `${file}.building-4194305`;
      for (const f of [dead, `${dead}-wal`, `${dead}-shm`]) writeFileSync(f, 'partial');
      writeFileSync(join(dir, 'other.txt'), 'kept');
      // The demo is built in a worker thread from dist/ (built by the global setup), as `npm start` runs it.
      const root = fileURLToPath(new URL('..', import.meta.url));
      const { openConfiguredStore } = await import(pathToFileURL(join(root, 'dist/app/bootstrap.js')).href);
      const said: string[] = [];
      const opened = await openConfiguredStore(
        file,
        { seed: 3, equities: 20, start: 20250102, end: 20250620, minuteDays: 1, tickDays: 1 },
        (m: string) => said.push(m),
      );
      try {
        expect(opened.created).toBe(true);
        expect(opened.firstKey).toMatch(/^mds_/);
        expect(readdirSync(dir).sort()).toEqual(
          ['mds.sqlite', 'other.txt'].concat(readdirSync(dir).filter((f) => /^mds\.sqlite-(wal|shm)$/.test(f))).sort(),
        );
        expect(said[0]).toBe(`First run: building the demo market into ${file} (seed 3) ...`);
        expect(said.slice(1, -1).map((l) => l.replace(/^ +\d+\.\d s {2}/, ''))).toEqual([
          expect.stringMatching(/^simulated 44 instruments over \d+ trading days$/),
          // Each table the demo writes, in order (src/demo/generate.ts DEMO_TABLES).
          ...DEMO_TABLES.map((t) =>
            t === 'meta'
              ? 'meta: 1 row'
              : t === 'instruments'
                ? 'instruments: 44 rows'
                : expect.stringMatching(new RegExp(`^${t}: [\\d,]+ rows?$`)),
          ),
          'fundamentals written',
          expect.stringMatching(/^market_days: [\d,]+ days$/),
        ]);
        expect(said.at(-1)).toMatch(/^Demo market ready in \d+\.\d s\.$/);
        expect(existsSync(dead)).toBe(false);
      } finally {
        await opened.store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the store URL (DATABASE_URL, --database)', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const MYSQL = 'mysql://u:secret@localhost/x';
  const REFUSED =
    'mds: cannot open the store mysql://u:***@localhost/x: mysql: is not a kind of store this service opens; ' +
    'expected a SQLite file path, sqlite:PATH, sqlite:///ABSOLUTE/PATH, file:///ABSOLUTE/PATH, or a postgres:// (postgresql://) URL\n';
  /** Runs node `args` (from dist/, as `npm start` and `npx mds` do) in an empty folder: exit code, stderr, what the folder holds after. */
  const inEmptyDir = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const cwd = mkdtempSync(join(tmpdir(), 'mds-url-'));
    try {
      const r = spawnSync(
        process.execPath,
        args.map((a, i) => (i === 0 ? join(root, a) : a)),
        {
          cwd,
          env: { ...process.env, DATABASE_URL: '', ...env, DEMO: '0', PORT: '18', LOG_FORMAT: 'json' },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      return { code: r.status, stderr: r.stderr, left: readdirSync(cwd) };
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  };

  it('refuses another scheme in one line, exit 3, for the server and every command, making nothing', () => {
    expect(inEmptyDir(['dist/app/server.js'], { DATABASE_URL: MYSQL })).toEqual({ code: 3, stderr: REFUSED, left: [] });
    expect(inEmptyDir(['dist/cli/index.js', 'serve'], { DATABASE_URL: MYSQL })).toEqual({ code: 3, stderr: REFUSED, left: [] });
    // `ingest` and `export` add that nothing was changed, as for any store they cannot open.
    const plain = (r: ReturnType<typeof inEmptyDir>) => ({ ...r, stderr: r.stderr.replace(' (nothing was changed)', '') });
    for (const args of [['keys', 'list'], ['ingest', 'markets', join(root, 'examples/markets.csv')], ['check']]) {
      expect(plain(inEmptyDir(['dist/cli/index.js', '--database', MYSQL, ...args])), args[0]).toEqual({
        code: 3,
        stderr: REFUSED,
        left: [],
      });
    }
    expect(plain(inEmptyDir(['dist/cli/index.js', 'export', 'markets'], { DATABASE_URL: MYSQL }))).toEqual({
      code: 3,
      stderr: REFUSED,
      left: [],
    });
    for (const url of ['redis://localhost', 'postgres:x', 'sqlite://host/x.sqlite', 'file:', 'sqlite:%zz']) {
      expect(() => storeLocation(url), url).toThrow(StoreUrlError);
    }
    // A single letter is a Windows drive, not a scheme.
    expect(storeLocation('c:/x')).toEqual({ dialect: 'sqlite', path: 'c:/x' });
  });

  it('refuses a SQLite file in a directory that does not exist (a typo), exit 3 naming it, making nothing; the default data/ is made', async () => {
    const missing = (cwd: string) => `${cwd}/srv/mdss`;
    const said = (cwd: string) =>
      `mds: cannot open the store ${missing(cwd)}/mds.sqlite: the directory ${missing(cwd)} does not exist; ` +
      'create it first, or correct the path (only the default data/ is made)\n';
    // The server with the demo on (the first start of a new file): it used to make the folder and build a demo market with a new key in it.
    const cwd = mkdtempSync(join(tmpdir(), 'mds-url-'));
    try {
      const run = (args: string[]) =>
        spawnSync(process.execPath, [join(root, args[0]), ...args.slice(1)], {
          cwd,
          env: { ...process.env, DATABASE_URL: `${missing(cwd)}/mds.sqlite`, DEMO: '1', DEMO_SEED: '1', PORT: '18', LOG_FORMAT: 'json' },
          encoding: 'utf8',
          timeout: 60_000,
        });
      for (const args of [['dist/app/server.js'], ['dist/cli/index.js', 'demo', '--equities', '20'], ['dist/cli/index.js', 'migrate']]) {
        const r = run(args);
        expect({ code: r.status, stderr: r.stderr.replace(' (nothing was changed)', '') }, args.join(' ')).toEqual({
          code: 3,
          stderr: said(cwd),
        });
        expect(readdirSync(cwd), args.join(' ')).toEqual([]);
      }
      // In process, as the server opens its store: refused before any demo is built.
      await expect(openConfiguredStore(`${missing(cwd)}/mds.sqlite`, { ...SMALL_DEMO, equities: 20 })).rejects.toThrow(StoreUrlError);
      expect(readdirSync(cwd)).toEqual([]);
      // The default file (no DATABASE_URL): its data/ is made, here by a command.
      const r = spawnSync(process.execPath, [join(root, 'dist/cli/index.js'), 'migrate'], {
        cwd,
        env: { ...process.env, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(readdirSync(join(cwd, 'data'))).toContain('mds.sqlite');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it('opens SQLite files named by a path, sqlite:PATH, sqlite:///ABS, file:PATH and file:///ABS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-url-'));
    try {
      expect(storeLocation('postgresql://u@h:5432/db')).toEqual({ dialect: 'postgres', url: 'postgresql://u@h:5432/db' });
      const forms: [string, string][] = [
        [join(dir, 'a.sqlite'), join(dir, 'a.sqlite')],
        [`sqlite://${dir}/b.sqlite`, join(dir, 'b.sqlite')],
        [`file://${dir}/c%20d.sqlite`, join(dir, 'c d.sqlite')],
        [`file://localhost${dir}/e.sqlite`, join(dir, 'e.sqlite')],
        ['sqlite:data/f.sqlite', 'data/f.sqlite'],
        ['file:g.sqlite', 'g.sqlite'],
        ['sqlite::memory:', ':memory:'],
      ];
      for (const [url, path] of forms) expect(storeLocation(url), url).toEqual({ dialect: 'sqlite', path });
      // As the server opens its store (DEMO=0), and as a command does.
      for (const [url, path] of forms.slice(0, 4)) {
        const opened = await openConfiguredStore(url, null);
        await opened.store.close();
        expect(existsSync(path), url).toBe(true);
        const listed = spawnSync(process.execPath, [join(root, 'dist/cli/index.js'), '--database', url, 'keys', 'list'], {
          encoding: 'utf8',
        });
        expect([listed.status, listed.stderr], url).toEqual([0, '']);
      }
      // Relative forms are relative to the working directory.
      const r = spawnSync(process.execPath, [join(root, 'dist/cli/index.js'), '--database', 'sqlite:h.sqlite', 'migrate'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect([r.status, existsSync(join(dir, 'h.sqlite'))]).toEqual([0, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
