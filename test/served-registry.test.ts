/**
 * The lists that come from a registry stay derived (issue 41, item 1): a hand-kept list that
 * returns fails here, naming where. Migrations are the migrations folder's files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrationFiles } from '../src/store/migrate.js';

const src = (p: string) => readFileSync(new URL(`../src/${p}`, import.meta.url), 'utf8');

describe('migrations', () => {
  it('are the numbered files of src/store/migrations, in order; helpers are not', () => {
    const files = readdirSync(new URL('../src/store/migrations/', import.meta.url));
    const numbered = files.filter((f) => /^\d{4}_/.test(f)).map((f) => f.replace(/\.ts$/, ''));
    expect(MIGRATION_NAMES).toEqual(numbered.sort());
    expect(files).toContain('page-storage.ts');
    expect(MIGRATION_NAMES).not.toContain('page-storage');
  });

  it('refuse two files of one number', () => {
    expect(migrationFiles(['0002_b.js', '0001_a.js', 'helper.js', '0001_a.d.ts'])).toEqual([
      { name: '0001_a', file: '0001_a.js' },
      { name: '0002_b', file: '0002_b.js' },
    ]);
    expect(() => migrationFiles(['0029_index_weights.ts', '0029_dragon_tiger.ts'])).toThrow(
      'migrations 0029_dragon_tiger.ts and 0029_index_weights.ts share the number 0029: renumber the newer one',
    );
  });

  it('are listed nowhere by hand: store/migrate.ts imports none', () => {
    expect(src('store/migrate.ts')).not.toMatch(/from '\.\/migrations\/\d{4}_/);
  });
});

describe('the store type', () => {
  it('maps the datasets stored as declared: no table listed by hand in store/schema-fundamentals.ts', () => {
    const text = src('store/schema-fundamentals.ts');
    expect(text).toMatch(/export type FundamentalsDatabase = \{ \[D in \(typeof DECLARED\)\[number\] as D\['table'\]\]: TableOf<D> \}/);
    expect(text).not.toMatch(/^\s+\w+: \w+Table;$/m);
  });
});
