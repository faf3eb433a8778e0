import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CsvParser, csvField, type CsvRecord } from './csv.js';
import { NdjsonParser, readRecords, type SourceRecord } from './source.js';

const dir = mkdtempSync(join(tmpdir(), 'mds-source-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const all = async (path: string, format: 'csv' | 'ndjson') => {
  const out: SourceRecord[] = [];
  for await (const records of readRecords(path, format)) out.push(...records);
  return out;
};

/** Lines of every length around the pieces a chunk is parsed in, astral characters, CRLF, long quoted fields with line breaks. */
function rows(): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < 10_000; i++) {
    const long = i % 997 === 0 ? `😀${'x'.repeat(70_000 + i)}\n${'y'.repeat(i)}😀` : i % 3 === 0 ? `a\nb😀${i}` : '😀'.repeat(i % 40);
    out.push([String(i), long, 'z'.repeat((i * 7919) % 500)]);
  }
  return out;
}

describe('readRecords', () => {
  it('yields the records of a file of many chunks as the parser does on the whole text (CSV, gzip)', async () => {
    const text =
      rows()
        .map((r) => r.map(csvField).join(','))
        .join('\r\n') + '\n';
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 << 20);
    const want: CsvRecord[] = [];
    const p = new CsvParser();
    p.push(text, want);
    p.end(want);
    writeFileSync(join(dir, 'a.csv'), text);
    writeFileSync(join(dir, 'a.csv.gz'), gzipSync(text));
    for (const f of ['a.csv', 'a.csv.gz']) {
      const got = await all(join(dir, f), 'csv');
      expect(got.length, f).toBe(10_000);
      expect(got, f).toEqual(want);
    }
  });

  it('yields the records of an NDJSON file of many chunks as the parser does on the whole text', async () => {
    const text =
      rows()
        .map(([a, b, c]) => JSON.stringify({ a, b, c }))
        .join('\n') + '\n';
    const want: SourceRecord[] = [];
    const p = new NdjsonParser();
    p.push(text, want);
    p.end(want);
    writeFileSync(join(dir, 'a.ndjson'), text);
    const got = await all(join(dir, 'a.ndjson'), 'ndjson');
    expect(got.length).toBe(10_000);
    expect(got).toEqual(want);
  });
});
