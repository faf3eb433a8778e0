/**
 * The declarative shape of a dataset (one table an operator loads): its file columns in API
 * units, natural key, row checks and derived table columns. `compile` turns a definition into
 * what ingest, export and the docs use.
 */
import type { Database } from '../store/schema.js';
import { formatScaled, PRICE_SCALE } from '../lib/decimal.js';
import type { UpsertTarget } from '../store/types.js';
import type { ColumnType } from './columns.js';
import type { IngestContext } from './context.js';

export type TableName = keyof Database & string;

export interface ColumnSpec extends ColumnType {
  /** Field name in files (the API's name). */
  name: string;
  /** Table column it is stored in. */
  column: string;
  required: boolean;
  /** Meaning and unit, for the docs. */
  doc: string;
}

/** A row-level problem: the column it is reported at and what was expected. */
export type Problem = [column: string, message: string];
export type Row = unknown[];
/** Index of each column (by file name) in a parsed row. */
export type Ix = Record<string, number>;

export interface DatasetDef {
  name: string;
  table: TableName;
  doc: string;
  columns: ColumnSpec[];
  /** Natural key, as file column names. */
  key: string[];
  /** Checks across the columns of a valid row, compiled against the column positions. */
  check?: (ix: Ix) => (row: Row, ctx: IngestContext) => Problem | null;
  /** SQL condition on the table's rows (named by the table) that export keeps: rows not loaded are left out. */
  exportWhere?: string;
  /** Table columns computed from a valid row (may register it in the context: new instruments, days). */
  derived?: { columns: string[]; doc: string; values: (ix: Ix) => (row: Row, ctx: IngestContext) => unknown[] };
}

export interface Dataset extends DatasetDef {
  ix: Ix;
  target: UpsertTarget;
  /** Table columns of the file columns, in file order (what export selects). */
  selectColumns: string[];
  /** Table key columns, in order (export's order). */
  orderColumns: string[];
  rowCheck: ((row: Row, ctx: IngestContext) => Problem | null) | null;
  derive: ((row: Row, ctx: IngestContext) => unknown[]) | null;
}

/** A column: `name` in files, `column` in the table (default the same). */
export function col(name: string, type: ColumnType, doc: string, opts: { optional?: boolean; column?: string } = {}): ColumnSpec {
  return { ...type, name, column: opts.column ?? name, required: !opts.optional, doc };
}

export function compile(def: DatasetDef): Dataset {
  const ix: Ix = Object.fromEntries(def.columns.map((c, i) => [c.name, i]));
  const selectColumns = def.columns.map((c) => c.column);
  const orderColumns = def.key.map((k) => {
    const c = def.columns[ix[k]];
    if (!c) throw new Error(`dataset ${def.name}: key column ${k} is not a column`);
    return c.column;
  });
  return {
    ...def,
    ix,
    selectColumns,
    orderColumns,
    target: { table: def.table, columns: [...selectColumns, ...(def.derived?.columns ?? [])], key: orderColumns },
    rowCheck: def.check ? def.check(ix) : null,
    derive: def.derived ? def.derived.values(ix) : null,
  };
}

function px(v: number): string {
  return formatScaled(v, PRICE_SCALE, 3);
}

/** OHLC sanity of a bar-like row: low <= open, close <= high (prices are > 0 by type). */
export function ohlcCheck(ix: Ix, names: { open: string; high: string; low: string; close: string }) {
  const o = ix[names.open],
    h = ix[names.high],
    l = ix[names.low],
    c = ix[names.close];
  return (r: Row): Problem | null => {
    const open = r[o] as number,
      high = r[h] as number,
      low = r[l] as number,
      close = r[c] as number;
    if (high < open || high < close || high < low) {
      return [names.high, `expected high >= open, close and low (open ${px(open)}, high ${px(high)}, low ${px(low)}, close ${px(close)})`];
    }
    if (low > open || low > close)
      return [names.low, `expected low <= open and close (open ${px(open)}, low ${px(low)}, close ${px(close)})`];
    return null;
  };
}

/** `later` is on or after `earlier` when both are present. */
export function orderCheck(ix: Ix, earlier: string, later: string) {
  const a = ix[earlier],
    b = ix[later];
  return (r: Row): Problem | null =>
    r[a] !== null && r[b] !== null && (r[b] as number) < (r[a] as number) ? [later, `expected ${later} on or after ${earlier}`] : null;
}

/** The first problem of several checks. */
export function all(...checks: ((r: Row, ctx: IngestContext) => Problem | null)[]) {
  return (r: Row, ctx: IngestContext): Problem | null => {
    for (const c of checks) {
      const p = c(r, ctx);
      if (p) return p;
    }
    return null;
  };
}
