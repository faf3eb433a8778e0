/**
 * The columns of a collection's Arrow answer (docs/api.md, "Arrow"): the fields of its JSON
 * record, flat (a nested object's fields as `parent.child`, an indicator point's `values` a
 * column per documented key, an array its JSON text), each typed by the record's schema: a
 * decimal by the scale its schema declares (schemas/common.ts, `Decimal`: a dataset unit's, e.g.
 * a price's 3), a date as date32, a date-time as timestamp[s, Asia/Shanghai], an integer as
 * int64, a boolean as bool, text as utf8 (a union of several types, `"all"` or an array: its
 * JSON text unless a string); nullable where the schema allows null.
 */
import type { TSchema } from '@sinclair/typebox';
import { ALL_SCHEMAS } from './schemas/registry.js';
import { SCALE } from './schemas/common.js';
import type { ArrowColumn, ArrowKind, JsonValue } from '../render/arrow.js';
import { DECIMALS as INDICATOR_DECIMALS } from '../indicators/format.js';
import { INDICATORS, isIndicatorId } from '../indicators/registry.js';

/** A column of an Arrow answer and how its value comes from a JSON record. */
export interface ArrowField extends ArrowColumn {
  value(record: unknown): JsonValue;
}

const BY_ID = new Map<string, TSchema>(ALL_SCHEMAS.map((s) => [s.$id as string, s]));
const resolve = (s: TSchema): TSchema => (typeof s.$ref === 'string' ? (BY_ID.get(s.$ref) ?? s) : s);

/** Keys of a map field (`values`) that become columns, with their scale. */
type Maps = Record<string, { keys: readonly string[]; scale: number }>;

const TEXT = { type: 'string' } as unknown as TSchema;
const dig = (r: any, at: readonly string[]): unknown => at.reduce((v, k) => (v == null ? undefined : v[k]), r);

/**
 * A field schema without its `null` alternative, whether it had one, and whether it is a union
 * of several (`union`: a text column, a value other than a string as its JSON text).
 */
function unwrap(s: TSchema): { schema: TSchema; nullable: boolean; union: boolean } {
  const any = s.anyOf as TSchema[] | undefined;
  if (!any) return { schema: resolve(s), nullable: false, union: false };
  const rest = any.filter((a) => a.type !== 'null');
  const nullable = rest.length < any.length;
  // A union of a union and null.
  if (rest.length === 1 && rest[0].anyOf) {
    const inner = unwrap(rest[0]);
    return { ...inner, nullable: nullable || inner.nullable };
  }
  // A union of literals (an enum written as one) is text; so is one of a string and an array (`instruments`: `all` or ids).
  return { schema: rest.length === 1 ? resolve(rest[0]) : TEXT, nullable, union: rest.length > 1 };
}

/** A value of a union's text column: a string as it is, anything else (an array, a number) as its JSON. */
const unionText = (v: unknown): JsonValue => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** The Arrow type of a (non-null) field schema, or null for an object to flatten. */
function kindOf(s: TSchema): ArrowKind | null {
  const scale = (s as { [SCALE]?: number })[SCALE];
  if (scale !== undefined) return { kind: 'decimal', scale };
  if (s.type === 'object' && s.properties) return null;
  if (s.type === 'string' && s.format === 'date') return { kind: 'date' };
  if (s.type === 'string' && s.format === 'date-time') return { kind: 'timestamp' };
  if (s.type === 'integer') return { kind: 'int' };
  if (s.type === 'number') return { kind: 'float' };
  if (s.type === 'boolean') return { kind: 'bool' };
  return { kind: 'text' };
}

/** The columns of an object schema's fields, in its order (`path`: where the object is in the record). */
function fieldsOf(schema: TSchema, maps: Maps, path: string[] = [], parentNullable = false): ArrowField[] {
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, TSchema>).flatMap(([key, raw]): ArrowField[] => {
    const at = [...path, key];
    const name = at.join('.');
    const map = maps[key];
    if (map)
      return map.keys.map((k) => ({
        name: `${name}.${k}`,
        type: { kind: 'decimal', scale: map.scale },
        nullable: true,
        value: (r) => (dig(r, [...at, k]) ?? null) as JsonValue,
      }));
    const { schema: s, nullable: orNull, union } = unwrap(raw);
    const nullable = orNull || parentNullable || !required.has(key);
    if (union) return [{ name, type: { kind: 'text' }, nullable, value: (r) => unionText(dig(r, at)) }];
    const type = kindOf(s);
    if (type === null) return fieldsOf(s, maps, at, nullable);
    if (s.type === 'array' || (s.type === 'object' && !s.properties))
      return [{ name, type: { kind: 'text' }, nullable, value: (r) => JSON.stringify(dig(r, at) ?? null) }];
    return [{ name, type, nullable, value: (r) => (dig(r, at) ?? null) as JsonValue }];
  });
}

/** The record schema of a collection's response schema (`{data: [Record]}`, by reference or not). */
export function recordOf(response: TSchema): TSchema {
  const items = (resolve(response).properties as { data?: { items?: TSchema } } | undefined)?.data?.items;
  if (!items) throw new Error(`${String(response.$id ?? response.$ref)} is not a collection response`);
  return resolve(items);
}

const cache = new WeakMap<TSchema, ArrowField[]>();

/**
 * The Arrow columns of the records of a collection whose response schema is `response`; an
 * indicator point's values are the columns `values.<key>` of the indicator `params.indicator`.
 *
 * @example arrowFields(BarCollectionResponse, {}).map((c) => c.name) // ['instrument_id', 'interval', …, 'amount']
 */
export function arrowFields(response: TSchema, params: Record<string, unknown>): ArrowField[] {
  const record = recordOf(response);
  const id = String(params.indicator);
  if (record.$id === 'TechnicalIndicatorPoint')
    return fieldsOf(record, { values: { keys: isIndicatorId(id) ? INDICATORS[id].keys : [], scale: INDICATOR_DECIMALS } });
  let fields = cache.get(record);
  if (fields === undefined) {
    fields = fieldsOf(record, {});
    cache.set(record, fields);
  }
  return fields;
}
