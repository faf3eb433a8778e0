import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { readFileSync, existsSync } from 'node:fs';
import { asField, get, harness, parseCsv, TINY_DEMO, type Harness } from './helpers.js';
import { FILE_SHAPES } from '../src/http/file-shapes.js';
import { dataset, SERVED_OPERATIONS } from '../src/datasets/registry.js';
import { ERROR_CODES } from '../src/lib/errors.js';
import { INTERNAL_ERROR } from '../src/http/plugins/errors.js';
import { CLIENT_ERRORS } from '../src/http/plugins/http-edge.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SPEC = new URL('../../shared/spec/market-data-service.md', import.meta.url);

/** Every operation of the service contract (spec §4): 3 system, 3 markets, 2 classifications, 5 indices, 21 equities, 3 funds. */
const ALL_OPERATIONS = [
  'getSystemHealth',
  'getSystemReadiness',
  'getSystemVersion',
  'listMarkets',
  'getMarket',
  'listTradingDays',
  'listSectors',
  'listPrimaryIndustries',
  'listIndices',
  'getIndex',
  'listIndexQuotes',
  'listIndexBars',
  'listIndexTechnicalIndicators',
  'listEquities',
  'getEquity',
  'listEquityBars',
  'listBusinessScope',
  'listCapitalFlows',
  'getCompanyProfile',
  'listDividends',
  'listEarningsForecasts',
  'listFinancialIndicators',
  'listBalanceSheets',
  'listCashFlowStatements',
  'listIncomeStatements',
  'listInstitutionalHoldings',
  'listManagementHistory',
  'listPriceLimits',
  'listEquityQuotes',
  'listSectorMemberships',
  'listEquityTechnicalIndicators',
  'listEquityTrades',
  'listPoolTypes',
  'listPoolConstituents',
  'listFunds',
  'getFund',
  'listFundQuotes',
];
/** Operations the spec does not show, chosen in CONTRACT.md §1, that are served. */
const CONTRACT_OPERATIONS = [
  'listAdjustmentFactors',
  'listMarketBars',
  'listMarketBreadth',
  'listFundBars',
  'listFundTechnicalIndicators',
  'listSuspensions',
  // Issue 41: index members and weights over time.
  'listIndexConstituents',
  'listIndexMemberships',
  'listValuations',
  'searchInstruments',
  // Issue 39: the change log.
  'listChanges',
  'streamEvents',
];

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: any;
  beforeAll(async () => {
    h = await harness(':memory:', TINY_DEMO);
    doc = (await get(h, '/openapi.json', {})).body;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gives every collection operation CSV and NDJSON examples in its columns, NDJSON typed as ingest reads it', () => {
    let checked = 0;
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        const paged = (op.parameters ?? []).some((p: any) => p.name === 'page[after]');
        const content = op.responses['200'].content;
        if (!paged) {
          expect(content['text/csv'], op.operationId).toBeUndefined();
          continue;
        }
        expect(FILE_SHAPES[op.operationId], op.operationId).toBeDefined();
        expect(op.responses['200'].headers.Link, op.operationId).toBeDefined();
        const csv = parseCsv(content['text/csv'].example);
        const nd = content['application/x-ndjson'].example
          .split('\n')
          .filter(Boolean)
          .map((l: string) => JSON.parse(l));
        const data = content['application/json'].example.data;
        expect(data.length, op.operationId).toBeGreaterThan(0);
        expect(csv.length, op.operationId).toBe(data.length + 1);
        expect(
          nd.map((o: object) => Object.values(o).map(asField)),
          op.operationId,
        ).toEqual(csv.slice(1));
        expect(
          nd.map((o: object) => Object.keys(o)),
          op.operationId,
        ).toEqual(nd.map(() => csv[0]));
        const params = Object.fromEntries((op.parameters ?? []).map((p: any) => [p.name, p.example]));
        const shape = FILE_SHAPES[op.operationId]({ params, query: params });
        if (shape.dataset) {
          const cols = dataset(shape.dataset)!.columns;
          for (const o of nd) {
            for (const c of cols) if (o[c.name] !== null) expect(typeof o[c.name], `${op.operationId} ${c.name}`).toBe(c.json);
          }
        }
        checked++;
      }
    }
    expect(checked).toBe(Object.keys(FILE_SHAPES).length);
  });

  it('is a valid OpenAPI 3.1 document with the ApiKeyAuth scheme', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    for (const name of [
      'ErrorResponse',
      'BarCollectionResponse',
      'InstrumentResponse',
      'MarketCollectionResponse',
      'StatusResponse',
      'VersionResponse',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('has every served operationId, public system operations and protected others', () => {
    const ops = new Map<string, any>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) ops.set(op.operationId, { ...op, path, method });
    }
    expect(ALL_OPERATIONS).toHaveLength(37);
    // The spec's, the contract's and those served from declarations (datasets/registry.ts SERVED: margin trading, share capital, …).
    const all = new Set([...ALL_OPERATIONS, ...CONTRACT_OPERATIONS, ...SERVED_OPERATIONS]);
    for (const id of all) expect(ops.has(id), id).toBe(true);
    expect(ops.size).toBe(all.size);
    expect(ops.get('getSystemHealth').security).toEqual([]);
    expect(ops.get('listEquityBars').path).toBe('/api/v1/equities/{instrument_id}/bars');
    expect(ops.get('listEquityBars').responses['401']).toBeDefined();
    const params = ops.get('listEquityBars').parameters.map((p: any) => p.name);
    expect(params).toEqual(expect.arrayContaining(['interval', 'adjustment', 'from', 'to', 'date', 'page[size]', 'page[after]']));
    if (existsSync(SPEC)) {
      const specIds = [...readFileSync(SPEC, 'utf8').matchAll(/\| (get|list)[A-Z]\w+/g)].map((m) => m[0].slice(2));
      for (const id of ops.keys())
        if (!CONTRACT_OPERATIONS.includes(id) && !SERVED_OPERATIONS.includes(id))
          expect(specIds, `${id} is not an operation of the spec`).toContain(id);
      expect(new Set(specIds)).toEqual(new Set(ALL_OPERATIONS));
    }
  });

  /** Every operation of the document with its path and method. */
  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ path, method, op })));
  /** The path of an operation with its example path values, or `missing` for each. */
  const pathOf = (path: string, op: any, missing?: string) =>
    path.replace(/\{(\w+)\}/g, (_, n: string) => missing ?? op.parameters.find((p: any) => p.name === n && p.in === 'path').example);

  it('declares every status the server sends on an operation', async () => {
    const statusOf = (code: keyof typeof ERROR_CODES) => String(ERROR_CODES[code].status);
    // What Node's parser refuses before any route (408, 431: http-edge.test.ts) and an internal error can meet any operation.
    const anywhere = [
      ...Object.values(CLIENT_ERRORS).map((item) => statusOf(item.code as keyof typeof ERROR_CODES)),
      statusOf(INTERNAL_ERROR.code),
    ];
    let checked = 0;
    for (const { path, op } of operations()) {
      const declared = Object.keys(op.responses);
      const sent = new Set<string>(['200', '304', ...anywhere]);
      const query = (op.parameters ?? [])
        .filter((p: any) => p.in === 'query' && p.required)
        .map((p: any) => `${p.name}=${p.example}`)
        .join('&');
      const url = pathOf(path, op) + (query ? `?${query}` : '');
      for (const method of ['DELETE', 'POST', 'PUT', 'PATCH'] as const) {
        sent.add(String((await h.app.inject({ method, url, headers: { 'x-api-key': h.key } })).statusCode));
      }
      sent.add(String((await get(h, `${url}${query ? '&' : '?'}no_such_parameter=1`)).status));
      if (op.security?.length !== 0) {
        sent.add(String((await get(h, url, {})).status));
        // Rate limits and the store's outage: on every protected operation (rate-limit.test.ts, faults.test.ts).
        sent.add(statusOf('rate_limited')).add(statusOf('not_ready'));
      }
      if (path.includes('{')) sent.add(String((await get(h, pathOf(path, op, 'no_such_thing.XX') + (query ? `?${query}` : ''))).status));
      for (const status of sent) expect(declared, `${op.operationId} ${status}`).toContain(status);
      // And every status of the error catalogue on a protected operation with a path value.
      if (op.security?.length !== 0 && path.includes('{')) {
        for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
          // Conditional requests and ranges are answered by the docs page's static files only (http-edge.test.ts).
          if (code === 'precondition_failed' || code === 'range_not_satisfiable') continue;
          expect(declared, `${op.operationId} ${code}`).toContain(statusOf(code));
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
    const bars = doc.paths['/api/v1/equities/{instrument_id}/bars'].get.responses;
    expect(bars['405'].headers.Allow.schema.const).toBe('GET, HEAD');
    expect(bars['405'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
  });

  it('accepts bare dates and date-times with or without an offset as from/to, as the server does, with any validator', async () => {
    const ajv = new Ajv2020({ allErrors: true });
    addFormats.default(ajv);
    const good = [
      '2024-01-02',
      '2024-02-29',
      '2024-01-02T10:30:00',
      '2024-01-02T10:30',
      '2024-01-02T10:30:00+08:00',
      '2024-01-02T02:30:00Z',
      '2024-01-02T10:30:00.250-05:00',
      '2024-01-02 10:30:00',
    ];
    const bad = [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-1-2',
      'yesterday',
      '2024-01-02T24:00:00',
      '2024-01-02T10:30:00+8',
      '2024-01-02T10:30:00+08:00Z',
    ];
    let params = 0;
    for (const { path, op } of operations()) {
      const query = (op.parameters ?? []).filter((x: any) => x.in === 'query');
      for (const p of query.filter((x: any) => x.name === 'from' || x.name === 'to')) {
        // Bounds of a window of instants (RFC 3339, said the description); else of dates, which take dates only.
        if (!/RFC 3339/.test(p.description ?? p.schema.description)) {
          const check = ajv.compile(p.schema);
          expect(check('2024-01-02') && !check('2024-01-02T10:30:00+08:00') && !check('2024-02-30'), `${op.operationId} ${p.name}`).toBe(
            true,
          );
          continue;
        }
        params++;
        const check = ajv.compile(p.schema);
        // As Swagger UI's parameter check reads a pattern: a RegExp without flags.
        const swaggerUi = p.schema.pattern ? new RegExp(p.schema.pattern) : null;
        for (const v of good) {
          expect(check(v), `${op.operationId} ${p.name}=${v}: ${ajv.errorsText(check.errors)}`).toBe(true);
          if (swaggerUi) expect(swaggerUi.test(v), `${op.operationId} ${p.name}=${v} in Swagger UI`).toBe(true);
        }
        for (const v of bad) expect(check(v), `${op.operationId} ${p.name}=${v}`).toBe(false);
      }
      if (op.operationId !== 'listEquityBars' && op.operationId !== 'listIndexTechnicalIndicators') continue;
      // The server takes what the document takes, and refuses the rest as before: 400 naming the parameter.
      const base = `${pathOf(path, op)}?interval=1d`;
      for (const v of good) {
        const r = await get(h, `${base}&from=${encodeURIComponent(v)}&to=2026-01-01`);
        expect(r.status, `${op.operationId} from=${v}: ${r.payload}`).toBe(200);
      }
      for (const v of bad) {
        const r = await get(h, `${pathOf(path, op)}?to=${encodeURIComponent(v)}&interval=2d`);
        expect(r.status, v).toBe(400);
        expect(r.body.errors, v).toEqual([
          {
            status: '400',
            code: 'invalid_parameter',
            title: 'Invalid parameter',
            detail: 'interval must be one of 1m, 5m, 15m, 30m, 60m, 1d, 1w, 1mo, 1q, 1y',
            source: { parameter: 'interval' },
          },
          {
            status: '400',
            code: 'invalid_parameter',
            title: 'Invalid parameter',
            detail: 'to must be an RFC 3339 date-time (e.g. 2024-03-01T10:30:00+08:00) or a date',
            source: { parameter: 'to' },
          },
        ]);
      }
    }
    expect(params).toBeGreaterThanOrEqual(2 * 7);
  });

  it("declares the data-version headers: Data-Version on every data operation's 200 and 304, Data-Version-Cursor on each collection's 200", () => {
    const ops = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) => Object.values(item));
    const data = ops.filter((op) => !(Array.isArray(op.security) && op.security.length === 0));
    expect(data.length).toBeGreaterThan(32);
    for (const op of data) {
      expect(Object.keys(op.responses['200'].headers), op.operationId).toContain('Data-Version');
      expect(Object.keys(op.responses['304'].headers), op.operationId).toContain('Data-Version');
    }
    const paged = data.filter((op) => op.responses['200'].headers['Data-Version-Cursor']).map((op) => op.operationId);
    // Every collection has a file (http/file-shapes.ts), and only collections.
    expect(paged.sort()).toEqual(Object.keys(FILE_SHAPES).sort());
    expect(paged).toContain('listEquityBars');
    expect(data.length - paged.length).toBe(6);
    expect(doc.components.headers['Data-Version'].schema).toEqual({ type: 'integer', minimum: 1 });
  });

  it('keeps the error catalogue, the OpenAPI document and the docs in step', () => {
    expect(doc.components.schemas.ErrorObject.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    const docs = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    for (const code of Object.keys(ERROR_CODES)) expect(docs, code).toContain(`\`${code}\``);
  });

  it('renders the docs page', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.payload).toContain('swagger-ui');
    const init = await h.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    const spec = await h.app.inject({ method: 'GET', url: '/docs/json' });
    expect(JSON.parse(spec.payload).paths).toEqual(doc.paths);
  });
  it('describes every response status and shows an example of each, valid against its schema, with example parameters', () => {
    expect(doc.info.title).toBe('market-data-service API');
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    let examples = 0;
    for (const item of Object.values<any>(doc.paths)) {
      const op = item.get;
      for (const p of (op.parameters ?? []).filter((x: any) => x.in === 'path'))
        expect(p.example, `${op.operationId} ${p.name}`).toBeTypeOf('string');
      for (const [status, r] of Object.entries<any>(op.responses)) {
        expect(r.description, `${op.operationId} ${status}`).not.toBe('Default Response');
        if (status === '304') continue;
        const media = r.content['application/json'];
        expect(media.example, `${op.operationId} ${status}`).toBeDefined();
        expect(media.schema.$ref, `${op.operationId} ${status}`).toMatch(/^#\/components\/schemas\//);
        const check = ajv.compile({ $ref: `openapi.json${media.schema.$ref}` });
        expect(check(media.example), `${op.operationId} ${status}: ${ajv.errorsText(check.errors)}`).toBe(true);
        if (status !== '200') expect(media.example.errors[0].status).toBe(status);
        examples++;
      }
    }
    expect(examples).toBeGreaterThan(200);
  });
});
