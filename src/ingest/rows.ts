/**
 * Turns the records of one file into table rows of a dataset, checking every field (type,
 * enum, date, reference) and then the row (OHLC sanity, ordering, trading days). Problems name
 * the line, the column (by name, and by position in CSV) and what was expected.
 */
import { BAD } from '../datasets/columns.js';
import type { IngestContext } from './context.js';
import type { ColumnSpec, Dataset } from '../datasets/dataset.js';
import type { SourceRecord } from './source.js';

export interface RowError {
  line: number;
  column?: string;
  position?: number;
  message: string;
}

const show = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s);
};

export class RowReader {
  /** CSV: field position of each dataset column (-1: absent); null until the header is read. */
  private map: number[] | null = null;
  private width = 0;
  /** CSV: the optional columns the header leaves out (they keep their stored values, ingest/keep.ts); null when none. */
  private absent: number[] | null = null;

  constructor(
    private readonly ds: Dataset,
    private readonly ctx: IngestContext,
    readonly csv: boolean,
  ) {}

  get needsHeader(): boolean {
    return this.csv && this.map === null;
  }

  /** Reads a CSV header: every required column present, no unknown or repeated names. */
  header(rec: SourceRecord): RowError[] {
    const names = rec.fields!.map((f) => f.trim());
    const errors: RowError[] = [];
    const seen = new Set<string>();
    names.forEach((n, i) => {
      if (!(n in this.ds.ix))
        errors.push({
          line: rec.line,
          position: i + 1,
          column: n,
          message: `unknown column for ${this.ds.name}; expected one of ${this.ds.columns.map((c) => c.name).join(', ')}`,
        });
      else if (seen.has(n)) errors.push({ line: rec.line, position: i + 1, column: n, message: 'column repeated' });
      seen.add(n);
    });
    for (const c of this.ds.columns) {
      if (c.required && !seen.has(c.name))
        errors.push({ line: rec.line, column: c.name, message: 'required column missing from the header' });
    }
    this.map = this.ds.columns.map((c) => names.indexOf(c.name));
    this.width = names.length;
    const absent = this.ds.columns.flatMap((c, i) => (!c.required && this.map![i] < 0 ? [i] : []));
    this.absent = absent.length ? absent : null;
    return errors;
  }

  /**
   * The table row of a record (file columns, then derived ones), or its problems. `absent`: the
   * optional columns the record leaves out (a CSV header's, or fields missing from an NDJSON
   * record), given the column's empty value in `row` and to keep their stored values (ingest/keep.ts).
   */
  row(rec: SourceRecord): { row: unknown[]; absent: number[] | null } | { errors: RowError[] } {
    const cols = this.ds.columns;
    const vals: unknown[] = [];
    let errors: RowError[] | null = null;
    let absent = this.absent;
    if (rec.values) {
      vals.push(...rec.values);
    } else if (this.csv) {
      const fields = rec.fields!;
      if (fields.length !== this.width)
        return { errors: [{ line: rec.line, message: `expected ${this.width} fields as in the header, got ${fields.length}` }] };
      const map = this.map!;
      for (let i = 0; i < cols.length; i++) {
        const raw = map[i] < 0 ? '' : fields[map[i]];
        if (raw === '') {
          if (cols[i].required) errors = this.fail(errors, rec, i, `required: expected ${cols[i].expected}`);
          vals.push(cols[i].empty ?? null);
          continue;
        }
        const v = cols[i].parse(raw, this.ctx);
        if (v === BAD) errors = this.fail(errors, rec, i, `expected ${cols[i].expected}, got ${show(raw)}`);
        vals.push(v);
      }
    } else {
      const obj = rec.object!;
      for (const k in obj)
        if (!(k in this.ds.ix)) return { errors: [{ line: rec.line, column: k, message: `unknown field for ${this.ds.name}` }] };
      for (let i = 0; i < cols.length; i++) {
        if (!cols[i].required && obj[cols[i].name] === undefined) (absent ??= []).push(i);
        const v = this.json(cols[i], obj[cols[i].name]);
        if (typeof v === 'object' && v !== null) errors = this.fail(errors, rec, i, (v as { error: string }).error);
        vals.push(v);
      }
    }
    if (errors) return { errors };
    const problem = this.ds.rowCheck?.(vals, this.ctx);
    if (problem) return { errors: this.fail(null, rec, this.ds.ix[problem[0]], problem[1]) };
    if (this.ds.derive) {
      const d = this.ds.derive(vals, this.ctx);
      for (let k = 0; k < d.length; k++) vals.push(d[k]);
    }
    return { row: vals, absent };
  }

  private fail(errors: RowError[] | null, rec: SourceRecord, i: number, message: string): RowError[] {
    const out = errors ?? [];
    out.push({ line: rec.line, column: this.ds.columns[i].name, position: this.map ? this.map[i] + 1 : undefined, message });
    return out;
  }

  /** A JSON value as the stored value (the column's `empty`, else null, when empty), or the problem. */
  private json(c: ColumnSpec, v: unknown): unknown {
    if (v === undefined || v === null || v === '') return c.required ? { error: `required: expected ${c.expected}` } : (c.empty ?? null);
    let raw: string;
    if (typeof v === 'string') raw = v;
    else if (typeof v === 'number' && c.json === 'number' && Number.isSafeInteger(v)) raw = String(v);
    else return { error: `expected ${c.expected}${c.json === 'string' ? ' as a JSON string' : ''}, got ${show(v)}` };
    const out = c.parse(raw, this.ctx);
    return out === BAD ? { error: `expected ${c.expected}, got ${show(v)}` } : out;
  }
}

/** `file:line:position: column: message` (position only for CSV); `unit` 'record ' for binary files (`file:record 5: …`). */
export function formatError(file: string, e: RowError, unit = ''): string {
  const where = `${file}:${unit}${e.line}${e.position !== undefined && e.position > 0 ? `:${e.position}` : ''}`;
  return `${where}: ${e.column !== undefined ? `${e.column}: ` : ''}${e.message}`;
}
