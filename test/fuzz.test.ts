/**
 * Property-based fuzzing of every operation of the OpenAPI document (fast-check): requests
 * built from each operation's documented parameters, with valid values (enumerations, known
 * ids, dates of the demo, cursors the service issued) and hostile ones (numbers as strings,
 * huge, negative, unicode, control characters, empty, long ids, repeated and unknown
 * parameters, altered cursors, no key or a wrong one). For every response: no 5xx, a status the
 * operation documents, and a body valid against the schema it documents for that status
 * (ajv over the document's components). Bounded: RUNS requests per operation and store.
 * Valid requests lean to the last days (minute bars, quotes and trades) and to large pages, so
 * that bodies longer than the renderer's 256 KiB slab are among them (counted: some must be);
 * test/fuzz-sequence.test.ts walks a long sequence of such requests on one server.
 * Replay a failure with the FC_OP, FC_SEED and FC_PATH it prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { get, harness, STORES, type Harness } from './helpers.js';
import { DATE_TIME_PATTERN } from '../src/lib/time.js';

/** Requests per operation and store (38 operations: about 7,600 a store, some 5-10 s): the budget is this count. */
const RUNS = Number(process.env.FC_RUNS ?? 200);
/**
 * The time the count may take, a bound and no measure: OPERATIONS (checked) × RUNS requests at
 * 50 ms each, above twice the slowest seen (a 2-core machine at load 15: PostgreSQL 20 ms a request,
 * SQLite 9 ms). A timeout mid-run used to close the store under a request in flight: that was the 500.
 */
const OPERATIONS = 51;
/** Values of required parameters without an enumeration (a search's text). */
const REQUIRED_SAMPLES: Record<string, string> = { q: 's' };
const TIMEOUT_MS = OPERATIONS * RUNS * 50;
/**
 * Demo of a few months: every collection has rows, minute bars and ticks on the last three days
 * (a page of a thousand quotes over them is about 440 KB).
 */
const DEMO = { seed: 11, equities: 20, start: 20250601, end: 20251120, minuteDays: 3, tickDays: 3 };
const FIRST = '2025-06-03',
  LAST = '2025-11-20';
/** The days with minute bars, quotes and trades. */
const RECENT = ['2025-11-18', '2025-11-19', '2025-11-20'];
/** The renderer's slab (src/render/json-bytes.ts): bodies past it are counted. */
const SLAB = 256 * 1024;

interface Param {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: { type?: string; format?: string; enum?: string[]; maxLength?: number; pattern?: string };
}
interface Operation {
  operationId: string;
  path: string;
  tag: string;
  parameters: Param[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

/** Values no parameter should choke on. */
const HOSTILE = [
  '',
  ' ',
  '0',
  '-1',
  '1.0',
  '1e3',
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '0x10',
  '+5',
  ' 100',
  '99999999999999999999999',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '%',
  '%00',
  '%ZZ',
  '%C0%AF',
  '..',
  '../..',
  '/',
  '\\',
  "'",
  '"',
  '<script>',
  'é',
  '浦发银行',
  '😀',
  '\u202e',
  '\ufeff',
  'ｓｈ',
  '１２３',
  '2025-02-30',
  '2025-13-01',
  '0000-00-00',
  '9999-12-31',
  '2025-07-01T25:00:00',
  '2025-07-01T10:00:00Z',
  '2025-07-01T10:00:00.123456789+08:00',
  '2025-07-01T10:00:00+24:00',
  '20250701',
  '1751335200',
];

const encode = (s: string) => encodeURIComponent(s);
/** Text put into the target as it is: broken percent-encoding, separators. */
const RAW = ['%ZZ', '%', '%0', '%00', '%C0%AF', '%E4%B8', '%FF%FE', 'a+b', '&', '=', '==', '[', ']', '%5B%5D', '%2F', ';'];

/** A string of some length made of one of a few alphabets (ASCII, CJK, astral, control characters). */
const noise = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 1, max: 12 }).map((k) => 'x'.repeat(k * 300)),
  fc.constantFrom(...HOSTILE),
);

/** A day of the demo, one in three among the last days (where intraday data is). */
const date = fc.oneof(
  {
    arbitrary: fc
      .date({ min: new Date(`${FIRST}T00:00:00Z`), max: new Date(`${LAST}T00:00:00Z`), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(...RECENT), weight: 1 },
);
/** A valid page size: any, large, or written with leading zeros. */
const pageSize = fc.oneof(
  fc.integer({ min: 1, max: 1000 }).map(String),
  fc.integer({ min: 900, max: 1000 }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 1000 })).map(([z, n]) => `${'0'.repeat(z)}${n}`),
);
const dateTime = fc
  .tuple(date, fc.integer({ min: 9 * 60, max: 15 * 60 }), fc.constantFrom('+08:00', 'Z', ''))
  .map(([d, m, z]) => `${d}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00${z}`);

describe.each(STORES)('fuzzing every operation of the OpenAPI document on $name', ({ url }) => {
  let h: Harness;
  let ops: Operation[];
  let ajv: Ajv2020;
  /** Known path values by parameter (instrument ids by the operation's tag). */
  const known = new Map<string, string[]>();
  /** A cursor each paginated operation issued, for its valid requests (and others' hostile ones). */
  const cursors = new Map<string, string>();
  const validators = new Map<string, ValidateFunction>();
  /** Responses by status (printed: how much of the fuzzing got past validation). */
  const statuses = new Map<number, number>();
  /** JSON bodies longer than the renderer's slab. */
  let beyondSlab = 0;

  beforeAll(async () => {
    h = await harness(await url(), DEMO);
    const doc = (await get(h, '/openapi.json', {})).body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    ops = Object.entries<Record<string, any>>(doc.paths)
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => {
          expect(method).toBe('get');
          return { operationId: op.operationId, path, tag: op.tags?.[0] ?? '', parameters: op.parameters ?? [], responses: op.responses };
        }),
      )
      // An event stream answers a valid request with a response that does not end (inject would wait for it):
      // test/events.test.ts holds it to its documented behaviour, over a real connection.
      .filter((op) => op.operationId !== 'streamEvents');
    const ids = async (path: string) => (await get(h, `${path}?page[size]=1000`)).body.data.map((x: { id: string }) => x.id);
    for (const tag of ['equities', 'indices', 'funds']) known.set(`instrument_id:${tag}`, (await ids(`/api/v1/${tag}`)).slice(0, 5));
    known.set('market', await ids('/api/v1/markets'));
    const last = await get(h, '/api/v1/equities/000001.SZ/bars?interval=1d&order=desc&page[size]=3');
    expect(last.body.data.map((b: { trade_date: string }) => b.trade_date).reverse(), 'RECENT: the last days').toEqual(RECENT);
    known.set('pool_type', await ids('/api/v1/equities/pools'));
    for (const op of ops) {
      if (!op.parameters.some((p) => p.name === 'page[after]')) continue;
      const r = await get(h, target(op, validPath(op), validRequired(op), 'page[size]=1'));
      if (r.body?.meta?.next_cursor) cursors.set(op.operationId, r.body.meta.next_cursor);
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const pathValues = (op: Operation, p: Param) =>
    p.schema.enum ?? known.get(p.name === 'instrument_id' ? `instrument_id:${op.tag}` : p.name) ?? [];
  const validPath = (op: Operation) =>
    Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, encode(pathValues(op, p)[0])]));
  const validRequired = (op: Operation) =>
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${encode(p.name)}=${encode(p.schema.enum ? p.schema.enum[0] : (REQUIRED_SAMPLES[p.name] ?? 'x'))}`);
  /** The target of `op` with path values (percent-encoded already) and query parts. */
  function target(op: Operation, path: Record<string, string>, query: string[], ...more: string[]): string {
    const q = [...query, ...more];
    return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => path[name]) + (q.length ? `?${q.join('&')}` : '');
  }

  /** A parameter that takes a date or a date-time (from/to of instants: a pattern, params.ts dateTimeQuery). */
  const isDateTime = (p: Param) => p.schema.format === 'date-time' || p.schema.pattern === DATE_TIME_PATTERN;

  /** A value a query parameter's schema allows, or null. */
  function validValue(p: Param): fc.Arbitrary<string> | null {
    if (p.schema.enum) return fc.constantFrom(...p.schema.enum);
    if (p.schema.format === 'date') return date;
    if (isDateTime(p)) return fc.oneof(date, dateTime);
    if (p.name === 'page[size]') return pageSize;
    if (p.name === 'code') return fc.constantFrom('600000', '000001');
    if (p.name === 'name') return fc.constantFrom('银行', 'bank', 'A');
    return null;
  }

  /**
   * A request of `op` with valid values only: path values known, each optional parameter absent
   * or valid, the key. Not page[after] (a cursor is valid only with the query that issued it:
   * test/page-params.test.ts walks them), and `date` or a window from <= to, not both.
   */
  function validRequest(op: Operation): fc.Arbitrary<{ url: string; headers: Record<string, string> }> {
    const path = fc.record(
      Object.fromEntries(
        op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, fc.constantFrom(...pathValues(op, p)).map(encode)]),
      ),
    );
    const params = op.parameters.filter((p) => p.in === 'query' && p.name !== 'page[after]');
    const query = fc
      .tuple(
        ...params.map((p) => {
          const v = validValue(p);
          if (!v) return fc.constant(undefined);
          return p.required ? v : fc.option(v, { nil: undefined, freq: 2 });
        }),
      )
      .map((values) => {
        const q = new Map(params.map((p, i) => [p.name, values[i]]));
        if (q.get('date') !== undefined) {
          q.delete('from');
          q.delete('to');
        }
        const [from, to] = [q.get('from'), q.get('to')];
        if (from !== undefined && to !== undefined && from.slice(0, 10) > to.slice(0, 10)) {
          q.set('from', to);
          q.set('to', from);
        }
        return [...q].filter(([, v]) => v !== undefined).map(([k, v]) => `${encode(k)}=${encode(v!)}`);
      });
    return fc.tuple(path, query).map(([pv, q]) => ({ url: target(op, pv, q), headers: { 'x-api-key': h.key } }));
  }

  /** A value for a query parameter: valid for its schema, or hostile. */
  function queryValue(op: Operation, p: Param): fc.Arbitrary<string> {
    const valid: fc.Arbitrary<string>[] = [];
    if (p.schema.enum) valid.push(fc.constantFrom(...p.schema.enum));
    else if (p.schema.format === 'date') valid.push(date);
    else if (isDateTime(p)) valid.push(date, dateTime);
    else if (p.name === 'page[size]') valid.push(pageSize, fc.integer({ min: -5, max: 5000 }).map(String));
    else if (p.name === 'page[after]') {
      const own = cursors.get(op.operationId);
      const any = [...cursors.values()];
      if (own)
        valid.push(
          fc.constant(own),
          fc.constant(`${own}x`),
          fc.constant(own.slice(0, -1)),
          fc.constant(own.slice(1)),
          fc.nat(own.length - 1).map((i) => own.slice(0, i) + (own[i] === 'A' ? 'B' : 'A') + own.slice(i + 1)),
        );
      if (any.length) valid.push(fc.constantFrom(...any));
      valid.push(fc.base64String({ maxLength: 120 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')));
    } else if (p.name === 'code') valid.push(fc.constantFrom('600000', '000001', '1'));
    else if (p.name === 'name') valid.push(fc.constantFrom('银行', 'bank', 'A'));
    return fc.oneof({ arbitrary: fc.oneof(...(valid.length ? valid : [fc.constant('1')])), weight: 3 }, { arbitrary: noise, weight: 2 });
  }

  /** A request of `op`: valid (validRequest) or not (hostileRequest), half and half. */
  const request = (op: Operation) => fc.oneof(validRequest(op), hostileRequest(op));

  /** A request of `op`: path values, query parameters (each absent, once or twice), unknown ones, a key or not. */
  function hostileRequest(op: Operation): fc.Arbitrary<{ url: string; headers: Record<string, string> }> {
    const path = fc.record(
      Object.fromEntries(
        op.parameters
          .filter((p) => p.in === 'path')
          .map((p) => {
            const vs = pathValues(op, p);
            return [
              p.name,
              fc.oneof(
                { arbitrary: fc.constantFrom(...vs).map(encode), weight: 4 },
                // Not `.` or `..`: URL parsing (the client's, inject's) removes them as dot segments, another target.
                { arbitrary: noise.filter((s) => s !== '' && s !== '.' && s !== '..').map(encode), weight: 1 },
                { arbitrary: fc.constantFrom(...RAW.filter((r) => r !== '%2F')), weight: 1 },
              ),
            ];
          }),
      ),
    );
    const query = fc
      .tuple(
        ...op.parameters
          .filter((p) => p.in === 'query')
          .map((p) =>
            fc.oneof(
              { arbitrary: fc.constant<string[]>([]), weight: p.required ? 1 : 3 },
              { arbitrary: queryValue(op, p).map((v) => [`${encode(p.name)}=${encode(v)}`]), weight: 4 },
              {
                arbitrary: fc
                  .tuple(queryValue(op, p), queryValue(op, p))
                  .map(([a, b]) => [`${encode(p.name)}=${encode(a)}`, `${encode(p.name)}=${encode(b)}`]),
                weight: 1,
              },
              { arbitrary: fc.constant([encode(p.name)]), weight: 1 },
              { arbitrary: fc.constantFrom(...RAW).map((v) => [`${encode(p.name)}=${v}`]), weight: 1 },
            ),
          ),
      )
      .map((parts) => parts.flat());
    const unknown = fc.oneof(
      { arbitrary: fc.constant<string[]>([]), weight: 6 },
      {
        arbitrary: fc
          .tuple(fc.constantFrom('foo', 'page[number]', 'page', 'api_key', '_', 'interval[]', 'FROM'), noise)
          .map(([k, v]) => [`${encode(k)}=${encode(v)}`]),
        weight: 1,
      },
    );
    const key = fc.oneof(
      { arbitrary: fc.constant({ 'x-api-key': h.key }), weight: 20 },
      { arbitrary: fc.constant({}), weight: 1 },
      { arbitrary: fc.constant({ 'x-api-key': `${h.key}x` }), weight: 1 },
    );
    const conditional = fc.oneof(
      { arbitrary: fc.constant({}), weight: 8 },
      { arbitrary: fc.constantFrom('*', '"x"', 'W/"x"', '', ',', '"', '*, "x"').map((t) => ({ 'if-none-match': t })), weight: 1 },
    );
    const headers = fc.tuple(key, conditional).map(([k, c]): Record<string, string> => ({ ...k, ...c }));
    return fc.tuple(path, query, unknown, headers).map(([pv, q, u, hd]) => ({ url: target(op, pv, [...q, ...u]), headers: hd }));
  }

  function validator(op: Operation, status: string, schema: unknown): ValidateFunction {
    const key = `${op.operationId} ${status}`;
    let v = validators.get(key);
    if (!v) {
      v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')));
      validators.set(key, v);
    }
    return v;
  }

  /** What is wrong with the response to `req`, or null. */
  async function problem(op: Operation, req: { url: string; headers: Record<string, string> }): Promise<string | null> {
    const r = await h.app.inject({ method: 'GET', url: req.url, headers: req.headers });
    statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
    if (r.rawPayload.length > SLAB) beyondSlab++;
    if (r.statusCode >= 500) return `${r.statusCode}: ${r.payload.slice(0, 300)}`;
    const doc = op.responses[String(r.statusCode)];
    if (!doc) return `status ${r.statusCode} is not documented (${Object.keys(op.responses).join(', ')}): ${r.payload.slice(0, 300)}`;
    const schema = doc.content?.['application/json']?.schema;
    if (!schema) return r.payload === '' ? null : `${r.statusCode} documents no body, got ${r.payload.slice(0, 100)}`;
    let body: unknown;
    try {
      body = JSON.parse(r.payload);
    } catch {
      return `${r.statusCode}: not JSON: ${r.payload.slice(0, 200)}`;
    }
    const v = validator(op, String(r.statusCode), schema);
    return v(body) ? null : `${r.statusCode} body not valid: ${ajv.errorsText(v.errors)}: ${r.payload.slice(0, 300)}`;
  }

  it(
    'answers every request with a documented status and a body valid against its documented schema, never 5xx',
    async () => {
      expect(ops.length).toBeGreaterThan(30);
      expect(ops.length, 'OPERATIONS bounds the time budget').toBeLessThanOrEqual(OPERATIONS);
      const failures: string[] = [];
      for (const op of ops.filter((o) => process.env.FC_OP === undefined || o.operationId === process.env.FC_OP)) {
        const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
        const out = await fc.check(
          fc.asyncProperty(request(op), async (req) => {
            const p = await problem(op, req);
            if (p)
              throw new Error(
                `${req.url}${req.headers['x-api-key'] === h.key ? '' : ' (key: ' + (req.headers['x-api-key'] ?? 'none') + ')'}: ${p}`,
              );
          }),
          { numRuns: RUNS, seed, path: process.env.FC_PATH, endOnFailure: false },
        );
        if (out.failed)
          failures.push(
            `${op.operationId} (FC_OP=${op.operationId} FC_SEED=${out.seed} FC_PATH=${out.counterexamplePath}): ${(out.errorInstance as Error)?.message}`,
          );
      }
      console.log(
        `fuzz: ${[...statuses]
          .sort((x, y) => x[0] - y[0])
          .map(([k, n]) => `${n} × ${k}`)
          .join(', ')}; ${beyondSlab} bodies longer than the renderer's slab`,
      );
      expect(failures).toEqual([]);
      if (process.env.FC_OP === undefined) expect(beyondSlab, 'bodies longer than the slab were asked for').toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );

  it('documents 503 on every data operation (the store not answering; data changing faster than a response is computed)', () => {
    const data = ops.filter((o) => !o.path.startsWith('/api/v1/system/'));
    expect(data.length).toBeGreaterThan(30);
    expect(data.filter((o) => !o.responses['503']).map((o) => o.operationId)).toEqual([]);
  });

  it('has validators that refuse what the documents do not allow (the check above can fail)', async () => {
    const op = ops.find((o) => o.operationId === 'listEquityBars')!;
    const r = await get(h, target(op, validPath(op), validRequired(op), 'page[size]=2'));
    expect(r.status).toBe(200);
    const v = validator(op, '200', op.responses['200'].content!['application/json'].schema);
    expect(v(r.body)).toBe(true);
    for (const bad of [
      { ...r.body, extra: 1 },
      { ...r.body, data: [{ ...r.body.data[0], open: 1 }] },
      { ...r.body, meta: {} },
    ])
      expect(v(bad)).toBe(false);
  });
});
