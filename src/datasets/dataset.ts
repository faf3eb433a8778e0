/**
 * A dataset declared once (one table an operator loads): its columns in API units (file name,
 * table column, type and unit, meaning), natural key, row checks and derived table columns,
 * and, for a dataset served as its rows, the API record it is. From the declaration come the
 * store's table type (`TableOf`), ingest and export (`compile`), the docs of both, the API
 * record schema and writer (http/schemas/declared.ts) and a keyset reader
 * (store/readers/keyset.ts). docs/architecture.md, "Datasets".
 */
import { formatScaled, PRICE_SCALE } from '../lib/decimal.js';
import type { ColumnType } from './columns.js';
import type { RowContext } from './context.js';
import type { InstrumentKind } from '../market/kinds.js';

export interface ColumnSpec<
  N extends string = string,
  C extends string = string,
  V extends string | number = string | number,
  R extends boolean = boolean,
> extends ColumnType<V> {
  /** Field name in files and in the API record. */
  name: N;
  /** Table column it is stored in. */
  column: C;
  required: R;
  /** Meaning and unit, for the docs and the API record's description. */
  doc: string;
}

/** A row-level problem: the column it is reported at and what was expected. */
export type Problem = [column: string, message: string];
export type Row = unknown[];
/** Index of each column (by file name) in a parsed row. */
export type Ix = Record<string, number>;

/** The API record of a dataset served as its rows: the schema's name and description; `omit`: columns not in it. */
export interface RecordDecl {
  id: string;
  description?: string;
  omit?: readonly string[];
}

/**
 * How the API serves a dataset's rows as a collection (http/routes/fundamentals/served.ts
 * registers it; its schemas, file shape, change scope and client methods follow).
 */
export interface ServeDecl {
  /** How a request reaches the rows: `instrument`, one instrument's rows in natural-key order (the key's first column). */
  access: 'instrument';
  /** The instrument kinds served: each gives the path prefix (/equities, /indices, /funds) and the operation's tag. */
  kinds: readonly InstrumentKind[];
  operationId: string;
  /** The path's last segment, under /api/v1/{kind path}/{instrument_id}/. */
  segment: string;
  summary: string;
  description: string;
  /** The date column from/to select on (inclusive), if the operation takes them. */
  window?: string;
  /**
   * `date` too, not with from/to: `day`, the rows of that day (a daily dataset's record of the
   * day); `in-force`, the latest row on or before it (the state a change dataset says held then).
   */
  date?: 'day' | 'in-force';
  /** The collection response's schema name (its items: the record, `record.id`). */
  response: string;
}

export interface DatasetDef<Cols extends readonly ColumnSpec[] = readonly ColumnSpec[], T extends string = string> {
  name: string;
  table: T;
  doc: string;
  columns: Cols;
  /** Natural key, as file column names. */
  key: readonly string[];
  /**
   * The key's last column when it tells versions of one record apart (a statement's
   * announce_date: a restatement is another version of its period, kept beside the first).
   * The key without it names the record: the API serves each record's latest version (on or
   * before a date with `as_of`), its cursor is that shorter key, and point-in-time reads take
   * the latest version announced by their day.
   */
  versions?: string;
  /** Checks across the columns of a valid row, compiled against the column positions. */
  check?: (ix: Ix) => (row: Row, ctx: RowContext) => Problem | null;
  /** Table columns computed from a valid row (may register it in the context: new instruments, days). */
  derived?: { columns: string[]; doc: string; values: (ix: Ix) => (row: Row, ctx: RowContext) => unknown[] };
  /** The API record, when the API serves the rows as they are (fundamentals); unset where query/ computes records. */
  record?: RecordDecl;
  /** The collection that serves the rows as `record`, when it is one generated from the declaration. */
  serve?: ServeDecl;
  /**
   * What reads the rows besides the dataset's own collection (query/change-scope.ts: which
   * pages a change of it leaves valid): `market`, the market-wide days (cross-sections, breadth,
   * pools). Of a dataset stored as declared (datasets/registry.ts DECLARED); none: its own pages only.
   */
  feeds?: readonly 'market'[];
}

/** The stored value of a column: its type's, or null when the column is optional. */
type Stored<C> = C extends ColumnSpec<string, string, infer V, infer R> ? (R extends true ? V : V | null) : never;

/** The store's row type of a dataset's table (derived columns not included). */
export type TableOf<D extends { columns: readonly ColumnSpec[] }> = {
  [C in D['columns'][number] as C['column']]: Stored<C>;
};

/** Declares a dataset, keeping its column types for `TableOf`. */
export const declare = <const D extends DatasetDef>(def: D): D => def;

export interface Dataset extends DatasetDef {
  ix: Ix;
  target: { table: string; columns: string[]; key: string[] };
  /** Table columns of the file columns, in file order (what export selects). */
  selectColumns: string[];
  /** Table key columns, in order (export's order). */
  orderColumns: string[];
  rowCheck: ((row: Row, ctx: RowContext) => Problem | null) | null;
  derive: ((row: Row, ctx: RowContext) => unknown[]) | null;
}

/** A compiled declaration that keeps the declaration's own types (its columns, record). */
export type Compiled<D extends DatasetDef> = Omit<Dataset, keyof DatasetDef> & D;

type ColOpts = { optional?: boolean; column?: string };

/** A column: `name` in files, `column` in the table (default the same). */
export function col<const N extends string, V extends string | number, const O extends ColOpts = {}>(
  name: N,
  type: ColumnType<V>,
  doc: string,
  opts?: O,
): ColumnSpec<N, O extends { column: infer C extends string } ? C : N, V, O extends { optional: true } ? false : true> {
  return { ...type, name, column: (opts?.column ?? name) as never, required: !opts?.optional as never, doc };
}

export function compile(def: DatasetDef): Dataset {
  const ix: Ix = Object.fromEntries(def.columns.map((c, i) => [c.name, i]));
  const selectColumns = def.columns.map((c) => c.column);
  const orderColumns = def.key.map((k) => {
    const c = def.columns[ix[k]];
    if (!c) throw new Error(`dataset ${def.name}: key column ${k} is not a column`);
    return c.column;
  });
  if (def.versions !== undefined && def.key.at(-1) !== def.versions)
    throw new Error(`dataset ${def.name}: the version column ${def.versions} is not the key's last`);
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
export function all(...checks: ((r: Row, ctx: RowContext) => Problem | null)[]) {
  return (r: Row, ctx: RowContext): Problem | null => {
    for (const c of checks) {
      const p = c(r, ctx);
      if (p) return p;
    }
    return null;
  };
}
