import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { readFileSync, existsSync } from 'node:fs';
import { get, harness, TINY_DEMO, type Harness } from './helpers.js';
import { ERROR_CODES } from '../src/lib/errors.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SPEC = new URL('../../shared/spec/market-data-service.md', import.meta.url);

/** Every operation of the service contract (spec §4): 3 system, 3 markets, 2 classifications, 5 indices, 21 equities, 3 funds. */
const ALL_OPERATIONS = ['getSystemHealth', 'getSystemReadiness', 'getSystemVersion', 'listMarkets', 'getMarket', 'listTradingDays',
  'listSectors', 'listPrimaryIndustries', 'listIndices', 'getIndex', 'listIndexQuotes', 'listIndexBars', 'listIndexTechnicalIndicators',
  'listEquities', 'getEquity', 'listEquityBars', 'listBusinessScope', 'listCapitalFlows', 'getCompanyProfile', 'listDividends',
  'listEarningsForecasts', 'listFinancialIndicators', 'listBalanceSheets', 'listCashFlowStatements', 'listIncomeStatements',
  'listInstitutionalHoldings', 'listManagementHistory', 'listPriceLimits', 'listEquityQuotes', 'listSectorMemberships',
  'listEquityTechnicalIndicators', 'listEquityTrades', 'listPoolTypes', 'listPoolConstituents', 'listFunds', 'getFund', 'listFundQuotes'];
/** Operations the spec does not show, chosen in CONTRACT.md §1, that are served. */
const CONTRACT_OPERATIONS = ['listAdjustmentFactors'];

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: any;
  beforeAll(async () => {
    h = await harness(':memory:', TINY_DEMO);
    doc = (await get(h, '/openapi.json', {})).body;
  });
  afterAll(async () => { await h?.close(); });

  it('is a valid OpenAPI 3.1 document with the ApiKeyAuth scheme', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    for (const name of ['ErrorResponse', 'BarCollectionResponse', 'InstrumentResponse', 'MarketCollectionResponse', 'StatusResponse', 'VersionResponse']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('has every served operationId, public system operations and protected others', () => {
    const ops = new Map<string, any>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) ops.set(op.operationId, { ...op, path, method });
    }
    expect(ALL_OPERATIONS).toHaveLength(37);
    for (const id of [...ALL_OPERATIONS, ...CONTRACT_OPERATIONS]) expect(ops.has(id), id).toBe(true);
    expect(ops.size).toBe(37 + CONTRACT_OPERATIONS.length);
    expect(ops.get('getSystemHealth').security).toEqual([]);
    expect(ops.get('listEquityBars').path).toBe('/api/v1/equities/{instrument_id}/bars');
    expect(ops.get('listEquityBars').responses['401']).toBeDefined();
    const params = ops.get('listEquityBars').parameters.map((p: any) => p.name);
    expect(params).toEqual(expect.arrayContaining(['interval', 'adjustment', 'from', 'to', 'date', 'page[size]', 'page[after]']));
    if (existsSync(SPEC)) {
      const specIds = [...readFileSync(SPEC, 'utf8').matchAll(/\| (get|list)[A-Z]\w+/g)].map((m) => m[0].slice(2));
      for (const id of ops.keys()) if (!CONTRACT_OPERATIONS.includes(id)) expect(specIds, `${id} is not an operation of the spec`).toContain(id);
      expect(new Set(specIds)).toEqual(new Set(ALL_OPERATIONS));
    }
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
      for (const p of (op.parameters ?? []).filter((x: any) => x.in === 'path')) expect(p.example, `${op.operationId} ${p.name}`).toBeTypeOf('string');
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
