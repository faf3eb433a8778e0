/**
 * Records as an Apache Arrow IPC stream (https://arrow.apache.org/docs/format/Columnar.html#ipc-streaming-format),
 * written with `apache-arrow`: one record batch of typed columns, each built straight from the
 * values a JSON answer holds (decimal strings, `YYYY-MM-DD` dates, RFC 3339 times, integers,
 * booleans, text), so no value passes through a float: a decimal's digits become its
 * decimal128's unscaled integer. docs/api.md, "Arrow".
 */
import {
  Bool,
  DateDay,
  Decimal,
  Field,
  Float64,
  Int64,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableToIPC,
  Timestamp,
  TimeUnit,
  Utf8,
} from 'apache-arrow';
import type { Data, DataType } from 'apache-arrow';

/** The market's zone: every time of the API is market time (+08:00). */
export const ARROW_TIME_ZONE = 'Asia/Shanghai';
/** Decimals are decimal128 of the widest precision: a value's digits are never refused for their number. */
export const DECIMAL_PRECISION = 38;

/** A column's Arrow type: decimals with their scale, dates as date32, times as timestamp[s, Asia/Shanghai], integers as int64. */
export type ArrowKind =
  { readonly kind: 'decimal'; readonly scale: number } | { readonly kind: 'date' | 'timestamp' | 'int' | 'float' | 'bool' | 'text' };

/** A column of a stream: its name, type and whether it may hold nulls. */
export interface ArrowColumn {
  readonly name: string;
  readonly type: ArrowKind;
  readonly nullable: boolean;
}

/** A JSON value of a field. */
export type JsonValue = string | number | boolean | null;

const DAY_MS = 86_400_000;
const encoder = new TextEncoder();

function arrowType(t: ArrowKind): DataType {
  switch (t.kind) {
    case 'decimal':
      return new Decimal(t.scale, DECIMAL_PRECISION, 128);
    case 'date':
      return new DateDay();
    case 'timestamp':
      return new Timestamp(TimeUnit.SECOND, ARROW_TIME_ZONE);
    case 'int':
      return new Int64();
    case 'float':
      return new Float64();
    case 'bool':
      return new Bool();
    case 'text':
      return new Utf8();
  }
}

/** `s`, an exact decimal string, as an integer scaled by 10^scale; an error when it has more decimals than `scale`. */
export function unscaled(s: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (m === null) throw new Error(`not a decimal: ${JSON.stringify(s)}`);
  const frac = m[3] ?? '';
  if (frac.length > scale) throw new Error(`${s} has more than ${scale} decimals`);
  const v = BigInt(m[2] + frac.padEnd(scale, '0'));
  return m[1] === '-' ? -v : v;
}

/** `YYYY-MM-DD` as days since 1970-01-01. */
function days(s: string): number {
  const ms = Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10)));
  if (s.length !== 10 || !Number.isFinite(ms)) throw new Error(`not a date: ${JSON.stringify(s)}`);
  return ms / DAY_MS;
}

/** An RFC 3339 time in whole seconds as epoch seconds. */
function seconds(s: string): bigint {
  const ms = Date.parse(s);
  if (!Number.isFinite(ms) || ms % 1000 !== 0) throw new Error(`not a time in whole seconds: ${JSON.stringify(s)}`);
  return BigInt(ms / 1000);
}

/** The validity bitmap of `values` (bit i set: value i is not null) and the count of nulls. */
function validity(values: readonly JsonValue[]): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array(Math.ceil(values.length / 8));
  let nulls = 0;
  values.forEach((v, i) => {
    if (v === null) nulls++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  });
  return { bitmap, nulls };
}

/** The Data of one column: its values as the JSON has them (null where the record has none). */
function columnData(column: ArrowColumn, values: readonly JsonValue[]): Data {
  const type = arrowType(column.type);
  const n = values.length;
  const { bitmap, nulls } = validity(values);
  if (nulls > 0 && !column.nullable) throw new Error(`column ${column.name} is not nullable, yet a record has no value`);
  const base = { type, length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bitmap : undefined } as const;
  const t = column.type;
  switch (t.kind) {
    case 'decimal': {
      const words = new Uint32Array(4 * n);
      values.forEach((v, i) => {
        if (v === null) return;
        // Little-endian 128-bit two's complement, 32 bits a word.
        let x = BigInt.asUintN(128, unscaled(String(v), t.scale));
        for (let k = 0; k < 4; k++, x >>= 32n) words[4 * i + k] = Number(x & 0xffffffffn);
      });
      return makeData({ ...base, type: type as Decimal, data: words });
    }
    case 'date':
      return makeData({ ...base, type: type as DateDay, data: Int32Array.from(values, (v) => (v === null ? 0 : days(String(v)))) });
    case 'timestamp':
      return makeData({
        ...base,
        type: type as Timestamp,
        data: BigInt64Array.from(values, (v) => (v === null ? 0n : seconds(String(v)))),
      });
    case 'int':
      return makeData({ ...base, type: type as Int64, data: BigInt64Array.from(values, (v) => (v === null ? 0n : BigInt(v as number))) });
    case 'float':
      return makeData({ ...base, type: type as Float64, data: Float64Array.from(values, (v) => (v === null ? 0 : Number(v))) });
    case 'bool': {
      const bits = new Uint8Array(Math.ceil(n / 8));
      values.forEach((v, i) => {
        if (v === true) bits[i >> 3] |= 1 << (i & 7);
      });
      return makeData({ ...base, type: type as Bool, data: bits });
    }
    case 'text': {
      const parts = values.map((v) => encoder.encode(v === null ? '' : String(v)));
      const offsets = new Int32Array(n + 1);
      parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
      const bytes = new Uint8Array(offsets[n]);
      parts.forEach((p, i) => bytes.set(p, offsets[i]));
      return makeData({ ...base, type: type as Utf8, valueOffsets: offsets, data: bytes });
    }
  }
}

/**
 * The Arrow IPC stream of `count` records: the schema, then one record batch whose column i
 * holds `value(i, r)` of each record r (none when `count` is 0: the schema alone).
 *
 * @example arrowStream([{ name: 'close', type: { kind: 'decimal', scale: 3 }, nullable: false }], 1, () => '10.50')
 */
export function arrowStream(
  columns: readonly ArrowColumn[],
  count: number,
  value: (column: number, record: number) => JsonValue,
): Uint8Array {
  const fields = columns.map((c) => new Field(c.name, arrowType(c.type), c.nullable));
  const schema = new Schema(fields);
  if (count === 0) return tableToIPC(new Table(schema), 'stream');
  const children = columns.map((c, i) =>
    columnData(
      c,
      Array.from({ length: count }, (_, r) => value(i, r)),
    ),
  );
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: count, nullCount: 0, children }));
  return tableToIPC(new Table([batch]), 'stream');
}
