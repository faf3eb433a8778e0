/**
 * Writes src/http/openapi/examples.json: for every operation of the OpenAPI document, example
 * values of its parameters and the responses the service gives to them, recorded from the
 * default demo market (`mds demo` defaults: the market a new user starts with). The docs page
 * shows them and pre-fills "Try it out" with them. Run after a change of the demo or of a
 * response: `npx tsx scripts/openapi-examples.ts` (about 30 s: it builds the demo in memory).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrate, openStore } from '../src/derived/open.js';
import { DEFAULT_OPTIONS, generateDemo } from '../src/demo/generate.js';
import { KeyStore } from '../src/auth/keys.js';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { ERROR_CODES, renderErrors } from '../src/lib/errors.js';
import { INTERNAL_ERROR } from '../src/http/plugins/errors.js';
import { CLIENT_ERRORS, EXPECTATION_FAILED } from '../src/http/plugins/http-edge.js';
import { StoreUnavailable } from '../src/store/health.js';
import type { OperationExamples, Examples } from '../src/http/openapi/examples.js';

const OUT = fileURLToPath(new URL('../src/http/openapi/examples.json', import.meta.url));
/** The request id the examples show (a response's own is random). */
const REQUEST_ID = '7c0e1a5e-3b1d-4c55-9f0e-2a6d8f4b9c21';

/** Example path values by parameter (instrument ids by the operation's tag). */
const PATH: Record<string, string> = {
  'instrument_id:equities': '600519.SH',
  'instrument_id:indices': '000300.SH',
  'instrument_id:funds': '510300.SH',
  market: 'SH',
  pool_type: 'limit_up',
  indicator: 'macd',
};
/** The value of a path parameter that names nothing (its 404). */
const MISSING: Record<string, string> = {
  instrument_id: '999999.SH',
  market: 'HK',
  pool_type: 'no_such_pool',
  indicator: 'no_such_indicator',
};

const store = openStore(':memory:');
await migrate(store);
console.error('building the default demo market in memory ...');
await generateDemo(store);
const { key } = await new KeyStore(store.db).create('examples');
const config = { ...loadConfig({}), databaseUrl: ':memory:' };
const app = await buildApp({ config, store });
await app.ready();
const get = async (url: string, withKey = true) => {
  const res = await app.inject({ method: 'GET', url, headers: withKey ? { 'x-api-key': key } : {} });
  return { status: res.statusCode, body: res.payload ? JSON.parse(res.payload) : null };
};
/** A body as the examples show it: its random request id replaced. */
const shown = (body: any) => (body?.meta?.request_id ? { ...body, meta: { ...body.meta, request_id: REQUEST_ID } } : body);

// The last day of the demo: it has 1m bars, quotes and trades; a window of the days before it.
const bars = (
  await get(
    `/api/v1/equities/${PATH['instrument_id:equities']}/bars?interval=1d&page[size]=1000&from=${String(DEFAULT_OPTIONS.end - 10000).replace(/(\d{4})(\d\d)(\d\d)/, '$1-$2-$3')}`,
  )
).body.data as { trade_date: string }[];
const LAST = bars[bars.length - 1].trade_date;
const FROM = bars[bars.length - 15].trade_date;

const doc = (await get('/openapi.json', false)).body;
const operations: Record<string, OperationExamples> = {};
for (const [template, item] of Object.entries<Record<string, any>>(doc.paths)) {
  const op = item.get;
  // A stream does not end: its example is written below from the change log's.
  if (op.operationId === 'streamEvents') continue;
  const tag: string = op.tags?.[0] ?? '';
  const params: { name: string; in: string; required?: boolean }[] = op.parameters ?? [];
  const names = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
  const values: Record<string, string> = {};
  for (const p of params.filter((x) => x.in === 'path')) values[p.name] = PATH[`${p.name}:${tag}`] ?? PATH[p.name];
  if (names.has('interval')) values.interval = '1d';
  if (names.has('q')) values.q = 'gzmt';
  // Intraday series and pools: the last day; daily series: the last three weeks.
  if (/quotes|trades|pools\//.test(template) && names.has('date')) values.date = LAST;
  else if (names.has('from')) values.from = FROM;
  const path = (vals: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(vals[n]));
  const query = (extra: Record<string, string>) => {
    const q = Object.entries({ ...values, ...extra })
      .filter(([n]) => names.has(n))
      .map(([n, v]) => `${n}=${encodeURIComponent(v)}`);
    return q.length ? `?${q.join('&')}` : '';
  };
  const responses: Record<string, unknown> = {};
  const page = () => get(path(values) + query(names.has('page[size]') ? { 'page[size]': '3' } : {}), op.security?.length !== 0);
  let ok = await page();
  // Records reported less often than the window's three weeks (statements, dividends, factors): the collection's first page.
  if (ok.status === 200 && Array.isArray(ok.body.data) && ok.body.data.length === 0 && values.from !== undefined) {
    delete values.from;
    ok = await page();
  }
  // None for the well-known equity (suspensions: the demo never suspends it): the first equity that has some.
  if (ok.status === 200 && Array.isArray(ok.body.data) && ok.body.data.length === 0 && tag === 'equities' && 'instrument_id' in values) {
    for (const e of (await get('/api/v1/equities?page[size]=1000')).body.data as { id: string }[]) {
      values.instrument_id = e.id;
      ok = await page();
      if (ok.body.data?.length) break;
    }
  }
  if (ok.status !== 200) throw new Error(`${op.operationId}: ${ok.status} ${JSON.stringify(ok.body)}`);
  responses['200'] = shown(ok.body);
  if (op.responses['400']) {
    const bad: Record<string, string> = names.has('interval')
      ? { interval: '2d' }
      : names.has('page[size]')
        ? { 'page[size]': '5000' }
        : { 'page[size]': '10' };
    const r = await get(path(values) + (names.has('interval') || names.has('page[size]') ? query(bad) : '?page[size]=10'));
    if (r.status !== 400) throw new Error(`${op.operationId}: expected 400, got ${r.status}`);
    responses['400'] = shown(r.body);
  }
  if (op.responses['404']) {
    // The instrument where there is one (other path values are enumerations: a bad one is 400).
    const name = 'instrument_id' in values ? 'instrument_id' : params.find((x) => x.in === 'path')!.name;
    const missing = { ...values, [name]: MISSING[name] };
    const r = await get(path(missing) + query({}));
    if (r.status !== 404) throw new Error(`${op.operationId}: expected 404, got ${r.status}`);
    responses['404'] = shown(r.body);
  }
  const parameters: Record<string, string> = {};
  for (const p of params) if (values[p.name] !== undefined) parameters[p.name] = values[p.name];
  operations[op.operationId] = { parameters, responses };
}

// The event stream: each event's data is a change log record; its 400 answered before any stream.
{
  const bad = await get('/api/v1/events?after=-1');
  if (bad.status !== 400) throw new Error(`streamEvents: expected 400, got ${bad.status}`);
  const record = (operations.listChanges.responses['200'] as { data: unknown[] }).data[1];
  operations.streamEvents = { parameters: { after: '1' }, responses: { '200': record, '400': shown(bad.body) } };
}

// Answers every protected operation gives alike: no key, over the rate limit, the store down.
const unauthorized = shown((await get('/api/v1/equities', false)).body);
const limitedApp = await buildApp({ config: { ...config, rateLimit: 1 }, store });
await limitedApp.ready();
let limited: unknown = null;
for (let i = 0; i < 3 && limited === null; i++) {
  const r = await limitedApp.inject({ method: 'GET', url: '/api/v1/markets', headers: { 'x-api-key': key } });
  if (r.statusCode === 429) limited = shown(JSON.parse(r.payload));
}
if (limited === null) throw new Error('no 429 with RATE_LIMIT=1');
const unavailable = renderErrors(new StoreUnavailable('example').items, REQUEST_ID);
// Answers any operation may give: another method, and what Node's parser refuses (rendered as clientErrorHandler does).
const other = await app.inject({ method: 'DELETE', url: '/api/v1/markets', headers: { 'x-api-key': key } });
if (other.statusCode !== 405) throw new Error(`DELETE: expected 405, got ${other.statusCode}`);
const parser = Object.fromEntries(
  [...Object.values(CLIENT_ERRORS), EXPECTATION_FAILED].map((item) => [
    String(ERROR_CODES[item.code as keyof typeof ERROR_CODES].status),
    renderErrors([item], REQUEST_ID),
  ]),
);

const examples: Examples = {
  demo: { last_day: LAST },
  common: {
    '401': unauthorized,
    '405': shown(JSON.parse(other.payload)),
    ...parser,
    '429': limited,
    '500': renderErrors([INTERNAL_ERROR], REQUEST_ID),
    '503': unavailable,
  },
  operations,
};
writeFileSync(OUT, JSON.stringify(examples, null, 1) + '\n');
console.error(`wrote ${OUT}: ${Object.keys(operations).length} operations`);
await limitedApp.close();
await app.close();
await store.close();
