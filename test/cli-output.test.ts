/**
 * The CLI's rough edges, by exact output: `keys list` (a header, rates, local times),
 * `indicators precompute/drop` (what changed), `backup`, `migrate` (what it applied and
 * rebuilt), `check` (a line per part, each problem, the exit code), and exit code 3 with one
 * line when the store cannot be opened, from every command alike.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DERIVED_DAILY } from '../src/derived/derived-daily-rebuild.js';
import { INDICATOR_PAGES } from '../src/derived/indicator-pages.js';
import { INDICATOR_STATES } from '../src/derived/indicator-states.js';
import { MARKET_DAYS } from '../src/derived/market-days.js';
import { openStore } from '../src/derived/open.js';
import { connect } from '../src/store/connect.js';
import { MIGRATION_NAMES } from '../src/store/migrate.js';
import { fixtureStore } from './fixture-store.js';
import { mds } from './ingest-helpers.js';
import { PG_URL } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mds-cli-output-'));
const file = join(dir, 'store.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mds output', () => {
  it('lists keys under a header, with their rate and local times', async () => {
    // Local time of this machine: set for this test (other files of the worker keep theirs).
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Shanghai';
    try {
      await listKeys();
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  async function listKeys() {
    const a = await mds(file, 'keys', 'create', '--name', 'research');
    const b = await mds(file, 'keys', 'create', '--name', 'batch', '--rate', '0');
    const c = await mds(file, 'keys', 'create', '--name', 'app', '--rate', '50');
    expect([a.code, b.code, c.code]).toEqual([0, 0, 0]);
    const id = (key: string) => key.trim().split('_')[1];
    expect((await mds(file, 'keys', 'revoke', id(b.stdout))).stdout).toBe(`revoked ${id(b.stdout)}\n`);
    const lines = (await mds(file, 'keys', 'list')).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID {8}NAME {6}RATE {7}CREATED {21}STATUS$/);
    const time = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+08:00';
    expect(lines.slice(1).map((l) => l.replace(new RegExp(time, 'g'), 'T'))).toEqual([
      `${id(a.stdout)}  research  default    T  active`,
      `${id(b.stdout)}  batch     unlimited  T  revoked T`,
      `${id(c.stdout)}  app       50         T  active`,
    ]);
  }

  it('says what precompute and drop changed', async () => {
    expect((await mds(file, 'indicators', 'precompute', 'macd', 'kdj')).stdout).toMatch(
      /^precomputed kdj, macd in \d+\.\d s; precomputed now: kdj, macd\n$|^precomputed macd, kdj in \d+\.\d s; precomputed now: (macd, kdj|kdj, macd)\n$/,
    );
    expect((await mds(file, 'indicators', 'drop', 'kdj')).stdout).toMatch(/^dropped kdj in \d+\.\d s; precomputed now: macd\n$/);
    expect((await mds(file, 'indicators', 'drop', 'kdj')).stdout).toMatch(/^nothing changed in \d+\.\d s; precomputed now: macd\n$/);
  });

  it('backs a SQLite store up into a new file that opens with the same keys', async () => {
    const copy = join(dir, 'copy.sqlite');
    const r = await mds(file, 'backup', copy);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^backed up to ${copy.replace(/[.]/g, '\\.')} \\(\\d+\\.\\d MB\\) in \\d+\\.\\d s\\n$`));
    const s = openStore(copy);
    expect((await s.select<{ n: number }>('select count(*) as n from api_keys', []))[0].n).toBe(3);
    await s.close();
    const again = await mds(file, 'backup', copy);
    expect([again.code, again.stderr]).toEqual([1, `mds: ${copy} exists; give a new file\n`]);
  });

  it('says what migrate rebuilt and why', async () => {
    const url = join(dir, 'migrate.sqlite');
    await (await fixtureStore(url)).close();
    const raw = connect(url);
    await raw.bulkTransaction((s) => s.query("update meta set value = '1' where key = 'indicator_states'"));
    await raw.close();
    const r = await mds(url, 'migrate');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.replace(/ in \d+\.\d s\n/g, ' in T\n')).toBe(
      `schema up to date (${MIGRATION_NAMES.length} migrations)\n` +
        `indicator_states: stored version 1, code version ${INDICATOR_STATES.version()}: rebuilt 12 packs in T\n`,
    );
    expect((await mds(url, 'migrate')).stdout).toBe(`schema up to date (${MIGRATION_NAMES.length} migrations)\n`);
  });

  it('checks a store: a line per part, then each problem; exits 1 on a problem', async () => {
    const url = join(dir, 'check.sqlite');
    await (await fixtureStore(url)).close();
    const lines = (states: string, packs = 12, days = 71) => [
      'bar packs: 12 packs, 240 bars compared',
      `derived_daily: version ${DERIVED_DAILY.version()}, 0 days as the code makes them`,
      `indicator_states: ${states}, ${packs} packs as the code makes them`,
      `indicator_pages: version ${INDICATOR_PAGES.version()}, 0 pages as the code makes them`,
      // The fixture store's SH days from its first bar to its last (a plain first bar: 71 with records).
      `market_days: version ${MARKET_DAYS.version()}, ${days} days as the code makes them`,
    ];
    const clean = await mds(url, 'check');
    expect([clean.code, clean.stderr, clean.stdout]).toEqual([
      0,
      '',
      [...lines(`version ${INDICATOR_STATES.version()}`), 'no problems', ''].join('\n'),
    ]);

    // A pack's states corrupted, and the states' version changed behind the store's back.
    const raw = connect(url);
    await raw.bulkTransaction(async (s) => {
      await s.query("update bars_1d_packs set states = '{}' where inst = 1 and month = 202501");
      await s.query("update meta set value = '1' where key = 'indicator_states'");
    });
    await raw.close();
    const bad = await mds(url, 'check');
    expect([bad.code, bad.stderr, bad.stdout]).toEqual([
      1,
      '',
      [
        ...lines(`stored version 1, code version ${INDICATOR_STATES.version()}`, 11),
        `problem: indicator_states: stored version 1, code version ${INDICATOR_STATES.version()} (mds migrate rebuilds it)`,
        'problem: bars_1d_packs 1/202501: indicator states differ from folding the packs',
        '2 problems',
        '',
      ].join('\n'),
    ]);
  });

  it('checks only a store that exists, and says when its schema is behind', async () => {
    const none = join(dir, 'none.sqlite');
    expect(await mds(none, 'check')).toEqual({ code: 3, stdout: '', stderr: `mds: cannot open the store ${none}: no such file\n` });
    expect(existsSync(none)).toBe(false);
    const empty = join(dir, 'empty.sqlite');
    await connect(empty).close();
    expect(await mds(empty, 'check')).toEqual({
      code: 1,
      stderr: '',
      stdout: `schema: ${MIGRATION_NAMES.length} of its migrations not applied (${MIGRATION_NAMES.join(', ')}); run mds migrate\n`,
    });
  });

  it.skipIf(!PG_URL)('exits 3 with one line when the store cannot be opened, whatever the command', async () => {
    const u = new URL(PG_URL);
    u.pathname = '/mds_no_such_database';
    u.password = 'secret';
    const shown = u.toString().replace(':secret@', ':***@');
    for (const args of [
      ['migrate'],
      ['check'],
      ['keys', 'list'],
      ['ingest', 'instruments', join(dir, 'none.csv')],
      ['backup', join(dir, 'x.sqlite')],
    ]) {
      const r = await mds(u.toString(), ...args);
      expect(r.code, args.join(' ')).toBe(3);
      // The same line from every command; ingest adds that nothing changed (docs/ingest.md, "Exit codes").
      const ingest = args[0] === 'ingest';
      expect(r.stderr, args.join(' ')).toMatch(
        new RegExp(
          `^mds: cannot open the store ${shown.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ` +
            `.*database "mds_no_such_database" does not exist${ingest ? ' \\(nothing was changed\\)' : ''}\\n$`,
        ),
      );
    }
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });
});

describe('mds into a pipe closed early', () => {
  it('stops quietly with exit 0 when its reader closes the pipe (`mds openapi | head`)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['dist/cli/index.js', '--database', ':memory:', 'openapi'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    // Read the first chunk, then close the pipe as `head` does.
    const first = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d))));
    child.stdout!.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(first).toMatch(/^\{/);
    expect(code).toBe(0);
    expect(err).not.toMatch(/EPIPE|Unhandled/);
  });
});
