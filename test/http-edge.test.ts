import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { ERROR_CODES } from '../src/lib/errors.js';
import type { App } from '../src/http/services.js';
import { get, harness, STORES, type Harness } from './helpers.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * Writes `request` (whole, or only its start: a client that stops half-way through its headers)
 * on a new connection and reads until the server closes it, bounded in time: the responses in
 * the order they came.
 */
function exchange(port: number, request: string | Buffer, limitMs = 8000): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${limitMs} ms`));
    }, limitMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {
      /* the server may reset after answering */
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponses(Buffer.concat(chunks).toString('latin1')));
      } catch (e) {
        reject(e);
      }
    });
    socket.write(request);
  });
}

/** HTTP/1.1 responses one after the other (bodies by content-length or chunked; none on 1xx). */
function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const split = text.indexOf('\r\n\r\n', at);
    if (split < 0) throw new Error(`no HTTP response: ${JSON.stringify(text.slice(at, at + 200))}`);
    const [line, ...lines] = text.slice(at, split).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const status = Number(line.split(' ')[1]);
    at = split + 4;
    let raw = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const eol = text.indexOf('\r\n', at);
        const size = parseInt(text.slice(at, eol), 16);
        at = eol + 2 + size + 2;
        if (size === 0) break;
        raw += text.slice(eol + 2, eol + 2 + size);
      }
    } else if (status >= 200) {
      const length = Number(headers['content-length'] ?? text.length - at);
      raw = text.slice(at, at + length);
      at += length;
    }
    let body: any = null;
    const utf8 = Buffer.from(raw, 'latin1').toString('utf8');
    try {
      body = JSON.parse(utf8);
    } catch {
      body = utf8;
    }
    out.push({ status, headers, body });
  }
  return out;
}

/** The one response to `request` on a new connection (see `exchange`). */
async function raw(port: number, request: string | Buffer, limitMs = 8000): Promise<RawResponse> {
  const responses = await exchange(port, request, limitMs);
  expect(responses.map((r) => r.status)).toHaveLength(1);
  return responses[0];
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
  // Never read as another type than it says (a browser sniffing an error for HTML or script).
  expect(r.headers['x-content-type-options']).toBe('nosniff');
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
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

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

  it('answers every request pipelined before one Node refuses, in order, then the 400, then closes', async () => {
    const version = (await raw(port, 'GET /api/v1/system/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).body;
    const markets = (await raw(port, `GET /api/v1/markets HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nConnection: close\r\n\r\n`)).body;
    expect(version).toHaveProperty('name', 'market-data-service');
    expect(markets).toHaveProperty('data');
    const responses = await exchange(
      port,
      'GET /api/v1/system/version HTTP/1.1\r\nHost: x\r\n\r\n' +
        `GET /api/v1/markets HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\n\r\nHELLO\r\n\r\n`,
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 400]);
    expect(responses[0].body).toEqual(version);
    expect(responses[1].body).toEqual(markets);
    expectErrorResponse(responses[2], 400, 'invalid_parameter');
    expect(responses[2].headers.connection).toBe('close');
    expect(new Set(responses.map((r) => r.headers['x-request-id'])).size).toBe(3);
    // The same before a request line of an unknown version (505) and before headers over 16 KiB (431).
    const [ok, refused] = await exchange(port, 'GET /api/v1/system/version HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/3.0\r\nHost: x\r\n\r\n');
    expect(ok.body).toEqual(version);
    expectErrorResponse(refused, 505, 'http_version_not_supported');
    const [ok2, big] = await exchange(
      port,
      `GET /api/v1/system/version HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    );
    expect(ok2.body).toEqual(version);
    expectErrorResponse(big, 431, 'headers_too_large');
  });

  it('answers a request without Host, with two Host lines or an invalid Host with 400 as ErrorResponse (RFC 9112 §3.2)', async () => {
    const health = 'GET /api/v1/system/health';
    expectErrorResponse(await raw(port, `${health} HTTP/1.1\r\n\r\n`), 400, 'invalid_parameter');
    expectErrorResponse(await raw(port, `${health} HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n`), 400, 'invalid_parameter');
    expectErrorResponse(await raw(port, `${health} HTTP/1.1\r\nHost: x\r\nhost: x\r\nConnection: close\r\n\r\n`), 400, 'invalid_parameter');
    expectErrorResponse(await raw(port, `${health} HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`), 400, 'invalid_parameter');
    // The key is checked first on protected paths, as for every refusal.
    expectErrorResponse(
      await raw(port, 'GET /api/v1/markets HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n'),
      401,
      'missing_api_key',
    );
    // HTTP/1.0 needs no Host; a host with a port, an IPv6 literal: served.
    expect((await raw(port, `${health} HTTP/1.0\r\n\r\n`)).status).toBe(200);
    expect((await raw(port, `${health} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n`)).status).toBe(200);
    expect((await raw(port, `${health} HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n`)).status).toBe(200);
  });

  it('answers an Expect other than 100-continue with 417, and a version other than 1.x with 505, as ErrorResponse', async () => {
    const health = 'GET /api/v1/system/health';
    expectErrorResponse(
      await raw(port, `${health} HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n`),
      417,
      'expectation_failed',
    );
    const cont = await exchange(port, `${health} HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    expect(cont.map((r) => r.status)).toEqual([100, 200]);
    for (const version of ['HTTP/2.0', 'HTTP/0.9', 'HTTP/3.0', 'HTTP/1.2']) {
      expectErrorResponse(
        await raw(port, `${health} ${version}\r\nHost: x\r\nConnection: close\r\n\r\n`),
        505,
        'http_version_not_supported',
      );
    }
  });

  it('answers a request line that does not end in CRLF right after HTTP/1.x with 400, not 505 (RFC 9112 §2.2, §3)', async () => {
    for (const line of [
      'HTTP/1.1\nHost: x\r\n\r\n',
      'HTTP/1.1\nHost: x\n\n',
      'HTTP/1.0\n\n',
      'HTTP/1.1x\r\nHost: x\r\n\r\n',
      'HTTP/1.1 \r\nHost: x\r\n\r\n',
    ]) {
      const r = await raw(port, `GET /api/v1/system/health ${line}`);
      expectErrorResponse(r, 400, 'invalid_parameter');
      expect(r.body.errors[0].detail, JSON.stringify(line)).toContain('CRLF right after its HTTP version');
      expect(r.headers.connection).toBe('close');
    }
    // After a request answered on the same connection, in order.
    const [ok, refused] = await exchange(
      port,
      'GET /api/v1/system/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/system/health HTTP/1.1\nHost: x\r\n\r\n',
    );
    expect(ok.body).toEqual({ status: 'ok' });
    expectErrorResponse(refused, 400, 'invalid_parameter');
  });

  it('answers a Transfer-Encoding whose last coding is not chunked, or any in HTTP/1.0, with 400 and closes (RFC 9112 §6.1, §6.3)', async () => {
    const health = 'GET /api/v1/system/health';
    for (const te of ['gzip', 'identity', 'chunked, gzip', 'gzip, chunked, identity', 'chunked;x=1', 'xchunked']) {
      // A request pipelined after it is never read: the connection is closed after the 400.
      const responses = await exchange(
        port,
        `${health} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${te}\r\n\r\n${health} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(
        responses.map((r) => r.status),
        te,
      ).toEqual([400]);
      expectErrorResponse(responses[0], 400, 'invalid_parameter');
      expect(responses[0].body.errors[0].detail).toContain('Transfer-Encoding');
      expect(responses[0].headers.connection).toBe('close');
    }
    const lines = await raw(port, `${health} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n`);
    expectErrorResponse(lines, 400, 'invalid_parameter');
    const old = await raw(port, `${health} HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
    expectErrorResponse(old, 400, 'invalid_parameter');
    expect(old.headers.connection).toBe('close');
    // Chunked last: served, whatever the case, the list's spacing or the lines it takes.
    for (const te of ['chunked', 'Chunked', 'gzip, chunked', 'gzip,chunked', 'gzip\r\nTransfer-Encoding: chunked']) {
      const r = await raw(port, `${health} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${te}\r\nConnection: close\r\n\r\n0\r\n\r\n`);
      expect(r.status, te).toBe(200);
      expect(r.body).toEqual({ status: 'ok' });
    }
  });

  it('answers CONNECT, which Node hands to no route, with 405 as ErrorResponse', async () => {
    const r = await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectErrorResponse(r, 405, 'method_not_allowed');
    expect(r.headers.allow).toBe('GET, HEAD');
  });

  it("never serves a file outside the docs' static folder: 404 as ErrorResponse, status line and body agreeing", async () => {
    const asset = await raw(port, 'GET /docs/static/swagger-initializer.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(asset.status).toBe(200);
    for (const path of [
      '../../package.json',
      '%2e%2e/%2e%2e/package.json',
      '%2e%2e%2f%2e%2e%2fpackage.json',
      '..%2f..%2fpackage.json',
      '..%5c..%5cpackage.json',
      '%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/etc/passwd',
      './../../package.json',
      '..',
    ]) {
      const r = await raw(port, `GET /docs/static/${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expectErrorResponse(r, 404, 'not_found');
      expect(JSON.stringify(r.body), path).not.toContain('market-data-service');
    }
  });

  it("answers the static files' conditional and range refusals with status line and body agreeing", async () => {
    const file = 'GET /docs/static/swagger-ui.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n';
    expectErrorResponse(await raw(port, `${file}If-Match: "other"\r\n\r\n`), 412, 'precondition_failed');
    expectErrorResponse(await raw(port, `${file}Range: bytes=999999999-\r\n\r\n`), 416, 'range_not_satisfiable');
  });
});

describe.each(STORES)('edge requests on $name', ({ url }) => {
  let h: Harness;
  let eq: string;
  beforeAll(async () => {
    h = await harness(await url());
    eq = (await get(h, '/api/v1/equities?page[size]=1')).body.data[0].id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says X-Content-Type-Options: nosniff on every answer: data, files, probes, the OpenAPI document, errors', async () => {
    const key = { 'x-api-key': h.key };
    for (const [url, headers, status] of [
      [`/api/v1/equities/${eq}/bars?interval=1d&page[size]=2`, key, 200],
      [`/api/v1/equities/${eq}`, key, 200],
      [`/api/v1/equities/${eq}/bars?interval=1d&page[size]=2`, { ...key, accept: 'text/csv' }, 200],
      ['/api/v1/system/health', {}, 200],
      ['/api/v1/system/readiness', {}, 200],
      ['/openapi.json', {}, 200],
      ['/api/v1/markets', {}, 401],
      ['/api/v1/nothing', key, 404],
      [`/api/v1/equities/${eq}/bars?interval=2d`, key, 400],
    ] as const) {
      const r = await h.app.inject({ method: 'GET', url, headers });
      expect(r.statusCode, url).toBe(status);
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

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
      h.app
        .inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: '{"broken' })
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
        const path = template
          .replace('{instrument_id}', eq)
          .replace('{market}', 'SH')
          .replace('{pool_type}', 'strong')
          .replace('{indicator}', 'ma');
        for (const p of (op.parameters ?? []).filter((x: any) => x.in === 'query')) {
          expect(p.schema.maxLength ?? p.schema.enum ?? p.schema.maximum, `${op.operationId} ${p.name} has no limit`).toBeDefined();
          const r = await get(h, `${path}?${p.name}=${big}`);
          expect(r.status, `${op.operationId} ${p.name}`).toBe(400);
          expect(
            r.body.errors.map((e: any) => e.source?.parameter),
            `${op.operationId} ${p.name}`,
          ).toContain(p.name);
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
      expect(r.body.errors, what).toEqual([
        expect.objectContaining({ code: 'invalid_parameter', source: { parameter }, detail: expect.stringContaining('control character') }),
      ]);
    };
    // As reported: PostgreSQL took the NUL for a bad cursor (400 invalid_cursor), SQLite for an unknown market (404).
    bad(await get(h, '/api/v1/markets/SH%00'), 'market', 'SH NUL');
    bad(await get(h, '/api/v1/markets/%00/trading-days'), 'market', 'NUL trading days');
    expectErrorResponse(await get(h, '/api/v1/markets/SH%00', {}), 401, 'missing_api_key');
    const doc = (await get(h, '/openapi.json', {})).body;
    const fill = (template: string) =>
      template.replace('{instrument_id}', eq).replace('{market}', 'SH').replace('{pool_type}', 'strong').replace('{indicator}', 'ma');
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
    for (const f of ['markets', 'equities', 'bars', 'technical-indicators', 'pools', 'dividends', 'income-statements'])
      expect([...families], f).toContain(f);
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
      config: { ...loadConfig({}), databaseUrl: ':memory:' },
      store: h.store,
      logger: {
        level: 'info',
        stream: {
          write: (s: string) => {
            lines.push(s);
          },
        },
      },
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
