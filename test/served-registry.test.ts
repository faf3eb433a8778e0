/**
 * The lists that come from a registry stay derived (issue 41, item 1): a hand-kept list that
 * returns fails here, naming where. Migrations are the migrations folder's files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrationFiles } from '../src/store/migrate.js';
import { DECLARED, SERVED, SERVED_OPERATIONS } from '../src/datasets/registry.js';
import { FILE_SHAPES } from '../src/http/file-shapes.js';
import { SERVED_SCHEMAS } from '../src/http/schemas/served.js';

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

describe('the collections served from declarations', () => {
  it('are the declarations with `serve`: statements, forecasts, holdings, management, margin trading, share capital', () => {
    expect(SERVED_OPERATIONS).toEqual([
      'listIncomeStatements',
      'listBalanceSheets',
      'listCashFlowStatements',
      'listFinancialIndicators',
      'listEarningsForecasts',
      'listInstitutionalHoldings',
      'listManagementHistory',
      'listMarginTrading',
      'listShareCapital',
    ]);
  });

  it('get their schemas, file shapes and routes from the registry, with no hand list', () => {
    const ids = SERVED_SCHEMAS.map((s) => s.$id);
    for (const d of SERVED) {
      expect(ids).toContain(d.record.id);
      expect(ids).toContain(d.serve.response);
      expect(FILE_SHAPES[d.serve.operationId], d.name).toBeDefined();
    }
    // Where the hand lists were: an operationId, a recordSchema or a file shape of a served dataset written out again.
    const files = ['http/file-shapes.ts', 'http/schemas/fundamentals.ts', 'http/schemas/company.ts', 'http/routes/fundamentals/index.ts'];
    const routes = readdirSync(new URL('../src/http/routes/', import.meta.url), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'));
    for (const f of [...files, ...routes.map((r) => `http/routes/${r}`)])
      for (const d of SERVED) {
        const text = src(f);
        expect(text, `${f} names ${d.serve.operationId}: it comes from the declaration`).not.toContain(`'${d.serve.operationId}'`);
        expect(text, `${f} writes ${d.serve.response} by hand`).not.toMatch(new RegExp(`Collection\\('${d.serve.response}'`));
      }
  });
});

describe('change scopes', () => {
  it('name no dataset stored as declared by hand: they come from its `feeds`', () => {
    const text = src('query/change-scope.ts');
    for (const d of DECLARED) expect(text, d.name).not.toContain(`'${d.name}'`);
  });
});
