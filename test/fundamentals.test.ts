import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormatRegistry, TypeRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { OPS } from './fundamentals-helpers.js';
import {
  BalanceSheet,
  CashFlowStatement,
  Dividend,
  EarningsForecast,
  FinancialIndicator,
  IncomeStatement,
} from '../src/http/schemas/fundamentals.js';
import { CapitalFlow, CompanyProfile, InstitutionalHolding, ManagementRecord, TextEntry } from '../src/http/schemas/company.js';
import { parseDate, parseDateTime } from '../src/lib/time.js';

FormatRegistry.Set('date', (s) => parseDate(s) !== null);
FormatRegistry.Set('date-time', (s) => parseDateTime(s) !== null);
// Enumerations are Type.Unsafe (plain `enum` in OpenAPI); check them as such.
TypeRegistry.Set('Unsafe', (s: any, v) => typeof v === s.type && (!s.enum || s.enum.includes(v)));

const RECORD: Record<string, TSchema> = {
  listBusinessScope: TextEntry,
  listCapitalFlows: CapitalFlow,
  listDividends: Dividend,
  listEarningsForecasts: EarningsForecast,
  listFinancialIndicators: FinancialIndicator,
  listBalanceSheets: BalanceSheet,
  listCashFlowStatements: CashFlowStatement,
  listIncomeStatements: IncomeStatement,
  listInstitutionalHoldings: InstitutionalHolding,
  listManagementHistory: ManagementRecord,
  listSectorMemberships: TextEntry,
};

/** Sort key of a record in its operation's documented order. */
const ORDER: Record<string, (r: any) => string> = {
  listBusinessScope: (r) => String(r.seq).padStart(4, '0'),
  listCapitalFlows: (r) => r.timestamp,
  listDividends: (r) => `${r.ex_date ?? '9999-12-31'}|${r.report_period}|${r.announce_date}`,
  listEarningsForecasts: (r) => `${r.announce_date}|${r.report_date}`,
  listFinancialIndicators: (r) => r.report_date,
  listBalanceSheets: (r) => r.report_date,
  listCashFlowStatements: (r) => r.report_date,
  listIncomeStatements: (r) => r.report_date,
  listInstitutionalHoldings: (r) => `${r.report_date}|${String(r.rank).padStart(4, '0')}`,
  listManagementHistory: (r) => r.start_date,
  listSectorMemberships: (r) => r.classification_id,
};

/** The HTTP contract of the company, fundamentals and flow operations, on every store. */
describe.each(STORES)('fundamentals API on $name', ({ url }) => {
  let h: Harness;
  let sample: string[];
  beforeAll(async () => {
    h = await harness(await url());
    const all = await walk(h, '/api/v1/equities', 1000);
    const seasoned = all.filter((e) => e.list_date <= '2024-01-01');
    sample = seasoned.filter((_, i) => i % 4 === 0).map((e) => e.id);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers every operation with typed records in ascending order', async () => {
    const seen = new Map<string, number>();
    for (const id of sample) {
      for (const [op, seg] of OPS) {
        const rows = await walk(h, `/api/v1/equities/${id}/${seg}`, 1000);
        seen.set(op, (seen.get(op) ?? 0) + rows.length);
        for (const r of rows) {
          expect(Value.Check(RECORD[op], r), `${op} ${id} ${JSON.stringify([...Value.Errors(RECORD[op], r)].slice(0, 2))}`).toBe(true);
          expect(r.instrument_id).toBe(id);
          expect(Object.keys(r), `${op} keys in the schema's order`).toEqual(Object.keys((RECORD[op] as any).properties));
        }
        const keys = rows.map(ORDER[op]);
        expect(keys, `${op} ${id} order`).toEqual([...keys].sort());
        if (op !== 'listManagementHistory') expect(new Set(keys).size, `${op} ${id} unique`).toBe(keys.length);
        if (!['listDividends', 'listEarningsForecasts'].includes(op)) expect(rows.length, `${op} ${id}`).toBeGreaterThan(0);
      }
      const p = await get(h, `/api/v1/equities/${id}/company-profile`);
      expect(p.status).toBe(200);
      expect(Value.Check(CompanyProfile, p.body.data), JSON.stringify([...Value.Errors(CompanyProfile, p.body.data)])).toBe(true);
      expect(p.body.data.instrument_id).toBe(id);
    }
    for (const [op] of OPS) expect(seen.get(op), op).toBeGreaterThan(0);
  });

  it('filters from/to inclusively on the natural date', async () => {
    for (const [op, seg, field] of OPS) {
      if (!field) continue;
      let checked = 0;
      for (const id of sample) {
        const all = await walk(h, `/api/v1/equities/${id}/${seg}`, 1000);
        const dated = all.filter((r) => r[field] !== null);
        if (dated.length === 0) continue;
        const n = dated.length,
          from = dated[Math.min(1, n - 1)][field],
          to = dated[Math.max(Math.min(1, n - 1), n - 2)][field];
        const got = await walk(h, `/api/v1/equities/${id}/${seg}?from=${from}&to=${to}`, 1000);
        expect(got, `${op} ${id} ${from}..${to}`).toEqual(dated.filter((r) => r[field] >= from && r[field] <= to));
        expect(got.length).toBeGreaterThan(0);
        const tail = await walk(h, `/api/v1/equities/${id}/${seg}?from=${from}`, 1000);
        expect(tail, `${op} ${id} from ${from}`).toEqual(all.filter((r) => r[field] === null || r[field] >= from));
        const head = await walk(h, `/api/v1/equities/${id}/${seg}?to=${to}`, 1000);
        expect(head, `${op} ${id} to ${to}`).toEqual(dated.filter((r) => r[field] <= to));
        checked++;
      }
      expect(checked, op).toBeGreaterThan(0);
    }
  });

  it('selects capital flows by their 15:00 close instant, like quotes', async () => {
    const id = sample[0];
    const all = await walk(h, `/api/v1/equities/${id}/capital-flows`, 1000);
    const day = all[5].trade_date;
    expect(all[5].timestamp).toBe(`${day}T15:00:00+08:00`);
    expect((await get(h, `/api/v1/equities/${id}/capital-flows?date=${day}`)).body.data).toEqual([all[5]]);
    expect((await get(h, `/api/v1/equities/${id}/capital-flows?from=${day}T15:00:00&to=${day}T15:00:00`)).body.data).toEqual([all[5]]);
    expect((await get(h, `/api/v1/equities/${id}/capital-flows?from=${day}T15:00:01&to=${day}T23:59:59`)).body.data).toEqual([]);
    expect((await get(h, `/api/v1/equities/${id}/capital-flows?from=${day}T07:00:00Z&to=${day}T07:00:00Z`)).body.data).toEqual([all[5]]);
    const r = await get(h, `/api/v1/equities/${id}/capital-flows?date=${day}&from=${day}`);
    expect(r.body.errors[0].code).toBe('conflicting_parameters');
  });

  it('walks page by page to the rows of one large page', async () => {
    const id = sample[1];
    for (const [op, seg] of OPS) {
      const whole = await walk(h, `/api/v1/equities/${id}/${seg}`, 1000);
      for (const size of [1, 7]) expect(await walk(h, `/api/v1/equities/${id}/${seg}`, size), `${op} size ${size}`).toEqual(whole);
    }
    const tail = `/api/v1/equities/${id}/dividends?from=2024-01-01`;
    expect(await walk(h, tail, 1)).toEqual(await walk(h, tail, 1000));
  });

  it('answers 404, 401 and 400 as the contract says', async () => {
    const id = sample[0];
    const paths = [...OPS.map(([, seg]) => seg), 'company-profile'];
    for (const seg of paths) {
      for (const bad of ['NOPE.SH', '000300.SH', '510300.SH']) {
        const r = await get(h, `/api/v1/equities/${bad}/${seg}`);
        expect(r.status, `${bad}/${seg}`).toBe(404);
        expect(r.body.errors[0].code).toBe('not_found');
      }
      const anon = await get(h, `/api/v1/equities/${id}/${seg}`, {});
      expect(anon.status, seg).toBe(401);
      expect(anon.body.errors[0].code).toBe('missing_api_key');
      const typo = await get(h, `/api/v1/equities/${id}/${seg}?page_size=5`);
      expect(typo.status, seg).toBe(400);
      expect(typo.body.errors[0]).toMatchObject({ code: 'unknown_parameter', source: { parameter: 'page_size' } });
    }
    for (const [, seg, field] of OPS) {
      const r = await get(h, `/api/v1/equities/${id}/${seg}?from=2025-02-30`);
      expect(r.status, seg).toBe(400);
      expect(r.body.errors[0], seg).toMatchObject({
        code: field ? 'invalid_parameter' : 'unknown_parameter',
        source: { parameter: 'from' },
      });
      if (!field) continue;
      const rev = await get(h, `/api/v1/equities/${id}/${seg}?from=2025-06-01&to=2025-01-01`);
      expect(rev.status, seg).toBe(400);
    }
    const cursor = (await get(h, `/api/v1/equities/${id}/balance-sheets?page[size]=1`)).body.meta.next_cursor;
    const replay = await get(h, `/api/v1/equities/${id}/balance-sheets?from=2024-01-01&page[after]=${cursor}`);
    expect(replay.body.errors[0].code).toBe('invalid_cursor');
  });

  it('lists the operations in the OpenAPI document with their parameters', async () => {
    const doc = (await get(h, '/openapi.json', {})).body;
    const ops = new Map<string, any>();
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const op of Object.values<any>(item)) ops.set(op.operationId, { ...op, path });
    const names = (op: string) =>
      ops
        .get(op)
        .parameters.filter((p: any) => p.in === 'query')
        .map((p: any) => p.name)
        .sort();
    for (const [op, seg, field] of OPS) {
      expect(ops.get(op)?.path, op).toBe(`/api/v1/equities/{instrument_id}/${seg}`);
      const want = [
        'page[after]',
        'page[size]',
        ...(field ? ['from', 'to', 'order'] : []),
        ...(op === 'listCapitalFlows' ? ['date'] : []),
        // The statements as known on a day (docs/fundamentals.md, "Restatements").
        ...(field === 'report_date' ? ['as_of'] : []),
      ];
      expect(names(op), op).toEqual(want.sort());
      expect(Object.keys(ops.get(op).responses).sort(), op).toEqual([
        '200',
        '304',
        '400',
        '401',
        '404',
        '405',
        '408',
        '417',
        '429',
        '431',
        '500',
        '503',
        '505',
      ]);
    }
    expect(ops.get('getCompanyProfile').path).toBe('/api/v1/equities/{instrument_id}/company-profile');
    for (const s of [
      'CompanyProfileResponse',
      'TextEntryCollectionResponse',
      'CapitalFlowCollectionResponse',
      'TextEntry',
      'FinancialIndicator',
    ]) {
      expect(doc.components.schemas[s], s).toBeDefined();
    }
  });
});
