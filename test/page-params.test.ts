import { FILE_SHAPES } from '../src/http/file-shapes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, harness, STORES, type Harness } from './helpers.js';
import { CursorCodec } from '../src/http/cursor.js';
import { fingerprint } from '../src/http/collection.js';
import { loadConfig } from '../src/app/config.js';

/** Three years of demo data: every paginated operation has a second page at page[size]=1 (dividends, factors, pools too). */
const DEMO = { seed: 7, equities: 40, start: 20230103, end: 20251120, minuteDays: 2, tickDays: 1 };

/** A paginated operation of the OpenAPI document, with a request whose first page of one row has a next cursor. */
interface PagedOp {
  operationId: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  cursor: string;
}

const target = (op: PagedOp, extra: string) => `${op.path}?${[...Object.entries(op.query).map(([k, v]) => `${k}=${v}`), extra].join('&')}`;

/**
 * Every operation of the OpenAPI document with a page[size] parameter, each with path values
 * (enumerated in the document, else taken from the collection that lists them) and required
 * query values (the first of their enumeration) for which page 1 of size 1 has a next cursor.
 */
/** Values of required parameters without an enumeration (a search's text). */
const SAMPLES: Record<string, string> = { q: 's' };

async function pagedOperations(h: Harness, doc: any): Promise<PagedOp[]> {
  const ids = async (path: string) => (await get(h, `${path}?page[size]=1000`)).body.data.map((x: any) => x.id as string);
  const values: Record<string, (tag: string) => Promise<string[]>> = {
    instrument_id: (tag) => ids(`/api/v1/${tag}`),
    market: () => ids('/api/v1/markets'),
    pool_type: () => ids('/api/v1/equities/pools'),
  };
  const ops: PagedOp[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      const parameters: any[] = op.parameters ?? [];
      if (!parameters.some((p) => p.name === 'page[size]')) continue;
      const query = Object.fromEntries(
        parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, p.schema.enum ? p.schema.enum[0] : SAMPLES[p.name]]),
      );
      // Every combination of path values, first values first, until one has a second page.
      let combos: Record<string, string>[] = [{}];
      for (const p of parameters.filter((x) => x.in === 'path')) {
        const vs: string[] = p.schema.enum ?? (await values[p.name](op.tags[0]));
        combos = combos.flatMap((c) => vs.map((v) => ({ ...c, [p.name]: v })));
      }
      let found: PagedOp | null = null;
      for (const params of combos) {
        const path = template.replace(/\{(\w+)\}/g, (_m, name) => params[name]);
        const r = await get(h, target({ path, query } as PagedOp, 'page[size]=1'));
        if (r.body?.meta?.next_cursor) {
          found = { operationId: op.operationId, path, params, query, cursor: r.body.meta.next_cursor };
          break;
        }
      }
      expect(found, `${op.operationId}: no request with a second page to take a cursor from`).not.toBeNull();
      ops.push(found!);
    }
  }
  return ops;
}

describe.each(STORES)('page[size] and page[after] on every paginated operation on $name', ({ url }) => {
  let h: Harness;
  let doc: any;
  let ops: PagedOp[];
  const codec = new CursorCodec(loadConfig({}).cursorSecret);
  beforeAll(async () => {
    h = await harness(await url(), DEMO);
    doc = (await get(h, '/openapi.json', {})).body;
    ops = await pagedOperations(h, doc);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('finds the paginated operations in the OpenAPI document, page[size] an integer 1..1000 on each', () => {
    const lists = Object.values<any>(doc.paths)
      .flatMap((item) => Object.values<any>(item))
      .map((op) => op.operationId)
      .filter((id) => id.startsWith('list') || id.startsWith('search'));
    expect(ops.map((o) => o.operationId).sort()).toEqual(lists.sort());
    // Every collection, and only collections, has a file (http/file-shapes.ts): its count comes from there.
    expect(ops.map((o) => o.operationId).sort()).toEqual(Object.keys(FILE_SHAPES).sort());
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        const size = (op.parameters ?? []).find((p: any) => p.name === 'page[size]');
        if (size) expect(size.schema, op.operationId).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
      }
    }
  });

  it('answers 400 naming page[size] to anything but the decimal digits of an integer 1..1000', async () => {
    const bad = [
      'Infinity',
      '-Infinity',
      '1e309',
      '-1e309',
      '1e3',
      '0x10',
      '+5',
      ' 100',
      '1.0',
      '0',
      '',
      '-1',
      '5 ',
      '1_0',
      'abc',
      '0b1',
      '１０',
    ];
    for (const op of ops) {
      for (const v of bad) {
        const r = await get(h, target(op, `page[size]=${encodeURIComponent(v)}`));
        expect(r.status, `${op.operationId} page[size]=${JSON.stringify(v)}`).toBe(400);
        expect(r.body.errors, `${op.operationId} page[size]=${JSON.stringify(v)}`).toContainEqual(
          expect.objectContaining({ code: 'invalid_parameter', source: { parameter: 'page[size]' } }),
        );
      }
      for (const v of ['1001', '99999', '1' + '0'.repeat(400)]) {
        const r = await get(h, target(op, `page[size]=${v}`));
        expect(r.status, `${op.operationId} ${v.slice(0, 10)}`).toBe(400);
        expect(r.body.errors[0], op.operationId).toMatchObject({ code: 'page_size_too_large', source: { parameter: 'page[size]' } });
      }
      for (const [v, n] of [
        ['1', 1],
        ['1000', null],
        ['007', null],
      ] as const) {
        const r = await get(h, target(op, `page[size]=${v}`));
        expect(r.status, `${op.operationId} page[size]=${v}`).toBe(200);
        if (n !== null) expect(r.body.data).toHaveLength(n);
      }
    }
  });

  it('answers 400 invalid_cursor to a validly signed cursor whose key has the wrong types or count', async () => {
    for (const op of ops) {
      const fp = fingerprint(op.operationId, op.params, op.query);
      // The test signs as the service does: the real cursor comes out of the codec unchanged.
      const key: unknown[] = JSON.parse(Buffer.from(op.cursor.split('.')[0], 'base64url').toString());
      expect(codec.encode(key, fp), op.operationId).toBe(op.cursor);
      const forged: unknown[][] = [[], [...key, key[0]], [...key, 0], [...key, 'x'], [key]];
      if (key.length > 1) forged.push(key.slice(0, -1));
      key.forEach((v, i) => {
        const swap = (w: unknown) => forged.push(key.map((x, j) => (j === i ? w : x)));
        for (const w of [null, true, {}, [v]]) swap(w);
        if (typeof v === 'number') for (const w of [String(v), v + 0.5, -1, 1e300, 2 ** 53]) swap(w);
        else for (const w of [1, 0, '\u0000', 'a\u001fb']) swap(w);
      });
      for (const k of forged) {
        const r = await get(h, target(op, `page[after]=${codec.encode(k, fp)}`));
        expect(r.status, `${op.operationId} ${JSON.stringify(k)}`).toBe(400);
        expect(r.body.errors[0], `${op.operationId} ${JSON.stringify(k)}`).toMatchObject({
          code: 'invalid_cursor',
          source: { parameter: 'page[after]' },
        });
      }
      expect((await get(h, target(op, `page[after]=${op.cursor}`))).status, op.operationId).toBe(200);
    }
  });

  it('rejects a cursor with a character appended, removed or changed anywhere', async () => {
    const op = ops.find((o) => o.operationId === 'listEquityTrades')!;
    const c = op.cursor;
    const other = (ch: string) => (ch === 'A' ? 'B' : 'A');
    const altered = new Set<string>([`${c}A`, `${c}-`, `${c}.`]);
    for (let i = 0; i < c.length; i++) {
      altered.add(c.slice(0, i) + c.slice(i + 1));
      altered.add(c.slice(0, i) + other(c[i]) + c.slice(i + 1));
      altered.add(c.slice(0, i) + 'A' + c.slice(i));
    }
    altered.delete(c);
    for (const bad of altered) {
      const r = await get(h, target(op, `page[after]=${bad}`));
      expect(r.status, bad).toBe(400);
      expect(r.body.errors[0].code, bad).toBe('invalid_cursor');
    }
    expect((await get(h, target(op, `page[after]=${c}`))).status).toBe(200);
  });
});
