import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { CsvParser, csvField, type CsvRecord } from '../src/ingest/csv.js';
import { BAD, decimal, scaled, timestamp } from '../src/datasets/columns.js';
import { parseScaled } from '../src/lib/decimal.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { emptyHarness, tmp } from './ingest-helpers.js';
import { get, type Harness } from './helpers.js';

const parse = (text: string, chunk = text.length) => {
  const p = new CsvParser();
  const out: CsvRecord[] = [];
  for (let i = 0; i < text.length; i += chunk) p.push(text.slice(i, i + chunk), out);
  p.end(out);
  return out;
};

describe('CSV', () => {
  const text = 'a,b,c\r\n1,"x, ""y""",3\n\n2,"multi\nline",\n"",q,"end"';
  it('parses quotes, doubled quotes, embedded line breaks, CRLF, blank lines; records carry their first line', () => {
    const want = [
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'x, "y"', '3'] },
      { line: 4, fields: ['2', 'multi\nline', ''] },
      { line: 6, fields: ['', 'q', 'end'] },
    ];
    expect(parse(text)).toEqual(want);
    for (const chunk of [1, 2, 3, 5, 7]) expect(parse(text, chunk), `chunk ${chunk}`).toEqual(want);
  });
  it('reports malformed quoting on its line and goes on', () => {
    const out = parse('a,b\n1,x"y\n"open,2\n3,4\n');
    expect(out[1]).toMatchObject({ line: 2, error: expect.stringMatching(/quote inside an unquoted field/) });
    expect(out.at(-1)).toMatchObject({ error: expect.stringMatching(/unexpected text after a closing quote|unterminated/) });
  });
  it('writes fields that round-trip', () => {
    for (const s of ['plain', 'a,b', 'say "hi"', 'two\nlines', ' padded ']) expect(parse(csvField(s) + '\n')[0].fields).toEqual([s]);
  });
});

describe('column types', () => {
  it('decimals are exact at the stored scale: the fast path agrees with parseScaled', () => {
    for (const s of [
      '0',
      '12',
      '-12.5',
      '1723.50',
      '1723.500',
      '1723.5001',
      '00012.30',
      '+5',
      '.5',
      '5.',
      '-',
      '1e3',
      '9007199254740993',
      ' 7',
      '1.2.3',
    ]) {
      for (const k of [0, 2, 3, 6]) expect(scaled(s, k), `${s} @${k}`).toBe(parseScaled(s, k));
    }
    const price = decimal(3, 2, { min: 1 });
    expect(price.parse('10.2345', null as any)).toBe(BAD);
    expect(price.parse('0', null as any)).toBe(BAD);
    expect(price.format(10230, null as any)).toBe('10.23');
    expect(price.format(10235, null as any)).toBe('10.235');
  });
  it('timestamps: RFC 3339 in whole seconds, any offset, none = market time', () => {
    const t = (s: string) => timestamp.parse(s, null as any);
    expect(t('2024-03-01T10:30:00+08:00')).toBe(Date.UTC(2024, 2, 1, 2, 30) / 1000);
    expect(t('2024-03-01T02:30:00Z')).toBe(t('2024-03-01T10:30:00+08:00'));
    expect(t('2024-03-01T10:30:00')).toBe(t('2024-03-01T10:30:00+08:00'));
    for (const bad of ['2024-03-01', '2024-02-30T10:30:00+08:00', '2024-03-01T24:00:00+08:00', '2024-03-01T10:30:00.5+08:00'])
      expect(t(bad), bad).toBe(BAD);
  });
});

describe('NDJSON and gzip', () => {
  let h: Harness;
  const dir = tmp();
  beforeAll(async () => {
    h = await emptyHarness(':memory:');
    const r = await ingest(
      h.store,
      ['markets', 'trading_days', 'classifications', 'instruments'].map((n) => ({ path: `examples/${n}.csv`, dataset: dataset(n)! })),
    );
    expect(r.errors).toEqual([]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gzip is recognised by its magic bytes whatever the name; a BOM is skipped', async () => {
    const csv = '\ufeff' + readFileSync('examples/bars_1d.csv', 'utf8');
    writeFileSync(join(dir, 'bars.dat'), gzipSync(csv));
    const r = await ingest(h.store, [{ path: join(dir, 'bars.dat'), dataset: dataset('bars_1d')! }]);
    expect(r.errors).toEqual([]);
    expect(r.datasets[0].inserted).toBe(csv.trim().split('\n').length - 1);
  });

  it('NDJSON: decimals are JSON strings, counts numbers; errors name line and field', async () => {
    const f = join(dir, 'x.ndjson');
    const ok = {
      instrument_id: '000256.SZ',
      trade_date: '2025-11-20',
      open: '9.50',
      high: '9.80',
      low: '9.40',
      close: '9.60',
      volume: 1000,
      amount: '9600.00',
    };
    writeFileSync(
      f,
      [JSON.stringify(ok), '', JSON.stringify({ ...ok, close: 9.6 }), JSON.stringify({ ...ok, colse: '1' }), '{oops'].join('\n'),
    );
    const r = await ingest(h.store, [{ path: f, dataset: dataset('bars_1d')! }]);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      `${f}:3: close: expected a positive decimal string with at most 3 decimals (CNY) as a JSON string, got "9.6"`,
      `${f}:4: colse: unknown field for bars_1d`,
      expect.stringMatching(new RegExp(`^${f.replace(/[.]/g, '\\.')}:5: invalid JSON \\(`)),
    ]);
    expect((await get(h, '/api/v1/equities/000256.SZ/bars?interval=1d&date=2025-11-20')).body.data[0].close).not.toBe('9.60');
  });

  it('a CSV header must name the columns: unknown or missing ones are reported on line 1', async () => {
    const f = join(dir, 'bars_1d.csv');
    writeFileSync(f, 'instrument_id,trade_date,open,high,low,close,volume,amout\n');
    const r = await ingest(h.store, [{ path: f, dataset: dataset('bars_1d')! }]);
    // amount is optional (empty or absent: unknown), so only the unknown name is reported.
    expect(r.errors).toEqual([
      `${f}:1:8: amout: unknown column for bars_1d; expected one of instrument_id, trade_date, open, high, low, close, volume, amount`,
    ]);
  });
});
