/**
 * Collections as Apache Arrow streams (docs/api.md, "Arrow"): every collection operation of the
 * OpenAPI document is asked for `application/vnd.apache.arrow.stream`, the stream read back
 * with apache-arrow's tableFromIPC, and each value compared with the JSON answer's (decimals as
 * exact unscaled integers, dates, times with their zone, counts as int64); a market's day as one
 * stream; the Link, ETag, Vary and error rules of the other files. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC, Type, type Field, type Table } from 'apache-arrow';
import { Type as TB } from '@sinclair/typebox';
import { get, harness, STORES, walk, type Harness } from './helpers.js';
import { arrowFields } from '../src/http/arrow-shape.js';
import { arrowStream } from '../src/render/arrow.js';

const ARROW = 'application/vnd.apache.arrow.stream';

/** `s`, a decimal string, as an integer scaled by 10^scale (independent of the server's parser). */
function unscaledOf(s: string, scale: number): bigint {
  const [int, frac = ''] = s.replace('-', '').split('.');
  expect(frac.length, s).toBeLessThanOrEqual(scale);
  const v = BigInt(int + frac.padEnd(scale, '0'));
  return s.startsWith('-') ? -v : v;
}

/** A record's fields flat, as the Arrow columns name them: `parent.child`; arrays kept whole. */
function flat(o: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o).flatMap(([k, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(flat(v as Record<string, unknown>, `${prefix}${k}.`))
        : [[`${prefix}${k}`, v]],
    ),
  );
}

/** Expects the Arrow value `got` of `field` to be the JSON value `want`, by the field's type. */
function expectValue(field: Field, got: unknown, want: unknown, at: string): void {
  if (want === null || want === undefined) {
    expect(got, at).toBeNull();
    expect(field.nullable, `${at}: a null in a column that is not nullable`).toBe(true);
    return;
  }
  const t = field.type;
  switch (t.typeId) {
    case Type.Decimal:
      expect(t.bitWidth, at).toBe(128);
      expect(BigInt(String(got)), at).toBe(unscaledOf(want as string, t.scale));
      break;
    case Type.Date:
      expect(new Date(got as number).toISOString().slice(0, 10), at).toBe(want);
      break;
    case Type.Timestamp:
      expect(t.timezone, at).toBe('Asia/Shanghai');
      expect(got, at).toBe(Date.parse(want as string));
      break;
    case Type.Int:
      expect(t.bitWidth, at).toBe(64);
      expect(got, at).toBe(BigInt(want as number));
      break;
    case Type.Bool:
      expect(got, at).toBe(want);
      break;
    case Type.Utf8:
      if (typeof want === 'object') expect(JSON.parse(got as string), at).toEqual(want);
      else expect(got, at).toBe(want);
      break;
    default:
      throw new Error(`${at}: unexpected Arrow type ${String(t)}`);
  }
}

/** Expects `table` to hold the JSON `records`, row by row, in the records' fields (flat) and order. */
function expectSame(table: Table, records: Record<string, unknown>[], what: string): void {
  expect(table.numRows, what).toBe(records.length);
  const fields = table.schema.fields;
  if (records.length > 0)
    expect(
      fields.map((f) => f.name).filter((n) => !n.startsWith('values.')),
      what,
    ).toEqual(Object.keys(flat(records[0])).filter((n) => !n.startsWith('values.')));
  const columns = fields.map((f) => table.getChild(f.name)!);
  records.forEach((r, i) => {
    const o = flat(r);
    fields.forEach((f, c) => expectValue(f, columns[c].get(i), o[f.name], `${what} row ${i} ${f.name}`));
  });
}

describe.each(STORES)('Arrow answers on $name', ({ url }) => {
  let h: Harness;
  let doc: any;
  const arrow = (path: string, headers: Record<string, string> = {}) =>
    h.app.inject({ url: path, headers: { 'x-api-key': h.key, accept: ARROW, ...headers } });
  beforeAll(async () => {
    h = await harness(await url());
    doc = (await get(h, '/openapi.json', {})).body;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** Every collection operation with a URL of its example path values and required parameters. */
  const collections = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.values<any>(item)
        .filter((op) => (op.parameters ?? []).some((p: any) => p.name === 'page[after]'))
        .map((op) => {
          const example = (n: string) => op.parameters.find((p: any) => p.name === n).example;
          const query = op.parameters
            .filter((p: any) => p.in === 'query' && p.required)
            .map((p: any) => `${p.name}=${p.example}`)
            .join('&');
          return { op, url: path.replace(/\{(\w+)\}/g, (_, n: string) => example(n)) + (query ? `?${query}` : '') };
        }),
    );

  it("answers every collection operation's page as an Arrow stream of the JSON page's records, typed, with its Link", async () => {
    let withRows = 0;
    const ops = collections();
    expect(ops.length).toBeGreaterThan(35);
    const equities = (await walk(h, '/api/v1/equities', 1000)).map((e) => e.id as string);
    for (const { op, url: u } of ops) {
      let path = `${u}${u.includes('?') ? '&' : '?'}page[size]=60`;
      let json = await get(h, path);
      // An example equity this demo lacks, or one without such records: the first of the demo's that has some.
      const example = /\/equities\/(\d{6}\.\w\w)\//.exec(path)?.[1];
      for (const id of example && (json.status === 404 || json.body.data.length === 0) ? equities : []) {
        json = await get(h, path.replace(example!, id));
        if (json.status === 200 && json.body.data.length > 0) {
          path = path.replace(example!, id);
          break;
        }
      }
      expect(json.status, `${op.operationId} ${path}`).toBe(200);
      const r = await arrow(path);
      expect(r.statusCode, `${op.operationId}: ${r.body}`).toBe(200);
      expect(r.headers['content-type'], op.operationId).toBe(ARROW);
      expect(r.headers.vary, op.operationId).toContain('Accept');
      expect(r.headers.link, op.operationId).toBe(json.body.links.next === null ? undefined : `<${json.body.links.next}>; rel="next"`);
      const table = tableFromIPC(r.rawPayload);
      expectSame(table, json.body.data, op.operationId);
      if (json.body.data.length > 0) withRows++;
    }
    // The demo fills nearly every collection (a pool of the latest day may be empty).
    expect(withRows).toBeGreaterThanOrEqual(ops.length - 3);
  }, 120_000);

  it('types columns by the declarations: prices decimal128 of scale 3, money 2, dates date32, times timestamp[s, Asia/Shanghai], counts int64', async () => {
    const t = tableFromIPC((await arrow('/api/v1/equities/600519.SH/bars?interval=5m&page[size]=5')).rawPayload);
    const type = (n: string) => t.schema.fields.find((f) => f.name === n)!;
    expect(String(type('close').type)).toBe('Decimal[38e+3]');
    expect(type('close').nullable).toBe(false);
    expect(String(type('amount').type)).toBe('Decimal[38e+2]');
    expect(type('amount').nullable).toBe(true);
    expect(String(type('trade_date').type)).toBe('Date32<DAY>');
    expect(String(type('timestamp').type)).toBe('Timestamp<SECOND, Asia/Shanghai>');
    expect(String(type('volume').type)).toBe('Int64');
    expect(String(type('instrument_id').type)).toBe('Utf8');
    // The first 5-minute bar ends at 09:35 market time.
    expect(new Date(t.getChild('timestamp')!.get(0) as number).toISOString()).toMatch(/T01:35:00\.000Z$/);
    const ind = tableFromIPC((await arrow('/api/v1/equities/600519.SH/technical-indicators/macd?interval=1d&page[size]=5')).rawPayload);
    expect(ind.schema.fields.filter((f) => f.name.startsWith('values.')).map((f) => [f.name, String(f.type)])).toEqual(
      ['dif', 'dea', 'macd'].map((k) => [`values.${k}`, 'Decimal[38e+4]']),
    );
    const factors = tableFromIPC((await arrow('/api/v1/equities/600519.SH/adjustment-factors')).rawPayload);
    expect(String(factors.schema.fields.find((f) => f.name === 'forward_factor')!.type)).toBe('Decimal[38e+16]');
  });

  it("answers a market's day as one Arrow stream of every page's records, and walks pages along Link as JSON pages them", async () => {
    const day = (await get(h, '/api/v1/markets/SH/bars?page[size]=1')).body.data[0].trade_date;
    const path = `/api/v1/markets/SH/bars?date=${day}`;
    const all = await walk(h, path, 100);
    expect(all.length).toBeGreaterThan(10);
    const r = await arrow(`${path}&page[size]=10`);
    expect(r.headers.link).toBeUndefined();
    const table = tableFromIPC(r.rawPayload);
    expectSame(table, all, 'market day');
    expect(table.schema.fields.map((f) => f.name)).toContain('limit_up');

    // A walk of Arrow pages along Link: each bar once, in the JSON's order, newest first too.
    for (const order of ['asc', 'desc']) {
      const bars = `/api/v1/equities/600519.SH/bars?interval=1d&order=${order}`;
      const want = await walk(h, bars, 1000);
      const dates: number[] = [];
      let next: string | null = `${bars}&page[size]=64`;
      for (let pages = 0; next !== null && pages < 100; pages++) {
        const p = await arrow(next);
        expect(p.statusCode, next).toBe(200);
        dates.push(...tableFromIPC(p.rawPayload).getChild('trade_date')!.toArray());
        const link = p.headers.link as string | undefined;
        next = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1];
      }
      expect(dates.map((d) => new Date(d).toISOString().slice(0, 10))).toEqual(want.map((b) => b.trade_date));
    }
  });

  it('tags Arrow apart from JSON, CSV and NDJSON, revalidates it with 304, and keeps errors JSON', async () => {
    const path = '/api/v1/equities/600519.SH/price-limits?page[size]=5';
    const tags = await Promise.all(
      ['application/json', 'text/csv', 'application/x-ndjson', ARROW].map(
        async (accept) => (await h.app.inject({ url: path, headers: { 'x-api-key': h.key, accept } })).headers.etag,
      ),
    );
    expect(new Set(tags).size).toBe(4);
    const again = await arrow(path, { 'if-none-match': tags[3] as string });
    expect(again.statusCode).toBe(304);
    // Negotiated: JSON when Arrow is not preferred, Arrow when it is.
    expect((await arrow(path, { accept: `application/json, ${ARROW};q=0.5` })).headers['content-type']).toMatch(/^application\/json/);
    expect((await arrow(path, { accept: `${ARROW}, application/json;q=0.9` })).headers['content-type']).toBe(ARROW);
    // An empty page is the schema alone.
    const empty = await arrow('/api/v1/equities/600519.SH/bars?interval=1d&from=2099-01-01');
    expect(empty.statusCode).toBe(200);
    const t = tableFromIPC(empty.rawPayload);
    expect(t.numRows).toBe(0);
    expect(t.schema.fields.map((f) => f.name)).toContain('close');

    const bad = await arrow('/api/v1/equities/600519.SH/bars?interval=2d');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(bad.body).errors[0].source).toEqual({ parameter: 'interval' });
    // A single record has no stream: JSON.
    const one = await arrow('/api/v1/equities/600519.SH');
    expect(JSON.parse(one.body).data.id).toBe('600519.SH');
  });
});

describe('Arrow columns of a union field', () => {
  it('writes a field that is a string or an array (listChanges\' `instruments`: "all" or ids) as text, the array as its JSON', () => {
    const ids = TB.Union([TB.Array(TB.String()), TB.Literal('all')]);
    const record = TB.Object({ version: TB.Integer(), instruments: ids, maybe: TB.Union([ids, TB.Null()]) });
    const fields = arrowFields(TB.Object({ data: TB.Array(record) }), {});
    expect(fields.map((f) => [f.name, f.type.kind, f.nullable])).toEqual([
      ['version', 'int', false],
      ['instruments', 'text', false],
      ['maybe', 'text', true],
    ]);
    const records = [
      { version: 1, instruments: 'all', maybe: null },
      { version: 2, instruments: ['000001.SZ', '600519.SH'], maybe: ['000001.SZ'] },
    ];
    const t = tableFromIPC(arrowStream(fields, records.length, (c, r) => fields[c].value(records[r])));
    expect(t.getChild('instruments')!.toArray()).toEqual(['all', '["000001.SZ","600519.SH"]']);
    expect([t.getChild('maybe')!.get(0), t.getChild('maybe')!.get(1)]).toEqual([null, '["000001.SZ"]']);
    expect(t.getChild('version')!.get(1)).toBe(2n);
  });
});
