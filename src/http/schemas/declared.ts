/**
 * The API record of a dataset served as its rows (datasets/dataset.ts, `record`): one field per
 * declared column, in declaration order (less `record.omit`), typed by the column's type and
 * described by its doc. Decimals are exact decimal strings, dates `YYYY-MM-DD`, optional columns
 * nullable.
 */
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { ColumnSpec, DatasetDef, RecordDecl } from '../../datasets/dataset.js';
import { DateString, Decimal, NullableDate, NullableDecimal, Timestamp } from './common.js';

/** A dataset with an API record. */
export type RecordDataset = DatasetDef & { record: RecordDecl };

/** The columns that are fields of the record, in order. */
export const recordColumns = (d: RecordDataset): readonly ColumnSpec[] => d.columns.filter((c) => !d.record.omit?.includes(c.name));

function fieldSchema(c: ColumnSpec): TSchema {
  const description = c.doc;
  const orNull = (s: TSchema) => (c.required ? s : Type.Union([s, Type.Null()], { description }));
  if (c.type === 'date') return c.required ? DateString(description) : NullableDate(description);
  if (c.type === 'timestamp') return orNull(Timestamp(description));
  if (c.scale !== undefined) return c.required ? Decimal(description, c.scale) : NullableDecimal(description, c.scale);
  if (c.type === 'integer') return c.required ? Type.Integer({ description }) : orNull(Type.Integer());
  if (c.type === 'enum') return orNull(Type.Unsafe<string>({ type: 'string', enum: [...(c.values ?? [])], description }));
  if (c.type === 'text' || c.type === 'instrument_id') return c.required ? Type.String({ description }) : orNull(Type.String());
  throw new Error(`column ${c.name}: no API type for ${c.type}`);
}

/** The record schema of `d`, named `d.record.id` (registered once, schemas/registry.ts); `extra`: fields the API adds after the columns'. */
export function recordSchema(d: RecordDataset, extra: TProperties = {}): TObject {
  const fields = { ...Object.fromEntries(recordColumns(d).map((c) => [c.name, fieldSchema(c)])), ...extra };
  return Type.Object(fields, {
    $id: d.record.id,
    ...(d.record.description ? { description: d.record.description } : {}),
    additionalProperties: false,
  });
}
