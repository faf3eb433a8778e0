import { DEMO_TABLES } from '../src/demo/generate.js';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openStore } from '../src/derived/open.js';
import { hashKey } from '../src/auth/keys.js';
import { MIGRATION_NAMES } from '../src/store/migrate.js';
import { cli, CLI, mds } from './ingest-helpers.js';
import { STORES } from './helpers.js';

const KEY = /^mds_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}\n$/;
const tmpDb = () => join(mkdtempSync(join(tmpdir(), 'mds-cli-')), 'cli.sqlite');

/** `mds` in-process: stdout, failing on a non-zero exit as a child process would. */
async function ok(db: string, ...args: string[]): Promise<string> {
  const r = await mds(db, ...args);
  if (r.code !== 0) throw new Error(`mds ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

describe('mds CLI', () => {
  it('creates keys printed alone, stored only as hashes; lists and revokes them', async () => {
    const db = tmpDb();
    // Every migration is applied and named (a new store has nothing derived to rebuild), and a second run has nothing to do.
    const fresh = openStore(':memory:');
    const all = (await migrate(fresh)).applied;
    await fresh.close();
    expect(all).toEqual(MIGRATION_NAMES);
    expect(await ok(db, 'migrate')).toBe(`applied ${all.join(', ')}\n`);
    const migrated = openStore(db);
    expect(
      (
        await migrated.db
          .selectFrom('kysely_migration' as any)
          .select('name')
          .orderBy('name')
          .execute()
      ).map((r: any) => r.name),
    ).toEqual(all);
    await migrated.close();
    expect(await ok(db, 'migrate')).toBe(`schema up to date (${all.length} migrations)\n`);
    const out = await ok(db, 'keys', 'create', '--name', 'alice');
    expect(out).toMatch(KEY);
    const key = out.trim();
    const list = await ok(db, 'keys', 'list');
    expect(list).toContain('alice');
    expect(list).not.toContain(key);
    const store = openStore(db);
    const rows = await store.db.selectFrom('api_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).toBe(hashKey(key));
    expect(JSON.stringify(rows)).not.toContain(key.slice(13));
    await store.close();
    const id = key.slice(4, 12);
    expect(await ok(db, 'keys', 'revoke', id)).toContain(`revoked ${id}`);
    expect(await ok(db, 'keys', 'list')).toMatch(/alice +default +20\d\d-\d\d-\d\d [\d:]{8} [+-]\d\d:\d\d  revoked 20\d\d-/);
    expect(await mds(db, 'keys', 'revoke', id)).toEqual({ code: 1, stdout: '', stderr: `mds: no active key ${id}\n` });
  });

  it('prints the OpenAPI document', async () => {
    const doc = JSON.parse(await ok(':memory:', 'openapi'));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/v1/equities/{instrument_id}/bars');
  });

  it("answers usage errors, --help and --version with commander's exit codes", async () => {
    const unknown = await cli('nonsense');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown command 'nonsense'");
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mds \[options\] \[command\]/);
    expect((await cli('--version')).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe.each(STORES)('mds demo on $name', ({ url }) => {
  it('prints each step as it is done, as the first start does, then what it wrote', async () => {
    const db = await url();
    const r = await mds(
      db,
      'demo',
      '--seed',
      '3',
      '--equities',
      '20',
      '--start',
      '2025-07-01',
      '--end',
      '2025-11-20',
      '--minute-days',
      '1',
      '--tick-days',
      '1',
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^building the demo market into .+ \(seed 3, 20 equities\) \.\.\.$/);
    // Every step timed (`    3.2 s  bars_1d: 2,020 rows`), in the order they are done.
    const steps = lines.slice(1).map((l) => {
      expect(l).toMatch(/^ +\d+\.\d s {2}\S/);
      return l.replace(/^ +\d+\.\d s {2}/, '').replace(/: [\d,]+ (rows?|days)$/, '');
    });
    expect(steps[0]).toMatch(/^simulated 44 instruments over 97 trading days$/);
    // Then each table of the summary printed on stdout, in the order written, before the fundamentals and the markets' days.
    const summary = JSON.parse(r.stdout.replace(/^demo market generated in \d+\.\d s: /, ''));
    const tables = Object.keys(summary).slice(0, DEMO_TABLES.length);
    expect(tables).toEqual(DEMO_TABLES);
    expect(tables.slice(-4)).toEqual(['bars_1d', 'bars_1m', 'quotes', 'trades']);
    expect(steps.slice(1)).toEqual([...tables, 'fundamentals written', 'market_days']);
    expect(summary).toMatchObject({ instruments: 44 });
    expect(lines.find((l) => l.includes('bars_1d:'))).toContain(`bars_1d: ${summary.bars_1d.toLocaleString('en-US')} rows`);
  }, 120_000);
});

describe('mds as a process (smoke test)', () => {
  it('node --import tsx src/cli/index.ts creates a key on a new store, printed alone, and exits 0', () => {
    const db = tmpDb();
    const run = (...args: string[]) => spawnSync(process.execPath, [...CLI, '--database', db, ...args], { encoding: 'utf8' });
    const created = run('keys', 'create', '--name', 'smoke');
    expect([created.status, created.stderr]).toEqual([0, '']);
    expect(created.stdout).toMatch(KEY);
  });
});
