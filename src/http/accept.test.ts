import { describe, expect, it } from 'vitest';
import { negotiate, parseAccept } from './accept.js';
import { fileFormat } from './file-format.js';

const JSON_CSV = [{ type: 'application/json' }, { type: 'text/csv', params: { charset: 'utf-8' } }];

describe('Accept negotiation (RFC 9110 §12.5.1)', () => {
  it('weighs each offer by the most specific range that matches it: q=0 refuses, a specific range overrides a wildcard', () => {
    expect(negotiate('text/csv;q=0', JSON_CSV)).toBe(-1);
    expect(negotiate('*/*;q=0.1, text/csv', JSON_CSV)).toBe(1);
    expect(negotiate('text/csv;q=0, */*', JSON_CSV)).toBe(0);
    expect(negotiate('application/json;q=0, */*', JSON_CSV)).toBe(1);
    expect(negotiate('text/*;q=0.5, application/json;q=0.4', JSON_CSV)).toBe(1);
    expect(negotiate('text/csv;q=0.3, application/*;q=0.7', JSON_CSV)).toBe(0);
    expect(negotiate('text/csv;charset=UTF-8;q=0.9, text/csv;q=0', JSON_CSV)).toBe(1);
    expect(negotiate('text/csv;q=0.2, text/csv;q=0.9', JSON_CSV)).toBe(1);
  });

  it('breaks ties by specificity, then the order of the header, then the order offered', () => {
    expect(negotiate('text/csv, application/json', JSON_CSV)).toBe(1);
    expect(negotiate('application/json, text/csv', JSON_CSV)).toBe(0);
    expect(negotiate('*/*', JSON_CSV)).toBe(0);
    expect(negotiate('*/*, text/csv', JSON_CSV)).toBe(1);
    expect(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', JSON_CSV)).toBe(0);
  });

  it("matches a range's parameters against the offer's, and ignores accept-ext after q", () => {
    expect(negotiate('text/csv;charset=iso-8859-1', JSON_CSV)).toBe(-1);
    expect(negotiate('text/csv; charset="utf-8"', JSON_CSV)).toBe(1);
    expect(negotiate('text/csv;q=1;foo=bar', JSON_CSV)).toBe(1);
    expect(negotiate('application/json;version=2', JSON_CSV)).toBe(-1);
  });

  it('skips malformed elements; a header of nothing valid accepts anything', () => {
    expect(parseAccept('text, */csv, text/csv;q=2, text/csv;q=0.5x, ;, "a,b"/c, application/json;q=0.5')).toEqual([
      { type: 'application', subtype: 'json', params: [], q: 0.5, at: 0 },
    ]);
    expect(negotiate('nonsense', JSON_CSV)).toBe(0);
    expect(negotiate('', JSON_CSV)).toBe(0);
    expect(negotiate(undefined, JSON_CSV)).toBe(0);
    expect(negotiate('text/csv;foo="a,b;c", application/json;q=0.1', [...JSON_CSV, { type: 'text/csv', params: { foo: 'a,b;c' } }])).toBe(
      2,
    );
    expect(parseAccept('TEXT/CSV;Q=0.500')).toEqual([{ type: 'text', subtype: 'csv', params: [], q: 0.5, at: 0 }]);
  });
});

describe('fileFormat', () => {
  it('is the file an Accept header prefers to JSON, JSON (null) when it prefers none or accepts none', () => {
    expect(fileFormat('text/csv')).toBe('csv');
    expect(fileFormat('text/csv;q=0')).toBeNull();
    expect(fileFormat('*/*;q=0.1, text/csv')).toBe('csv');
    expect(fileFormat('*/*;q=0.1, text/csv')).toBe('csv');
    expect(fileFormat('application/json;q=0.5, application/x-ndjson')).toBe('ndjson');
    expect(fileFormat('application/ndjson;q=0.9, text/csv;q=0.8')).toBe('ndjson');
    expect(fileFormat('text/csv;header=present')).toBe('csv');
    expect(fileFormat('application/json, text/csv')).toBeNull();
    expect(fileFormat('*/*')).toBeNull();
    expect(fileFormat('application/*')).toBeNull();
    expect(fileFormat('text/*')).toBe('csv');
    expect(fileFormat('image/png')).toBeNull();
    expect(fileFormat(undefined)).toBeNull();
  });
});
