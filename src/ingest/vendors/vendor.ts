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
import { IngestIOError, readRecords, type Encoding, type SourceRecord } from '../source.js';
import { addDays, formatDate } from '../../lib/time.js';

/** What the command says about a vendor file: the instrument and markets it does not name itself. */
export interface VendorOptions {
  instrument?: string;
  markets?: string[];
  /** Bars dated on a day the market was closed are skipped and counted instead of refused (`mds ingest --tdx`: Tongdaxin writes weekend records for some funds). */
  skipClosedDays?: boolean;
}

/** Rows a layout skipped (per reason) and what it decided on its own (inferred instrument, widened bars). */
export class VendorReport {
  readonly skipped = new Map<string, number>();
  readonly notes: string[] = [];
  private readonly adjusted = new Map<string, string[]>();
  private adjustedCount = new Map<string, number>();

  skip(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }
  note(text: string): void {
    this.notes.push(text);
  }
  /** A value changed for a stated reason at `where` (the first few places are listed). */
  adjust(reason: string, where: string): void {
    const list = this.adjusted.get(reason) ?? [];
    if (list.length < 5) list.push(where);
    this.adjusted.set(reason, list);
    this.adjustedCount.set(reason, (this.adjustedCount.get(reason) ?? 0) + 1);
  }

  /** Every note, adjustment and skip count, one line each. */
  lines(): string[] {
    const out = [...this.notes];
    for (const [reason, places] of this.adjusted) {
      const n = this.adjustedCount.get(reason)!;
      out.push(`${reason} on ${n} row${n === 1 ? '' : 's'} (${places.join(', ')}${n > places.length ? ', …' : ''})`);
    }
    for (const [reason, n] of this.skipped) out.push(`skipped ${n} row${n === 1 ? '' : 's'}: ${reason}`);
    return out;
  }
}

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

/** A field a layout cannot convert: reported as `column: message` at the record's line. */
export class Bad extends Error {
  constructor(
    readonly column: string,
    message: string,
  ) {
    super(`${column}: ${message}`);
  }
}

/** A canonical record (field → text), several (one per market), or null for a skipped row. */
export type Converted = Record<string, string> | Record<string, string>[] | null;
export type Get = (column: string) => string;

/**
 * The records of a vendor CSV file: the header must name every column of `need`; each later
 * line is converted by `convert` (a Bad it throws is that line's error). Uses the canonical
 * streamed CSV reader.
 */
export async function* vendorCsv(
  input: VendorInput,
  need: readonly string[],
  convert: (get: Get, line: number) => Converted,
): AsyncGenerator<SourceRecord[]> {
  let ix: Map<string, number> | null = null;
  let width = 0;
  // A file refused before its header (bytes not valid in its encoding) is not an empty one.
  let refused = false;
  for await (const batch of readRecords(input.path, 'csv', input.onBytes, input.encoding)) {
    const out: SourceRecord[] = [];
    for (const rec of batch) {
      if (rec.error) {
        refused ||= ix === null;
        out.push(rec);
        continue;
      }
      const f = rec.fields!;
      if (ix === null) {
        ix = new Map(f.map((n, i) => [n.trim(), i]));
        width = f.length;
        const missing = need.filter((n) => !ix!.has(n));
        if (missing.length) {
          yield [
            {
              line: rec.line,
              error: `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: expected a header with ${need.join(',')}`,
            },
          ];
          return;
        }
        continue;
      }
      if (f.length !== width) {
        out.push({ line: rec.line, error: `expected ${width} fields as in the header, got ${f.length}` });
        continue;
      }
      const map = ix;
      try {
        push(
          out,
          rec.line,
          convert((c) => {
            const i = map.get(c);
            return i === undefined ? '' : f[i].trim();
          }, rec.line),
        );
      } catch (e) {
        if (!(e instanceof Bad)) throw e;
        out.push({ line: rec.line, error: e.message });
      }
    }
    if (out.length) yield out;
  }
  if (ix === null && !refused) yield [{ line: 1, error: `empty file: expected a header row (${need.join(',')})` }];
}

/** Appends the converted record(s) of a line. */
export function push(out: SourceRecord[], line: number, c: Converted): void {
  if (c === null) return;
  if (Array.isArray(c)) for (const o of c) out.push({ line, object: o });
  else out.push({ line, object: c });
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

const MARKET_OF: Record<string, string> = { SH: 'SH', SZ: 'SZ', BJ: 'BJ', XSHG: 'SH', XSHE: 'SZ', SSE: 'SH', SZSE: 'SZ', BSE: 'BJ' };

/** `000001.XSHG`, `000001.SH`, `sh000001` → `000001.SH`; null for anything else. */
export function normalId(s: string): string | null {
  let m = /^(\d{6})\.([A-Za-z]{2,4})$/.exec(s);
  if (m && MARKET_OF[m[2].toUpperCase()]) return `${m[1]}.${MARKET_OF[m[2].toUpperCase()]}`;
  m = /^(sh|sz|bj)(\d{6})$/i.exec(s);
  return m ? `${m[2]}.${m[1].toUpperCase()}` : null;
}

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
