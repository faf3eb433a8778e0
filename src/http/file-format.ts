/**
 * Collections as files: a client whose Accept prefers `text/csv` or `application/x-ndjson` to
 * JSON (RFC 9110 negotiation, accept.ts) gets a collection's records as a file (docs/api.md,
 * "Files"): in the format `mds ingest` reads where the records are a dataset's, else the
 * record's own fields, flat. One that prefers `application/vnd.apache.arrow.stream` gets them
 * as an Arrow IPC stream of the record's own fields, typed (http/arrow-shape.ts, render/arrow.ts).
 * The format is part of the response's ETag (http-cache.ts), and responses vary on Accept.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { csvField } from '../lib/csv.js';
import { negotiate, type Offer } from './accept.js';

/** The text files, whose columns are file-shapes.ts's. */
export type TextFormat = 'csv' | 'ndjson';
export type FileFormat = TextFormat | 'arrow';

export const FILE_TYPES: Readonly<Record<FileFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  arrow: 'application/vnd.apache.arrow.stream',
};

/**
 * What the collections offer, JSON first (the fallback, and the choice on a tie the client
 * leaves to the server: `*\/*`, `application/*`), each with the parameters it is sent with.
 */
const OFFERS: readonly { format: FileFormat | null; offer: Offer }[] = [
  { format: null, offer: { type: 'application/json', params: { charset: 'utf-8' } } },
  { format: 'csv', offer: { type: 'text/csv', params: { charset: 'utf-8', header: 'present' } } },
  { format: 'ndjson', offer: { type: 'application/x-ndjson', params: { charset: 'utf-8' } } },
  { format: 'ndjson', offer: { type: 'application/ndjson', params: { charset: 'utf-8' } } },
  { format: 'arrow', offer: { type: 'application/vnd.apache.arrow.stream' } },
];
const OFFERED = OFFERS.map((o) => o.offer);

/** The last Accept value negotiated and its answer (a client sends the same one each time). */
let lastAccept = '*/*',
  lastFormat: FileFormat | null = null;

/**
 * The file format an Accept header prefers to JSON by RFC 9110 (q-values, the most specific
 * range, then the order of the header: accept.ts), or null for JSON, also when it accepts none
 * of them (JSON is the fallback: never 406).
 *
 * @example
 * fileFormat('text/csv') // 'csv'
 * fileFormat('*\/*;q=0.1, text/csv') // 'csv'
 * fileFormat('text/csv;q=0') // null
 */
export function fileFormat(accept: string | undefined): FileFormat | null {
  if (!accept) return null;
  if (accept !== lastAccept) {
    const i = negotiate(accept, OFFERED);
    lastFormat = i < 0 ? null : OFFERS[i].format;
    lastAccept = accept;
  }
  return lastFormat;
}

/** A field's value as JSON has it: a string (decimals, dates, text), a number, a boolean or null. */
export type FieldValue = string | number | boolean | null;

/**
 * A column of a collection's file: its name (the header's) and its value in a record as the JSON
 * response has it; `key` is the record's cursor key (what a record leaves out of its JSON but
 * its order holds: a management record's seq).
 */
export interface FileColumn {
  readonly name: string;
  value(record: any, key: readonly unknown[]): FieldValue;
}

/**
 * What a collection's file holds: the columns of the ingest dataset `dataset` (docs/ingest.md),
 * so that `mds ingest <dataset>` loads it, or, with `dataset` null, the record's own fields.
 */
export interface FileShape {
  readonly dataset: string | null;
  readonly columns: readonly FileColumn[];
}

/** The column `name` holding the record's field `from` (default the same name). */
export const field = (name: string, from = name): FileColumn => ({ name, value: (r) => r[from] ?? null });

/**
 * The columns of a record schema's own fields, in its order: a nested object's fields are
 * columns `parent.child` (its schema's, or for a map such as an indicator point's `values`, the
 * keys `maps[parent]` lists; an absent key is an empty field); an array is its JSON text.
 */
export function flatColumns(schema: TObject, maps: Record<string, readonly string[]> = {}, path: string[] = []): FileColumn[] {
  return Object.entries(schema.properties).flatMap(([key, s]: [string, TSchema]): FileColumn[] => {
    const at = [...path, key];
    const keys = maps[key];
    if (keys) return keys.map((k) => nested([...at, k]));
    if (s.type === 'object' && s.properties) return flatColumns(s as TObject, maps, at);
    if (s.type === 'array') return [{ name: at.join('.'), value: (r) => JSON.stringify(dig(r, at) ?? []) }];
    return [nested(at)];
  });
}

const dig = (r: any, at: readonly string[]): unknown => at.reduce((v, k) => (v == null ? undefined : v[k]), r);
const nested = (at: readonly string[]): FileColumn =>
  at.length === 1 ? field(at[0]) : { name: at.join('.'), value: (r) => (dig(r, at) ?? null) as FieldValue };

/** A value as a CSV field: empty for null, JSON's text otherwise (quoted where CSV needs it). */
function csvValue(v: FieldValue): string {
  if (v === null) return '';
  return typeof v === 'string' ? csvField(v) : String(v);
}

/**
 * The file of `records` (the JSON response's, in order; `key(i)` the cursor key of record i):
 * CSV with a header line, or NDJSON, one object per record keyed by the column names. Each line
 * ends with LF.
 */
export function fileText(
  shape: FileShape,
  format: TextFormat,
  records: readonly unknown[],
  key: (i: number) => readonly unknown[],
): string {
  const { columns } = shape;
  let out = format === 'csv' ? columns.map((c) => csvField(c.name)).join(',') + '\n' : '';
  for (let i = 0; i < records.length; i++) {
    const r = records[i],
      k = key(i);
    if (format === 'csv') out += columns.map((c) => csvValue(c.value(r, k))).join(',') + '\n';
    else {
      const o: Record<string, FieldValue> = {};
      for (const c of columns) o[c.name] = c.value(r, k);
      out += JSON.stringify(o) + '\n';
    }
  }
  return out;
}
