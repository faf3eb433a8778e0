import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { get, STORES } from './helpers.js';
import { emptyHarness, mds } from './ingest-helpers.js';
import { DATASETS } from '../src/datasets/registry.js';
import { withDatasetDocs } from '../src/ingest/docs.js';
import type { Harness } from './helpers.js';

const EXAMPLES = 'examples';
const rowsOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n').length - 1;

describe('docs/ingest.md', () => {
  it('documents every dataset from the registry (regenerate: npx tsx scripts/gen-ingest-docs.ts)', () => {
    const doc = readFileSync('docs/ingest.md', 'utf8');
    expect(withDatasetDocs(doc)).toBe(doc);
    for (const d of DATASETS) expect(doc).toContain(`### \`${d.name}\``);
  });
});

describe('examples/', () => {
  it('has one CSV example per dataset, and nothing else at the top level', () => {
    const files = readdirSync(EXAMPLES)
      .filter((f) => f.endsWith('.csv'))
      .sort();
    expect(files).toEqual(DATASETS.map((d) => `${d.name}.csv`).sort());
    for (const f of files) expect(rowsOf(`${EXAMPLES}/${f}`), f).toBeGreaterThan(0);
  });
});

for (const kind of STORES) {
  describe(`every example loads into an empty ${kind.name} store`, () => {
    let h: Harness;
    let out: Awaited<ReturnType<typeof mds>>;
    beforeAll(async () => {
      const url = await kind.url();
      out = await mds(url, 'ingest', '--dir', EXAMPLES);
      h = await emptyHarness(url);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('ingest --dir examples inserts every row of every file', () => {
      expect(out.code, out.stderr).toBe(0);
      for (const d of DATASETS) {
        const n = rowsOf(`${EXAMPLES}/${d.name}.csv`);
        // Every store holds the three markets already (migration 0008), described as the example does.
        const counts = d.name === 'markets' ? `0 inserted, 0 updated, ${n} unchanged` : `${n} inserted, 0 updated, 0 unchanged`;
        expect(out.stdout, d.name).toContain(`${d.name}: ${n} rows from 1 file: ${counts}`);
      }
      expect(out.stdout).toMatch(/^committed: \d+ rows/m);
    });

    it('serves the loaded rows through the API', async () => {
      const bars = readFileSync(`${EXAMPLES}/bars_1d.csv`, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(','))
        .filter((f) => f[0] === '000256.SZ');
      const r = await get(h, '/api/v1/equities/000256.SZ/bars?interval=1d&page[size]=100');
      expect(r.status).toBe(200);
      expect(r.body.data.map((b: any) => [b.trade_date, b.open, b.high, b.low, b.close, String(b.volume), b.amount])).toEqual(
        bars.map((f) => f.slice(1)),
      );
      for (const p of [
        '/api/v1/markets',
        '/api/v1/indices/000001.SH',
        '/api/v1/funds/510210.SH',
        '/api/v1/equities/603005.SH',
        '/api/v1/equities/000256.SZ/company-profile',
        '/api/v1/equities/000256.SZ/quotes',
        '/api/v1/equities/000256.SZ/trades',
        '/api/v1/equities/000256.SZ/bars?interval=5m',
        '/api/v1/equities/000256.SZ/income-statements',
        '/api/v1/equities/000256.SZ/balance-sheets',
        '/api/v1/equities/000256.SZ/cash-flow-statements',
        '/api/v1/equities/000256.SZ/financial-indicators',
        '/api/v1/equities/000256.SZ/institutional-holdings',
        '/api/v1/equities/000256.SZ/management-history',
        '/api/v1/equities/000256.SZ/business-scope',
        '/api/v1/equities/000256.SZ/sector-memberships',
        '/api/v1/equities/000256.SZ/capital-flows',
        '/api/v1/equities/002013.SZ/dividends',
        '/api/v1/equities/000256.SZ/price-limits',
      ]) {
        const x = await get(h, p);
        expect(x.status, p).toBe(200);
        if (Array.isArray(x.body.data)) expect(x.body.data.length, p).toBeGreaterThan(0);
      }
      expect((await get(h, '/api/v1/equities/603005.SH')).body.data.is_st).toBe(true);
    });

    it('the NDJSON examples (plain and gzip) hold the same rows: loading them changes nothing', async () => {
      const a = await mds(h.url, 'ingest', 'bars_1d', `${EXAMPLES}/ndjson/bars_1d.ndjson`);
      expect(a.code, a.stderr).toBe(0);
      const n = rowsOf(`${EXAMPLES}/bars_1d.csv`);
      expect(a.stdout).toContain(`bars_1d: ${n} rows from 1 file: 0 inserted, 0 updated, ${n} unchanged`);
      const b = await mds(h.url, 'ingest', 'trades', `${EXAMPLES}/ndjson/trades.ndjson.gz`);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stdout).toMatch(/trades: \d+ rows from 1 file: 0 inserted, 0 updated, \d+ unchanged/);
      expect(b.stdout).toMatch(/^no changes/m);
    });
  });
}
