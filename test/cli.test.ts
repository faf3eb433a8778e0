import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/derived/open.js';
import { hashKey } from '../src/auth/keys.js';

const mds = (db: string, ...args: string[]) => execFileSync(process.execPath,
  ['--import', 'tsx', 'src/cli/index.ts', '--database', db, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('mds CLI', () => {
  it('creates keys printed alone, stored only as hashes; lists and revokes them', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'mds-cli-')), 'cli.sqlite');
    expect(mds(db, 'migrate')).toMatch(/applied: 0001_core|schema up to date/);
    const out = mds(db, 'keys', 'create', '--name', 'alice');
    expect(out).toMatch(/^mds_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}\n$/);
    const key = out.trim();
    const list = mds(db, 'keys', 'list');
    expect(list).toContain('alice');
    expect(list).not.toContain(key);
    const store = openStore(db);
    const rows = await store.db.selectFrom('api_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).toBe(hashKey(key));
    expect(JSON.stringify(rows)).not.toContain(key.slice(13));
    await store.close();
    const id = key.slice(4, 12);
    expect(mds(db, 'keys', 'revoke', id)).toContain(`revoked ${id}`);
    expect(mds(db, 'keys', 'list')).toMatch(/alice\t\S+\t20\d\d-/);
    expect(() => mds(db, 'keys', 'revoke', id)).toThrow();
  });

  it('prints the OpenAPI document', () => {
    const doc = JSON.parse(mds(':memory:', 'openapi'));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/v1/equities/{instrument_id}/bars');
  });
});
