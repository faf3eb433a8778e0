import type { JsonBytes } from './json-bytes.js';
import { asciiJson, latin1 } from './text.js';

/**
 * A field of a record writer: its key and how its value is written. Getters take the record and
 * the writer's context (what the records share: the instrument's id) and return null for JSON
 * null. `json` is a constant, already JSON; `scaled` an integer scaled by 10^scale written as a
 * decimal string with `digits` decimals; `date` yyyymmdd as "YYYY-MM-DD".
 */
export type FieldSpec<R, C = undefined> = { key: string } & (
  | { json: string }
  | { string: (r: R, c: C) => string | null }
  | { date: (r: R, c: C) => number | null }
  | { boolean: (r: R, c: C) => boolean }
  | { integer: (r: R, c: C) => number | null }
  | { scaled: (r: R, c: C) => number | null; scale: number; digits: number }
);

/** Writes a record `r` in context `c`. */
export type RecordWriter<R, C = undefined> = (w: JsonBytes, r: R, c: C) => void;

const NULL = latin1('null'),
  TRUE = latin1('true'),
  FALSE = latin1('false');

/** The write of one field's value (constants have none). */
function fieldValue<R, C>(f: FieldSpec<R, C>): RecordWriter<R, C> | null {
  if ('json' in f) return null;
  if ('string' in f) {
    const g = f.string;
    return (w, r, c) => {
      const v = g(r, c);
      if (v === null) w.bytes(NULL);
      else w.string(v);
    };
  }
  if ('date' in f) {
    const g = f.date;
    return (w, r, c) => {
      const v = g(r, c);
      if (v === null) w.bytes(NULL);
      else {
        w.byte(34);
        w.date(v);
        w.byte(34);
      }
    };
  }
  if ('boolean' in f) {
    const g = f.boolean;
    return (w, r, c) => w.bytes(g(r, c) ? TRUE : FALSE);
  }
  if ('integer' in f) {
    const g = f.integer;
    return (w, r, c) => {
      const v = g(r, c);
      if (v === null) w.bytes(NULL);
      else if (v < 0) {
        w.byte(45);
        w.uint(-v);
      } else w.uint(v);
    };
  }
  const { scaled: g, scale, digits } = f;
  return (w, r, c) => {
    const v = g(r, c);
    if (v === null) w.bytes(NULL);
    else {
      w.byte(34);
      w.scaled(v, scale, digits);
      w.byte(34);
    }
  };
}

/**
 * Compiles a writer of records with `fields`, in that order (give them in the route schema's
 * order): keys and constants are pre-encoded runs of bytes between the values. One writer
 * serves every instrument (its id comes in the context), so none is kept per instrument.
 */
export function recordWriter<R, C = undefined>(fields: FieldSpec<R, C>[]): RecordWriter<R, C> {
  const runs: Buffer[] = [],
    values: RecordWriter<R, C>[] = [];
  let text = '{';
  fields.forEach((f, i) => {
    text += `${i ? ',' : ''}${asciiJson(f.key)}:`;
    const value = fieldValue(f);
    if (value === null) {
      text += (f as { json: string }).json;
      return;
    }
    runs.push(latin1(text));
    values.push(value);
    text = '';
  });
  const last = latin1(`${text}}`),
    n = values.length;
  return (w, r, c) => {
    for (let i = 0; i < n; i++) {
      w.bytes(runs[i]);
      values[i](w, r, c);
    }
    w.bytes(last);
  };
}
