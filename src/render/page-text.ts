/**
 * The page text format: records already rendered as the API's JSON (precomputed indicator
 * pages, derived/indicator-pages.ts), so that a page
 * of them is a slice of text copied into the response.
 *
 * A page is ASCII text: the record count n (2 digits), the records' keys (n × 8 digits, dates),
 * where each record's text ends within the text (n × 5 digits), then the text: record i's JSON
 * followed by ','. Records of one page are contiguous, so any run of them is one slice of the
 * text. Text, not binary, so that both drivers hand it over as it is stored: PostgreSQL sends a
 * bytea as hex, twice its size, which the server encodes and `pg` decodes on every read (a third
 * of the server's CPU per page, measured), and a string is cheaper to make than a Buffer on
 * SQLite too.
 */
import type { JsonBytes } from './json-bytes.js';
import { collectKeys, type Slices } from './slices.js';

const COUNT = 2,
  KEY = 8,
  END = 5;
const HEAD = (n: number) => COUNT + (KEY + END) * n;
const ENDS = (n: number) => COUNT + KEY * n;

/** `v` in `width` digits, zero-padded; throws when it does not fit (the page would be misread). */
function fixed(v: number, width: number): string {
  const s = String(v);
  if (!Number.isSafeInteger(v) || v < 0 || s.length > width) throw new RangeError(`bar page field ${v} does not fit ${width} digits`);
  return s.padStart(width, '0');
}

/** The number written in `len` digits at `at` of a page. */
function num(page: string, at: number, len: number): number {
  let v = 0;
  for (let i = at, e = at + len; i < e; i++) v = v * 10 + page.charCodeAt(i) - 48;
  return v;
}

/**
 * A page of the records written to `w` (each followed by ','; the writer writes ASCII only, so
 * a character is a byte), whose keys are `keys` and whose texts end at `ends` within it.
 */
export function pageText(keys: number[], ends: number[], w: JsonBytes): string {
  return (
    fixed(keys.length, COUNT) +
    keys.map((k) => fixed(k, KEY)).join('') +
    ends.map((e) => fixed(e, END)).join('') +
    w.take().toString('latin1')
  );
}

/** The records of a page: keys, and each record's JSON text (without the comma). */
export function decodePage(page: string): { key: number; json: string }[] {
  const n = num(page, 0, COUNT),
    head = HEAD(n),
    ends = ENDS(n);
  return Array.from({ length: n }, (_, i) => {
    const start = i === 0 ? 0 : num(page, ends + END * (i - 1), END);
    return { key: num(page, COUNT + KEY * i, KEY), json: page.slice(head + start, head + num(page, ends + END * i, END) - 1) };
  });
}

/**
 * Collects the records of pages, in key order, whose key lies in [lo, hi], up to `limit`;
 * `write` then copies the text of the first records into a response.
 */
export class PageSlices implements Slices {
  /** The keys of the records collected. */
  readonly keys: number[] = [];
  /** Per page added: the page, its record count and the index of its first record taken. */
  private readonly runs: { page: string; n: number; first: number; count: number }[] = [];

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.keys.length >= this.limit;
  }

  /** Adds the records of one page with lo <= key <= hi while the collection is short. */
  add(page: string, lo: number, hi: number): void {
    const n = num(page, 0, COUNT),
      before = this.keys.length;
    const first = collectKeys(this.keys, this.limit, n, (i) => num(page, COUNT + KEY * i, KEY), lo, hi);
    if (first >= 0) this.runs.push({ page, n, first, count: this.keys.length - before });
  }

  /**
   * The JSON of the first `count` records joined by commas (records past `count` were read to
   * learn whether another page follows).
   */
  write(w: JsonBytes, count: number): void {
    for (const r of this.runs) {
      if (count <= 0) break;
      const take = Math.min(count, r.count);
      count -= take;
      const ends = ENDS(r.n),
        head = HEAD(r.n);
      const start = r.first === 0 ? 0 : num(r.page, ends + END * (r.first - 1), END);
      w.ascii(r.page.slice(head + start, head + num(r.page, ends + END * (r.first + take - 1), END)));
    }
    // Each record's text ends with a comma: the last one's is dropped.
    w.drop(44);
  }
}
