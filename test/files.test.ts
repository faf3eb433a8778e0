import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asField, get, harness, parseCsv, STORES, walk, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { FILE_SHAPES } from '../src/http/file-shapes.js';
import { INDICATOR_IDS, INDICATORS } from '../src/indicators/registry.js';
import { INTERVAL_IDS } from '../src/market/intervals.js';
import type { FileShape } from '../src/http/file-format.js';

/** Every file shape an operation may have: bars of each interval, indicator points of each indicator. */
function allShapes(): [string, FileShape][] {
  return Object.entries(FILE_SHAPES).flatMap(([op, shape]) =>
    INTERVAL_IDS.flatMap((interval) =>
      INDICATOR_IDS.map((indicator) => [op, shape({ params: { indicator }, query: { interval } })] as [string, FileShape]),
    ),
  );
}

describe('collection files: the columns', () => {
  it("are the ingest dataset's columns, in its order, for every collection of a dataset", () => {
    let checked = 0;
    for (const [op, shape] of allShapes()) {
      if (shape.dataset === null) continue;
      const ds = dataset(shape.dataset);
      expect(ds, `${op}: ${shape.dataset}`).toBeDefined();
      expect(
        shape.columns.map((c) => c.name),
        op,
      ).toEqual(ds!.columns.map((c) => c.name));
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("are bars_1m's for intraday bars, bars_1d's for daily and longer", () => {
    const of = (interval: string) => FILE_SHAPES.listEquityBars({ params: {}, query: { interval } }).dataset;
    expect(['1m', '5m', '15m', '30m', '60m'].map(of)).toEqual(Array(5).fill('bars_1m'));
    expect(['1d', '1w', '1mo', '1q', '1y'].map(of)).toEqual(Array(5).fill('bars_1d'));
  });
});

describe('collection files: docs/api.md', () => {
  it('names the file of every collection operation as the server writes it', () => {
    const text = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    const section = text.slice(text.indexOf('## Files: CSV and NDJSON by Accept'), text.indexOf('## Quotes and trades'));
    const named = new Map<string, string>();
    for (const line of section.split('\n').filter((l) => /^\| list/.test(l))) {
      const [ops, file] = line.split('|').slice(1, 3);
      for (const op of ops.split(',').map((o) => o.trim())) named.set(op, file);
    }
    expect([...named.keys()].sort()).toEqual(Object.keys(FILE_SHAPES).sort());
    for (const [op, shape] of allShapes()) {
      const file = named.get(op)!;
      if (shape.dataset === null) expect(file, op).toContain("the record's fields");
      else expect(file, op).toContain(`\`${shape.dataset}\``);
    }
  });
});

describe.each(STORES)('collection files on $name', ({ url }) => {
  let h: Harness;
  let fresh: Harness;
  let id: string;
  const csvHeaders = () => ({ 'x-api-key': h.key, accept: 'text/csv' });
  beforeAll(async () => {
    h = await harness(await url());
    fresh = await harness(await url(), null);
    // An equity with quotes, trades and a management history.
    for (const e of await walk(h, '/api/v1/equities', 1000)) {
      const has = async (path: string) => (await get(h, `/api/v1/equities/${e.id}/${path}?page[size]=1`)).body.data.length > 0;
      if ((await has('trades')) && (await has('management-history')) && (await has('dividends'))) {
        id = e.id;
        break;
      }
    }
    expect(id).toBeDefined();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await fresh?.close();
  });

  /** Every row of a collection as CSV, walked page by page along `Link: <…>; rel="next"`, with the header and the number of pages. */
  async function walkCsv(app: Harness, path: string, size: number, accept = 'text/csv') {
    const rows: string[][] = [];
    let header: string[] | null = null,
      pages = 0,
      bodies = '';
    let next: string | null = `${path}${path.includes('?') ? '&' : '?'}page[size]=${size}`;
    while (next) {
      const r = await app.app.inject({ url: next, headers: { 'x-api-key': app.key, accept } });
      expect(r.statusCode, `${next}: ${r.body}`).toBe(200);
      pages++;
      if (accept === 'text/csv') {
        const [head, ...lines] = parseCsv(r.body);
        if (header) expect(head).toEqual(header);
        header = head;
        rows.push(...lines);
        if (pages === 1) bodies = r.body;
        else bodies += r.body.slice(r.body.indexOf('\n') + 1);
      } else bodies += r.body;
      const link = r.headers.link as string | undefined;
      if (link === undefined) next = null;
      else {
        const m = /^<([^>]+)>; rel="next"$/.exec(link);
        expect(m, link).not.toBeNull();
        next = m![1];
      }
    }
    return { header: header!, rows, pages, body: bodies };
  }

  it("answers a page of daily bars as CSV with the JSON page's values, row by row, and the next page in Link", async () => {
    const path = `/api/v1/equities/${id}/bars?interval=1d&page[size]=50`;
    const json = await get(h, path);
    const csv = await h.app.inject({ url: path, headers: csvHeaders() });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(csv.body);
    expect(header).toEqual(['instrument_id', 'trade_date', 'open', 'high', 'low', 'close', 'volume', 'amount']);
    expect(rows).toHaveLength(50);
    expect(rows).toEqual(json.body.data.map((b: any) => header.map((c) => asField(b[c]))));
    expect(csv.headers.link).toBe(`<${json.body.links.next}>; rel="next"`);
    // Minute bars, adjusted: bars_1m's columns, the JSON's values.
    const m = `/api/v1/equities/${id}/bars?interval=5m&adjustment=forward&page[size]=30`;
    const mj = await get(h, m);
    const [mh, ...mr] = parseCsv((await h.app.inject({ url: m, headers: csvHeaders() })).body);
    expect(mh).toEqual(['instrument_id', 'timestamp', 'open', 'high', 'low', 'close', 'volume', 'amount']);
    expect(mr.length).toBeGreaterThan(0);
    expect(mr).toEqual(mj.body.data.map((b: any) => mh.map((c) => asField(b[c]))));
  });

  it('walks a collection along Link with no row lost or repeated, pages as JSON pages them', async () => {
    const all = await walk(h, '/api/v1/equities', 1000);
    const csv = await walkCsv(h, '/api/v1/equities', 7);
    expect(csv.pages).toBe(Math.ceil(all.length / 7));
    expect(csv.rows.map((r) => r[0])).toEqual(all.map((e) => e.id));
    const bars = await walk(h, `/api/v1/equities/${id}/bars?interval=1d`, 1000);
    const barsCsv = await walkCsv(h, `/api/v1/equities/${id}/bars?interval=1d`, 64);
    expect(barsCsv.rows.map((r) => r[1])).toEqual(bars.map((b) => b.trade_date));
    const nd = await walkCsv(h, `/api/v1/equities/${id}/bars?interval=1d`, 64, 'application/x-ndjson');
    expect(
      nd.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).trade_date),
    ).toEqual(bars.map((b) => b.trade_date));
  });

  it("writes derived collections as the record's own fields: price limits and indicator points have the JSON's values", async () => {
    const limits = await walk(h, `/api/v1/equities/${id}/price-limits`, 1000);
    const csv = await walkCsv(h, `/api/v1/equities/${id}/price-limits`, 1000);
    expect(csv.header).toEqual(Object.keys(limits[0]));
    expect(csv.rows).toEqual(limits.map((l) => csv.header.map((c) => asField(l[c]))));
    // Booleans as JSON writes them.
    expect(new Set(csv.rows.map((r) => r[csv.header.indexOf('suspended')]))).toContain('false');
    expect(csv.rows.every((r) => ['true', 'false'].includes(r[csv.header.indexOf('is_st')]))).toBe(true);

    const path = `/api/v1/equities/${id}/technical-indicators/ma?interval=1d&adjustment=backward`;
    const points = await walk(h, path, 1000);
    const pc = await walkCsv(h, path, 1000);
    const keys = INDICATORS.ma.keys;
    expect(pc.header).toEqual([
      'instrument_id',
      'indicator',
      'interval',
      'adjustment',
      'timestamp',
      'trade_date',
      ...keys.map((k) => `values.${k}`),
    ]);
    expect(pc.rows).toEqual(
      points.map((p) => [
        p.instrument_id,
        p.indicator,
        p.interval,
        p.adjustment,
        p.timestamp,
        p.trade_date,
        ...keys.map((k) => asField(p.values[k])),
      ]),
    );
    // The first point lacks the history of the longer averages: empty fields, not zeros.
    expect(pc.rows[0].slice(6)).toContain('');
  });

  it('loads back into a fresh store: the files of markets, instruments, classifications, bars, ticks and fundamentals give the same answers', async () => {
    const dir = tmp('mds-files-');
    const files: [string, string, string][] = [
      ['markets', '/api/v1/markets', 'text/csv'],
      ['classifications', '/api/v1/classifications/sectors', 'text/csv'],
      ['classifications', '/api/v1/classifications/primary-industries', 'text/csv'],
      ['instruments', '/api/v1/equities', 'text/csv'],
      ['instruments', '/api/v1/indices', 'text/csv'],
      ['instruments', '/api/v1/funds', 'application/x-ndjson'],
      ['instrument_classifications', `/api/v1/equities/${id}/sector-memberships`, 'text/csv'],
      ['bars_1d', `/api/v1/equities/${id}/bars?interval=1d`, 'text/csv'],
      ['bars_1m', `/api/v1/equities/${id}/bars?interval=1m`, 'text/csv'],
      ['quotes', `/api/v1/equities/${id}/quotes`, 'application/x-ndjson'],
      ['trades', `/api/v1/equities/${id}/trades`, 'text/csv'],
      ['management', `/api/v1/equities/${id}/management-history`, 'text/csv'],
      ['dividends', `/api/v1/equities/${id}/dividends`, 'text/csv'],
      ['income_statements', `/api/v1/equities/${id}/income-statements`, 'text/csv'],
      ['financial_indicators', `/api/v1/equities/${id}/financial-indicators`, 'application/x-ndjson'],
      ['capital_flows', `/api/v1/equities/${id}/capital-flows`, 'text/csv'],
    ];
    const input = [];
    for (const [i, [ds, path, accept]] of files.entries()) {
      const file = join(dir, `${i}.${accept === 'text/csv' ? 'csv' : 'ndjson'}`);
      writeFileSync(file, (await walkCsv(h, path, 1000, accept)).body);
      input.push({ path: file, dataset: dataset(ds)! });
    }
    const r = await ingest(fresh.store, input);
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);

    const same = async (path: string, drop: string[] = []) => {
      const strip = (rows: any[]) => rows.map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => !drop.includes(k))));
      const want = await walk(h, path, 1000);
      expect(want.length, path).toBeGreaterThan(0);
      expect(strip(await walk(fresh, path, 1000)), path).toEqual(strip(want));
    };
    // is_st comes from ST periods, a dataset of its own (no collection serves it).
    await same('/api/v1/equities', ['is_st']);
    await same('/api/v1/indices');
    await same('/api/v1/funds');
    await same('/api/v1/classifications/sectors');
    for (const p of [
      'bars?interval=1d',
      'bars?interval=1m',
      'bars?interval=30m',
      'quotes',
      'trades',
      'management-history',
      'dividends',
      'income-statements',
      'financial-indicators',
      'capital-flows',
      'sector-memberships',
    ])
      await same(`/api/v1/equities/${id}/${p}`);
  }, 120_000);

  it('negotiates Accept by RFC 9110: q-values, the most specific range, then the order; JSON when nothing else is preferred', async () => {
    const path = `/api/v1/equities/${id}/bars?interval=1d&page[size]=4`;
    const json = await get(h, path);
    const closes = json.body.data.map((b: { close: string }) => b.close);
    const desc = `/api/v1/equities/${id}/bars?interval=1d&order=desc&page[size]=4`;
    const descCloses = (await get(h, desc)).body.data.map((b: { close: string }) => b.close);
    const day = json.body.data[3].trade_date;
    const market = `/api/v1/markets/${id.slice(-2)}/bars?date=${day}`;
    const marketIds = (await walk(h, market, 1000)).map((b: { instrument_id: string }) => b.instrument_id);
    for (const [accept, type] of [
      ['text/csv;q=0', 'json'],
      ['text/csv;q=0, */*', 'json'],
      ['*/*;q=0.1, text/csv', 'csv'],
      ['application/json;q=0.5, text/csv', 'csv'],
      ['application/json;q=0, */*', 'csv'],
      ['text/csv;q=0.4, application/x-ndjson;q=0.6', 'ndjson'],
      ['application/x-ndjson;q=0.6, application/json', 'json'],
      ['text/*', 'csv'],
      ['text/csv;charset=iso-8859-1', 'json'],
      ['image/png', 'json'],
    ] as const) {
      for (const [url, want, key] of [
        [path, closes, 'close'],
        [desc, descCloses, 'close'],
        [market, marketIds, 'instrument_id'],
      ] as const) {
        const r = await h.app.inject({ url, headers: { 'x-api-key': h.key, accept } });
        expect(r.statusCode, `${accept} ${url}`).toBe(200);
        const values =
          type === 'json'
            ? JSON.parse(r.body).data.map((x: Record<string, string>) => x[key])
            : type === 'csv'
              ? (([head, ...rows]) => rows.map((row) => row[head.indexOf(key)]))(parseCsv(r.body))
              : r.body
                  .trim()
                  .split('\n')
                  .map((l) => JSON.parse(l)[key]);
        expect(r.headers['content-type'], `${accept} ${url}`).toMatch(
          { json: /^application\/json/, csv: /^text\/csv/, ndjson: /^application\/x-ndjson/ }[type],
        );
        expect(values, `${accept} ${url}`).toEqual(want);
      }
      // The tag is the representation's: a JSON answer has JSON's tag whatever Accept it was negotiated from.
      const tagged = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, accept } });
      if (type === 'json') expect(tagged.headers.etag, accept).toBe(json.headers.etag);
      else expect(tagged.headers.etag, accept).not.toBe(json.headers.etag);
    }
  });

  it('tags each representation apart (Vary: Accept) and keeps errors JSON whatever Accept asks', async () => {
    const path = `/api/v1/equities/${id}/price-limits?page[size]=5`;
    const json = await h.app.inject({ url: path, headers: { 'x-api-key': h.key } });
    const csv = await h.app.inject({ url: path, headers: csvHeaders() });
    const nd = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, accept: 'application/x-ndjson' } });
    expect(new Set([json.headers.etag, csv.headers.etag, nd.headers.etag]).size).toBe(3);
    expect(csv.headers.vary).toContain('Accept');
    expect(nd.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const again = await h.app.inject({ url: path, headers: { ...csvHeaders(), 'if-none-match': csv.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    // JSON first in Accept is JSON.
    const first = await h.app.inject({ url: path, headers: { 'x-api-key': h.key, accept: 'application/json, text/csv' } });
    expect(first.headers['content-type']).toMatch(/^application\/json/);

    for (const [bad, parameter] of [
      [`/api/v1/equities/${id}/bars?interval=2d`, 'interval'],
      [`/api/v1/equities/${id}/bars?interval=1d&page[after]=nonsense`, 'page[after]'],
      [`/api/v1/equities/${id}/price-limits?from=2025-13-01`, 'from'],
    ]) {
      const r = await h.app.inject({ url: bad, headers: csvHeaders() });
      expect(r.statusCode, bad).toBe(400);
      expect(r.headers['content-type'], bad).toMatch(/^application\/json/);
      expect(JSON.parse(r.body).errors[0].source, bad).toEqual({ parameter });
    }
    const missing = await h.app.inject({ url: '/api/v1/equities/999999.SH/bars?interval=1d', headers: csvHeaders() });
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body).errors[0].code).toBe('not_found');
    // A single record has no file: JSON whatever Accept asks.
    const one = await h.app.inject({ url: `/api/v1/equities/${id}`, headers: csvHeaders() });
    expect(one.statusCode).toBe(200);
    expect(JSON.parse(one.body).data.id).toBe(id);
  });
});
