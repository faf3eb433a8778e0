/**
 * The CLI's rough edges, by exact output: `keys list` (a header, rates, local times),
 * `indicators precompute/drop` (what changed), `backup`, and exit code 3 with one line when the
 * store cannot be opened, from every command alike.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/derived/open.js';
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
    try { await listKeys(); } finally { if (tz === undefined) delete process.env.TZ; else process.env.TZ = tz; }
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
    expect((await mds(file, 'indicators', 'precompute', 'macd', 'kdj')).stdout).toMatch(/^precomputed kdj, macd in \d+\.\d s; precomputed now: kdj, macd\n$|^precomputed macd, kdj in \d+\.\d s; precomputed now: (macd, kdj|kdj, macd)\n$/);
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

  it.skipIf(!PG_URL)('exits 3 with one line when the store cannot be opened, whatever the command', async () => {
    const u = new URL(PG_URL);
    u.pathname = '/mds_no_such_database';
    u.password = 'secret';
    const shown = u.toString().replace(':secret@', ':***@');
    for (const args of [['migrate'], ['keys', 'list'], ['ingest', 'instruments', join(dir, 'none.csv')], ['backup', join(dir, 'x.sqlite')]]) {
      const r = await mds(u.toString(), ...args);
      expect(r.code, args.join(' ')).toBe(3);
      // ingest and export say so as store errors that changed nothing (docs/ingest.md, "Exit codes").
      const ingest = args[0] === 'ingest';
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^mds: ${ingest ? 'store error: ' : ''}cannot open the store ${shown.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `
        + `.*database "mds_no_such_database" does not exist${ingest ? ' \\(nothing was changed\\)' : ''}\\n$`));
    }
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });
});
