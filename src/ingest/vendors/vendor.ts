/**
 * Vendor layouts (docs/ingest.md, "Vendor formats"): each reads one vendor's file and yields
 * the records of a canonical dataset in API units (decimal strings, shares, CNY), which then go
 * through the same row validation and upsert as a canonical NDJSON record. A layout converts
 * units and skips what its vendor writes that is not a row of the dataset (reported, counted per
 * reason); it never validates what the dataset's columns check anyway.
 */
import { basename } from 'node:path';
import { ID_RE } from '../../datasets/columns.js';
import type { IngestContext } from '../context.js';
import type { Dataset } from '../../datasets/dataset.js';
import { IngestIOError, type Encoding, type SourceRecord } from '../source.js';
import { Bad, csvFile, type Converted, type FilePart, type Get } from './vendor-csv.js';
import { addDays, formatDate } from '../../lib/time.js';
import { MARKET_OF, normalId } from '../../market/ids.js';

export { Bad, csvFile, push, type Converted, type FilePart, type Get } from './vendor-csv.js';

/** What the command says about a vendor file: the instrument and markets it does not name itself. */
export interface VendorOptions {
  instrument?: string;
  markets?: string[];
  /** Bars dated on a day the market was closed are skipped and counted instead of refused (`mds ingest --tdx`: Tongdaxin writes weekend records for some funds). */
  skipClosedDays?: boolean;
  /**
   * Several files read as one export, in this order, each in its own encoding (`mds ingest
   * --tushare`: an API's files, such as daily_basic per date, which a layout reading the whole
   * export orders and compares across); their records name their file (SourceRecord.file).
   * Without it, the input's `path` alone.
   */
  parts?: FilePart[];
  /** Binary layouts: only the bytes [from, to) of the file (`mds ingest --tdx` again: the records it has not loaded). */
  range?: { from: number; to: number };
  /** The gbbq: only the records of these instrument ids (`mds ingest --tdx` again: the codes of files new to the store). */
  only?: ReadonlySet<string>;
}

/** Rows a layout skipped (per reason) and what it decided on its own (inferred instrument, widened bars). */
export class VendorReport {
  readonly skipped = new Map<string, number>();
  readonly notes: string[] = [];
  private readonly adjusted = new Map<string, string[]>();
  private adjustedCount = new Map<string, number>();
  private readonly skippedAt = new Map<string, string[]>();

  /** A row skipped for `reason`; with `where`, the first 20 places are listed. */
  skip(reason: string, where?: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
    if (where !== undefined) firstFew(this.skippedAt, reason, where, 20);
  }
  note(text: string): void {
    this.notes.push(text);
  }
  /** A value changed for a stated reason at `where` (the first few places are listed). */
  adjust(reason: string, where: string): void {
    firstFew(this.adjusted, reason, where);
    this.adjustedCount.set(reason, (this.adjustedCount.get(reason) ?? 0) + 1);
  }

  /** Every note, adjustment and skip count, one line each. */
  lines(): string[] {
    const out = [...this.notes];
    for (const [reason, places] of this.adjusted) {
      const n = this.adjustedCount.get(reason)!;
      out.push(`${reason} on ${n} row${n === 1 ? '' : 's'}${listed(places, n)}`);
    }
    for (const [reason, n] of this.skipped) {
      const places = this.skippedAt.get(reason);
      out.push(`skipped ${n} row${n === 1 ? '' : 's'}: ${reason}${places ? listed(places, n) : ''}`);
    }
    return out;
  }
}

/** Keeps the first `max` places of each reason. */
function firstFew(m: Map<string, string[]>, reason: string, where: string, max = 5): void {
  const list = m.get(reason) ?? [];
  if (list.length < max) list.push(where);
  m.set(reason, list);
}
/** ` (a, b, …)`: the places kept of `n`. */
const listed = (places: string[], n: number) => ` (${places.join(', ')}${n > places.length ? ', …' : ''})`;

export interface VendorInput extends VendorOptions {
  path: string;
  /** The dataset the records are for (a layout may adapt to its columns). */
  dataset: Dataset;
  ctx: IngestContext;
  report: VendorReport;
  onBytes: (n: number) => void;
  /** The text encoding of the file (`--encoding`; binary layouts ignore it). */
  encoding?: Encoding;
}

/** One vendor layout: a format name and the dataset its files load into. */
export interface Layout {
  format: string;
  dataset: string;
  /** Binary records: errors name `file:record N` instead of a line. */
  binary?: boolean;
  read(input: VendorInput): AsyncGenerator<SourceRecord[]>;
}

/**
 * The records of a vendor CSV file, or of each of its parts in turn (VendorOptions.parts, each
 * with its header, records naming their file): the header must name every column of `need`;
 * each later line is converted by `convert` (a Bad it throws is that line's error). Uses the
 * canonical streamed CSV reader.
 */
export async function* vendorCsv(
  input: VendorInput,
  need: readonly string[],
  convert: (get: Get, line: number, file?: string) => Converted,
): AsyncGenerator<SourceRecord[]> {
  if (!input.parts) {
    yield* csvFile({ path: input.path, encoding: input.encoding }, need, convert, input.onBytes);
    return;
  }
  // Bytes read so far, over the parts (progress).
  let before = 0;
  for (const part of input.parts) {
    let read = 0;
    const records = csvFile(
      part,
      need,
      (get, line) => convert(get, line, part.path),
      (n) => input.onBytes(before + (read = n)),
    );
    for await (const batch of records) {
      for (const r of batch) r.file = part.path;
      yield batch;
    }
    before += read;
  }
}

// ---- units ----------------------------------------------------------------------------------

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * `s` × 10^shift as exact decimal text with at most `scale` decimals (trailing zeros dropped),
 * or null when `s` is not a plain decimal or the result needs more decimals. No float involved:
 * the decimal point moves.
 */
export function shifted(s: string, shift: number, scale: number): string | null {
  const m = DECIMAL.exec(s);
  if (!m || (m[2] === '' && !m[3])) return null;
  let int = m[2],
    frac = m[3] ?? '';
  if (shift > 0) {
    frac = frac.padEnd(shift, '0');
    int += frac.slice(0, shift);
    frac = frac.slice(shift);
  } else if (shift < 0) {
    int = int.padStart(-shift + 1, '0');
    frac = int.slice(shift) + frac;
    int = int.slice(0, shift);
  }
  int = int.replace(/^0+(?=\d)/, '') || '0';
  frac = frac.replace(/0+$/, '');
  if (frac.length > scale) return null;
  const sign = m[1] === '-' && /[1-9]/.test(int + frac) ? '-' : '';
  return sign + int + (frac ? `.${frac}` : '');
}

/** A vendor decimal converted exactly (see shifted), or a Bad naming the vendor column. */
export function dec(get: Get, column: string, scale: number, shift = 0, unit = ''): string {
  const v = get(column);
  const out = shifted(v, shift, scale);
  if (out === null) {
    const how = shift === 0 ? '' : ` (× 10^${shift}${unit ? ` to ${unit}` : ''})`;
    throw new Bad(column, `expected a decimal exact to ${scale} decimal${scale === 1 ? '' : 's'}${how}, got ${JSON.stringify(v)}`);
  }
  return out;
}

/**
 * A vendor decimal rounded half-up to `scale` decimals when it has more (float32 artifacts such as
 * stockstats' amount 1446880.625), each rounding reported at `where`. Exact text arithmetic.
 */
export function decRounded(get: Get, column: string, scale: number, report: VendorReport, where: string): string {
  const v = get(column);
  const r = roundedHalfUp(v, 0, scale);
  if (r === null) throw new Bad(column, `expected a non-negative decimal, got ${JSON.stringify(v)}`);
  if (r.rounded) report.adjust(`${column} rounded half-up to ${scale} decimals`, where);
  return r.text;
}

/**
 * A non-negative decimal text × 10^shift rounded half-up to `scale` decimals, exactly (text
 * arithmetic), and whether it had more; null when `v` is not a non-negative decimal.
 */
export function roundedHalfUp(v: string, shift: number, scale: number): { text: string; rounded: boolean } | null {
  const exact = shifted(v, shift, scale);
  if (exact !== null) return exact.startsWith('-') ? null : { text: exact, rounded: false };
  const all = shifted(v, shift, 64);
  if (all === null || all.startsWith('-')) return null;
  const [int, frac] = all.split('.');
  const units = BigInt(int + frac.slice(0, scale)) + (frac.charCodeAt(scale) >= 53 ? 1n : 0n);
  return { text: shifted(units.toString(), -scale, scale)!, rounded: true };
}

/** Lots of 100 shares → shares (a whole number), exactly. */
export const lotsToShares = (get: Get, column: string) => dec(get, column, 0, 2, 'shares');

/** `YYYYMMDD` → `YYYY-MM-DD` (the dataset's date column checks the calendar). */
export function ymd(get: Get, column: string, optional = false): string {
  const v = get(column);
  if (optional && v === '') return '';
  if (!/^\d{8}$/.test(v)) throw new Bad(column, `expected a date YYYYMMDD, got ${JSON.stringify(v)}`);
  return `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6)}`;
}

/** A per-10 figure (per 10 shares held) as per share: the point moves one place left. */
export const per10 = (get: Get, column: string, scale: number) => dec(get, column, scale, -1);

// ---- bars -----------------------------------------------------------------------------------

export const PRICES = ['open', 'high', 'low', 'close'] as const;
/** The vendor's open, high, low and close columns as exact decimals (3 decimals at most). */
export const prices = (get: Get) => Object.fromEntries(PRICES.map((c) => [c, dec(get, c, 3)])) as Record<(typeof PRICES)[number], string>;

/** Price text → integer thousandths, for comparisons (texts are exact decimals already). */
const milli = (s: string) => Number(shifted(s, 3, 0));

/**
 * A bar record. Vendor bars whose open or close lies outside their own high–low range (TDX's SSE
 * Composite has sixteen such days in 1991–95, one with high below low) get high or low widened
 * to include them (high = max(open, high, close), low = min(open, low, close)), reported: open,
 * close, volume and amount stay as the vendor has them.
 */
export function bar(
  report: VendorReport,
  where: string,
  key: Record<string, string>,
  p: { open: string; high: string; low: string; close: string; volume: string; amount: string },
): Record<string, string> {
  let { high, low } = p;
  const o = milli(p.open),
    c = milli(p.close),
    h = milli(high),
    l = milli(low);
  if (o > h || c > h || o < l || c < l) {
    if (Math.max(o, c) > h) high = o > c ? p.open : p.close;
    if (Math.min(o, c) < l) low = o < c ? p.open : p.close;
    report.adjust('high/low widened to include open and close', where);
  }
  return { ...key, open: p.open, high, low, close: p.close, volume: p.volume, amount: p.amount };
}

// ---- instruments and days -------------------------------------------------------------------

export { normalId };

/**
 * The instrument of a file that does not name it in its rows: `--instrument`, else the one its
 * name gives (`sh600000.day`, `tdx_sh600000_daily_raw.csv`, `sina_000002SZ_…`, or a bare code
 * like `stockstats_002032_daily.csv` when exactly one known instrument has it), noted.
 */
export function fileInstrument(input: VendorInput): string {
  if (input.instrument) return input.instrument;
  const name = basename(input.path);
  const found = new Set<string>();
  for (const m of name.matchAll(/(?<![a-z])(sh|sz|bj)(\d{6})(?!\d)/gi)) found.add(`${m[2]}.${m[1].toUpperCase()}`);
  for (const m of name.matchAll(/(?<!\d)(\d{6})\.?(SH|SZ|BJ|XSHG|XSHE)(?![a-z])/gi)) found.add(`${m[1]}.${MARKET_OF[m[2].toUpperCase()]}`);
  let how = 'the file name';
  if (found.size === 0) {
    for (const m of name.matchAll(/(?<!\d)(\d{6})(?!\d)/g)) for (const id of input.ctx.idsWithCode(m[1])) found.add(id);
    how = "the file name's code (the one known instrument with it)";
  }
  if (found.size !== 1 || !ID_RE.test([...found][0])) {
    throw new IngestIOError(
      `${input.path}: the file does not name its instrument${found.size > 1 ? ` unambiguously (${[...found].join(', ')})` : ''}; give --instrument CODE.MARKET`,
    );
  }
  const id = [...found][0];
  input.report.note(`instrument ${id} inferred from ${how}`);
  return id;
}

/** The trading day of `market` before `date` (YYYYMMDD), from the calendar known to the command; null when none within 60 days. */
export function previousTradingDay(ctx: IngestContext, market: string, date: number): number | null {
  for (let d = addDays(date, -1), n = 0; n < 60; d = addDays(d, -1), n++) if (ctx.isTradingDay(market, d)) return d;
  return null;
}

/** `YYYY-MM-DD` → YYYYMMDD. */
export const dateInt = (s: string) => Number(s.replace(/-/g, ''));
export { formatDate };
