import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { ERROR_CODES } from '../src/lib/errors.js';
import type { App } from '../src/http/services.js';
import { get, harness, STORES, type Harness } from './helpers.js';

interface RawResponse { status: number; headers: Record<string, string>; body: any }

/**
 * Writes `request` (whole, or only its start: a client that stops half-way through its headers)
 * on a new connection and reads the response until the server closes it, bounded in time.
 */
function raw(port: number, request: string | Buffer, limitMs = 8000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no answer within ${limitMs} ms`)); }, limitMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => { /* the server may reset after answering */ });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) { reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`)); return; }
      const [line, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let body: any = null;
      try { body = JSON.parse(text.slice(split + 4)); } catch { body = text.slice(split + 4); }
      resolve({ status: Number(line.split(' ')[1]), headers, body });
    });
    socket.write(request);
  });
}

/** An ErrorResponse (CONTRACT §4) for `status` whose request id is the x-request-id header, no internals. */
function expectErrorResponse(r: { status: number; headers: Record<string, any>; body: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(r.body).sort()).toEqual(['errors', 'meta']);
  expect(r.body.errors[0]).toMatchObject({ status: String(status), code, title: ERROR_CODES[code as keyof typeof ERROR_CODES].title });
  expect(r.body.errors[0].detail).not.toMatch(/\n\s+at /);
  expect(r.headers['x-request-id']).toBeTruthy();
  expect(r.body.meta.request_id).toBe(r.headers['x-request-id']);
}

describe('requests refused before routing, over a socket', () => {
  let h: Harness;
  let app: App;
  let port: number;
  beforeAll(async () => {
    h = await harness(':memory:', null);
    app = await buildApp({ config: { ...loadConfig({}), databaseUrl: ':memory:' }, store: h.store, headersTimeout: 1000 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => { await app?.close(); await h?.close(); });

  it('answers a URL or headers over 16 KiB with 431 as ErrorResponse', async () => {
    const longUrl = await raw(port, `GET /api/v1/markets?name=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectErrorResponse(longUrl, 431, 'headers_too_large');
    const longHeader = await raw(port, `GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    expectErrorResponse(longHeader, 431, 'headers_too_large');
    // Just under the limit is served.
    const under = await raw(port, `GET /api/v1/system/health?_=${'a'.repeat(15 * 1024)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(under.status).toBe(200);
  });

  it('answers headers that do not arrive in time with 408 as ErrorResponse', async () => {
    // headersTimeout is 1 s; raw() fails when nothing answers within 6 s.
    const r = await raw(port, 'GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\n', 6000);
    expectErrorResponse(r, 408, 'request_timeout');
  });

  it('answers what Node refuses to parse with 400 as ErrorResponse', async () => {
    const utf8 = await raw(port, Buffer.from('GET /api/v1/equities/中国 HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8'));
    expectErrorResponse(utf8, 400, 'invalid_parameter');
    const relative = await raw(port, 'GET api/v1/markets HTTP/1.1\r\nHost: x\r\n\r\n');
    expectErrorResponse(relative, 400, 'invalid_parameter');
    const garbage = await raw(port, 'HELLO\r\n\r\n');
    expectErrorResponse(garbage, 400, 'invalid_parameter');
  });
});

describe.each(STORES)('edge requests on $name', ({ url }) => {
  let h: Harness;
  let eq: string;
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
  });
  afterAll(async () => { await h?.close(); });

  it('checks the key before refusing a malformed URL (401), then answers 400 with x-request-id', async () => {
    const path = '/api/v1/equities/%E4%B8/bars?interval=1d';
    expectErrorResponse(await get(h, path, {}), 401, 'missing_api_key');
    expectErrorResponse(await get(h, path, { 'x-api-key': 'nope' }), 401, 'invalid_api_key');
    expectErrorResponse(await get(h, path), 400, 'invalid_parameter');
    // Public paths need no key.
    expectErrorResponse(await get(h, '/api/v1/system/%E4%B8', {}), 400, 'invalid_parameter');
  });

  it('answers an overlong instrument id with 404 not_found, after the key check', async () => {
    for (const id of ['6'.repeat(101), `${'x'.repeat(5000)}.SH`]) {
      expectErrorResponse(await get(h, `/api/v1/equities/${id}`), 404, 'not_found');
      expectErrorResponse(await get(h, `/api/v1/equities/${id}/bars?interval=1d`), 404, 'not_found');
      expectErrorResponse(await get(h, `/api/v1/equities/${id}`, {}), 401, 'missing_api_key');
    }
    expectErrorResponse(await get(h, `/api/v1/equities/${'6'.repeat(100)}`), 404, 'not_found');
  });

  it('serves the system operations whatever their query parameters', async () => {
    for (const op of ['health', 'readiness', 'version']) {
      const r = await get(h, `/api/v1/system/${op}?_=1700000000&foo=bar`, {});
      expect(r.status, op).toBe(200);
    }
  });

  it('answers If-None-Match: * with 304 where a representation exists, and not where none does', async () => {
    const data = await get(h, '/api/v1/markets', { 'x-api-key': h.key, 'if-none-match': '*' });
    expect(data.status).toBe(304);
    expect(data.payload).toBe('');
    expect(data.headers.etag).toBeTruthy();
    expect((await get(h, '/api/v1/system/version', { 'if-none-match': '*' })).status).toBe(304);
    expectErrorResponse(await get(h, '/api/v1/markets/XX', { 'x-api-key': h.key, 'if-none-match': '*' }), 404, 'not_found');
    expectErrorResponse(await get(h, '/api/v1/markets', { 'if-none-match': '*' }), 401, 'missing_api_key');
  });

  it('answers another method on a served path with 405 and Allow, before reading the body', async () => {
    const send = (method: 'POST' | 'DELETE' | 'PUT' | 'OPTIONS', url: string, headers: Record<string, string>) =>
      h.app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: '{"broken' })
        .then((r) => ({ status: r.statusCode, headers: r.headers, body: JSON.parse(r.payload) }));
    for (const method of ['POST', 'DELETE', 'PUT', 'OPTIONS'] as const) {
      const r = await send(method, `/api/v1/equities/${eq}/bars?interval=1d`, { 'x-api-key': h.key });
      expectErrorResponse(r, 405, 'method_not_allowed');
      expect(r.headers.allow).toBe('GET, HEAD');
      expectErrorResponse(await send(method, '/api/v1/markets', {}), 401, 'missing_api_key');
      expectErrorResponse(await send(method, '/api/v1/system/health', {}), 405, 'method_not_allowed');
      expectErrorResponse(await send(method, '/api/v1/nowhere', { 'x-api-key': h.key }), 404, 'not_found');
    }
  });

  it('reports schema errors together with date conflicts and from after to', async () => {
    const codes = (r: any) => r.body.errors.map((e: any) => `${e.code}:${e.source?.parameter}`).sort();
    let r = await get(h, `/api/v1/equities/${eq}/bars?interval=2d&date=2025-03-03&from=2025-03-01`);
    expect(codes(r)).toEqual(['conflicting_parameters:date', 'invalid_parameter:interval']);
    r = await get(h, `/api/v1/equities/${eq}/quotes?from=2025-11-20T15:00:00&to=2025-11-20T09:00:00&page[size]=0`);
    expect(codes(r)).toEqual(['invalid_parameter:from', 'invalid_parameter:page[size]']);
    r = await get(h, '/api/v1/markets/SH/trading-days?from=2024-03-01&to=2024-02-01&foo=1');
    expect(codes(r)).toEqual(['invalid_parameter:from', 'unknown_parameter:foo']);
    r = await get(h, `/api/v1/equities/${eq}/price-limits?date=2025-03-03&to=2025-03-01&page[size]=x`);
    expect(codes(r)).toEqual(['conflicting_parameters:date', 'invalid_parameter:page[size]']);
    // An invalid from is one problem, not also a window problem; a parameter the operation lacks is only unknown.
    r = await get(h, `/api/v1/equities/${eq}/quotes?from=nope&to=2025-11-20T09:00:00&page[size]=0`);
    expect(codes(r)).toEqual(['invalid_parameter:from', 'invalid_parameter:page[size]']);
    r = await get(h, '/api/v1/markets/SH/trading-days?date=2024-03-01&from=2024-02-01&foo=1');
    expect(codes(r)).toEqual(['unknown_parameter:date', 'unknown_parameter:foo']);
  });

  it('does not take a key from the query string and says so', async () => {
    const r = await get(h, `/api/v1/markets?api_key=${h.key}`, {});
    expectErrorResponse(r, 401, 'missing_api_key');
    expect(r.body.errors[0].detail).toContain('query string is not accepted');
    const both = await get(h, `/api/v1/markets?api_key=${h.key}`);
    expect(both.body.errors[0]).toMatchObject({ code: 'unknown_parameter', source: { parameter: 'api_key' } });
  });

  it('bounds every query value: 1 MB is 400 naming it, on every operation of the OpenAPI document', async () => {
    const doc = (await get(h, '/openapi.json', {})).body;
    const big = 'a'.repeat(1 << 20);
    let checked = 0;
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        const path = template.replace('{instrument_id}', eq).replace('{market}', 'SH').replace('{pool_type}', 'strong')
          .replace('{indicator}', 'ma');
        for (const p of (op.parameters ?? []).filter((x: any) => x.in === 'query')) {
          expect(p.schema.maxLength ?? p.schema.enum ?? p.schema.maximum, `${op.operationId} ${p.name} has no limit`).toBeDefined();
          const r = await get(h, `${path}?${p.name}=${big}`);
          expect(r.status, `${op.operationId} ${p.name}`).toBe(400);
          expect(r.body.errors.map((e: any) => e.source?.parameter), `${op.operationId} ${p.name}`).toContain(p.name);
          checked++;
        }
        for (const p of (op.parameters ?? []).filter((x: any) => x.in === 'path')) {
          expectErrorResponse(await get(h, template.replace(`{${p.name}}`, big).replace(/\{\w+\}/g, 'x')), 404, 'not_found');
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('refuses a control character in any path or query value with 400 invalid_parameter naming it, on every operation, before any store read', async () => {
    const bad = (r: any, parameter: string, what: string) => {
      expectErrorResponse(r, 400, 'invalid_parameter');
      expect(r.body.errors, what).toEqual([expect.objectContaining({ code: 'invalid_parameter', source: { parameter }, detail: expect.stringContaining('control character') })]);
    };
    // As reported: PostgreSQL took the NUL for a bad cursor (400 invalid_cursor), SQLite for an unknown market (404).
    bad(await get(h, '/api/v1/markets/SH%00'), 'market', 'SH NUL');
    bad(await get(h, '/api/v1/markets/%00/trading-days'), 'market', 'NUL trading days');
    expectErrorResponse(await get(h, '/api/v1/markets/SH%00', {}), 401, 'missing_api_key');
    const doc = (await get(h, '/openapi.json', {})).body;
    const fill = (template: string) => template.replace('{instrument_id}', eq).replace('{market}', 'SH').replace('{pool_type}', 'strong').replace('{indicator}', 'ma');
    const families = new Set<string>();
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      if (template.startsWith('/api/v1/system/')) continue;
      for (const op of Object.values<any>(item)) {
        for (const [i, p] of (op.parameters ?? []).entries()) {
          const ctl = ['%00', '%01', '%0A', '%1F'][i % 4];
          if (p.in === 'path') {
            const value = p.name === 'instrument_id' ? `${eq}${ctl}` : p.name === 'market' ? `SH${ctl}` : `${ctl}x`;
            bad(await get(h, fill(template.replace(`{${p.name}}`, value))), p.name, `${op.operationId} ${p.name}`);
          } else if (p.in === 'query') {
            bad(await get(h, `${fill(template)}?${p.name}=2025${ctl}`), p.name, `${op.operationId} ${p.name}`);
          }
        }
        for (const segment of template.split('/')) families.add(segment);
      }
    }
    // Markets, instruments, bars, indicators, pools, fundamentals among them.
    for (const f of ['markets', 'equities', 'bars', 'technical-indicators', 'pools', 'dividends', 'income-statements']) expect([...families], f).toContain(f);
  });

  it('declares 304 on every operation of the OpenAPI document', async () => {
    const doc = (await get(h, '/openapi.json', {})).body;
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) expect(op.responses['304'], op.operationId).toBeDefined();
    }
  });
});

describe('logs', () => {
  it('never log a key sent in the query string', async () => {
    const lines: string[] = [];
    const h = await harness(':memory:', null);
    const app = await buildApp({
      config: { ...loadConfig({}), databaseUrl: ':memory:' }, store: h.store,
      logger: { level: 'info', stream: { write: (s: string) => { lines.push(s); } } },
    });
    try {
      await app.inject({ method: 'GET', url: '/api/v1/markets?api_key=SECRET123&x=1&token=T0K' });
      await app.inject({ method: 'GET', url: '/api/v1/markets?page[size]=1&apikey=SECRET456', headers: { 'x-api-key': h.key } });
      const log = lines.join('');
      expect(log).toContain('/api/v1/markets?api_key=[REDACTED]&x=1&token=[REDACTED]');
      expect(log).toContain('apikey=[REDACTED]');
      for (const secret of ['SECRET123', 'SECRET456', 'T0K', h.key]) expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await h.close();
    }
  });
});
