/**
 * A Workspace table's columns, read from the API record schema a widget shows (schemas/), so
 * that nothing about a field is written twice: its name, what kind of value it is, and its
 * description (the column's tooltip).
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { ColumnDef } from './workspace-schema.js';

/** What a record field holds, as the widget shows it. */
export type FieldKind = 'decimal' | 'integer' | 'date' | 'text';

const DECIMAL_PATTERN = '^-?\\d+(\\.\\d+)?$';

/** The kind of a field's schema: a decimal string, an integer, a date, or text (a timestamp, an id, an enum). */
export function fieldKind(s: TSchema): FieldKind {
  const alts: TSchema[] = s.anyOf ? (s.anyOf as TSchema[]).filter((a) => a.type !== 'null') : [s];
  const one = alts[0];
  if (one.type === 'string' && one.pattern === DECIMAL_PATTERN) return 'decimal';
  if (one.type === 'integer' || one.type === 'number') return 'integer';
  if (one.type === 'string' && one.format === 'date') return 'date';
  return 'text';
}

/** `total_market_value` -> `Total market value`. */
const header = (field: string) => field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');

/**
 * The columnsDefs of `fields` of `record` (every field when none are named), in that order:
 * numbers for decimals and integers (charted as series), dateString for dates (charted as
 * time), text for the rest (charted as categories).
 */
export function columnsOf(record: TObject, fields: readonly string[] = Object.keys(record.properties)): ColumnDef[] {
  return fields.map((field) => {
    const s = record.properties[field];
    if (s === undefined) throw new Error(`${String(record.$id)} has no field ${field}`);
    const kind = fieldKind(s);
    const description = s.description ?? (s.anyOf as TSchema[] | undefined)?.find((a) => a.description)?.description;
    return {
      field,
      headerName: header(field),
      ...(description ? { headerTooltip: description } : {}),
      cellDataType: kind === 'decimal' || kind === 'integer' ? 'number' : kind === 'date' ? 'dateString' : 'text',
      chartDataType: kind === 'decimal' || kind === 'integer' ? 'series' : kind === 'date' ? 'time' : 'category',
      ...(kind === 'integer' ? { formatterFn: 'int' as const } : {}),
    };
  });
}
