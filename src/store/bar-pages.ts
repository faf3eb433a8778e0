/**
 * Bar pages: each daily bar pack (bar-packs.ts) rendered once more as the JSON the API serves
 * for it, so that a page of unadjusted daily bars is bytes copied out of a few rows instead of
 * 100 bars decoded, formatted and joined (the bars route's hottest path). 1m bars have none: a
 * day's page would be 60 KB read for a 24 KB response, and rendering every 1m bar at ingest
 * halved the ingest rate, for about 5% on the 1m page.
 *
 * A page row (`bars_1d_pages`, per instrument and month as the pack it renders) is ASCII text:
 * the record count n (2 digits), the records' dates (n × 8 digits), where each record's text
 * ends within the text (n × 5 digits), then the text: record i's Bar JSON followed by ','.
 * Records of one pack are contiguous, so any run of them is one slice of the text. Text, not
 * binary, so that both drivers hand it over as it is stored: PostgreSQL sends a bytea as hex,
 * twice its size, which the server encodes and `pg` decodes on every read (a third of the
 * server's CPU per page, measured), and a string is cheaper to make than a Buffer on SQLite too.
 *
 * Pages are derived from the packs by code (the JSON of a Bar, serialize.ts), so they carry a
 * rendition number: `rebuildBarPages` re-renders every pack when the stored rendition is not
 * RENDITION (bump it whenever barWriter's output changes), and the pack merges keep them in step.
 */
import { barWriter, JsonBytes } from '../http/json-bytes.js';
import type { Bar } from '../market/types.js';
import { collectKeys, decodeBars } from './bar-packs.js';
import type { BulkSession, Store } from './store.js';

/**
 * The rendition the pages hold; stored in `meta` as `bar_pages`. Unknown amounts (a record's
 * amount UNKNOWN_AMOUNT, rendered `"amount":null`) did not bump it: a page of known amounts
 * renders byte-for-byte as in rendition 2, and no pack held the marker before (ingest refused
 * negative amounts), so every stored page already is what the code renders now.
 */
export const RENDITION = '2';

/** What rendering needs of an instrument. */
export interface PageInstrument { id: string; kind: string }

const COUNT = 2, KEY = 8, END = 5;
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

/** The advisory lock that serialises pack merges and page rebuilds on PostgreSQL (a constant of the project's own). */
export const PACK_LOCK = 0x6d64_7301;

/**
 * Renders the `n` records of a daily pack (`data`: 56-byte records of seven little-endian
 * float64, the date first, as bar-packs encodes them) as a page.
 */
export function renderPage(data: Uint8Array, n: number, inst: PageInstrument): string {
  const write = barWriter(inst.id, inst.kind, '1d', 'none');
  const bars: Bar[] = [];
  decodeBars(bars, data, n, null, -Infinity, Infinity, Infinity);
  const keys: number[] = [], ends: number[] = [];
  const w = JsonBytes.start();
  for (const b of bars) {
    write(w, b);
    w.byte(44);
    keys.push(b.date);
    ends.push(w.length);
  }
  return pageText(keys, ends, w);
}

/**
 * A page of the records written to `w` (each followed by ','; the writer writes ASCII only, so
 * a character is a byte), whose keys are `keys` and whose texts end at `ends` within it.
 */
export function pageText(keys: number[], ends: number[], w: JsonBytes): string {
  return fixed(keys.length, COUNT) + keys.map((k) => fixed(k, KEY)).join('') + ends.map((e) => fixed(e, END)).join('') + w.take().toString('latin1');
}

/** The packs that have pages, and their page table (both keyed by inst and month). */
const PACKS = 'bars_1d_packs', TABLE = 'bars_1d_pages';
const WRITE_PAGES = 64;

/**
 * Writes the pages of packs just written to `packs` (rows `[inst, key, n, data]`), replacing
 * those stored: called by every pack merge, in the merge's transaction (1m packs have none).
 */
export async function writePages(s: BulkSession, packs: string, rows: unknown[][]): Promise<void> {
  if (packs !== PACKS) return;
  const insts = await instruments(s, [...new Set(rows.map((r) => r[0] as number))]);
  for (let i = 0; i < rows.length; i += WRITE_PAGES) {
    const part = rows.slice(i, i + WRITE_PAGES).map(([inst, k, n, data]) => {
      const meta = insts.get(inst as number);
      if (!meta) throw new Error(`bar pack of instrument ${String(inst)}, which is not in instruments`);
      return [inst, k, renderPage(data as Uint8Array, n as number, meta)];
    });
    await s.query(`insert into ${TABLE} (inst, month, data) values ${part.map(() => '(?, ?, ?)').join(', ')}`
      + ' on conflict (inst, month) do update set data = excluded.data', part.flat());
  }
}

/** The id and kind of instruments `insts`. */
export async function instruments(s: BulkSession, insts: number[]): Promise<Map<number, PageInstrument>> {
  const out = new Map<number, PageInstrument>();
  for (let i = 0; i < insts.length; i += 500) {
    const part = insts.slice(i, i + 500);
    const rows = await s.queryRows(`select inst, id, kind from instruments where inst in (${part.map(() => '?').join(', ')})`, part);
    for (const [inst, id, kind] of rows as [number, string, string][]) out.set(inst, { id, kind });
  }
  return out;
}

/**
 * Derived data kept beside the packs (pages, indicator states) is code's output, so it carries a
 * rendition in `meta` under `key`: when the stored one is not `rendition`, `rebuild` derives it
 * all again, in one transaction (on PostgreSQL under the pack lock, so a concurrent merge waits),
 * and the rendition is recorded. Returns whether it rebuilt.
 */
export async function ensureRendition(store: Store, key: string, rendition: string, rebuild: (s: BulkSession) => Promise<void>): Promise<boolean> {
  const stored = async (s: BulkSession) => (await s.queryRows('select value from meta where key = ?', [key]))[0]?.[0];
  if (await store.bulkTransaction(stored, { readOnly: true }) === rendition) return false;
  return store.bulkTransaction(async (s) => {
    if (store.dialect === 'postgres') await s.query('select pg_advisory_xact_lock(?)', [PACK_LOCK]);
    if (await stored(s) === rendition) return false;
    await rebuild(s);
    await s.query('insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value', [key, rendition]);
    return true;
  });
}

/** Renders every page from the packs when the stored rendition is not RENDITION. */
export function ensureBarPages(store: Store): Promise<boolean> {
  return ensureRendition(store, 'bar_pages', RENDITION, async (s) => {
    await s.query(`delete from ${TABLE}`);
    for await (const rows of packBatches(s)) await writePages(s, PACKS, rows);
  });
}

/** The records of a page: keys, and each record's JSON text (without the comma). */
export function decodePage(page: string): { key: number; json: string }[] {
  const n = num(page, 0, COUNT), head = HEAD(n), ends = ENDS(n);
  return Array.from({ length: n }, (_, i) => {
    const start = i === 0 ? 0 : num(page, ends + END * (i - 1), END);
    return { key: num(page, COUNT + KEY * i, KEY), json: page.slice(head + start, head + num(page, ends + END * i, END) - 1) };
  });
}

/**
 * Collects the records of pages, in key order, whose key lies in [lo, hi], up to `limit`;
 * `body` then joins the text of the first records into a response.
 */
export class PageSlices {
  /** The keys of the records collected. */
  readonly keys: number[] = [];
  /** Per page added: the page, its record count and the index of its first record taken. */
  private readonly runs: { page: string; n: number; first: number; count: number }[] = [];

  constructor(private readonly limit: number) {}

  get full(): boolean { return this.keys.length >= this.limit; }

  /** Adds the records of one page with lo <= key <= hi while the collection is short. */
  add(page: string, lo: number, hi: number): void {
    const n = num(page, 0, COUNT), before = this.keys.length;
    const first = collectKeys(this.keys, this.limit, n, (i) => num(page, COUNT + KEY * i, KEY), lo, hi);
    if (first >= 0) this.runs.push({ page, n, first, count: this.keys.length - before });
  }

  /**
   * `prefix`, the JSON of the first `count` records joined by commas, then `suffix`, as one
   * Buffer (records past `count` were read to learn whether another page follows).
   */
  body(count: number, prefix: string, suffix: string): Buffer {
    const w = JsonBytes.start();
    w.utf8(prefix);
    for (const r of this.runs) {
      if (count <= 0) break;
      const take = Math.min(count, r.count);
      count -= take;
      const ends = ENDS(r.n), head = HEAD(r.n);
      const start = r.first === 0 ? 0 : num(r.page, ends + END * (r.first - 1), END);
      w.ascii(r.page.slice(head + start, head + num(r.page, ends + END * (r.first + take - 1), END)));
    }
    // Each record's text ends with a comma: the last one's is dropped.
    w.drop(44);
    w.utf8(suffix);
    return w.take();
  }
}

/**
 * Checks, in session `s`, that every pack has its page, rendered from it as the code renders
 * it now, and no page is left without a pack; reports each problem through `problem` and
 * returns the pages compared (checkBarPacks calls it).
 */
export async function checkPages(s: BulkSession, problem: (p: string) => void): Promise<number> {
  let pages = 0;
  for await (const rows of packBatches(s)) {
    const stored = await storedInRange(s, TABLE, 'data', rows) as Map<string, string>;
    const insts = await instruments(s, [...new Set(rows.map((r) => r[0] as number))]);
    for (const [inst, k, n, data] of rows as [number, number, number, Uint8Array][]) {
      const page = stored.get(`${inst}/${k}`);
      const meta = insts.get(inst);
      if (!page) problem(`${TABLE} ${inst}/${k}: missing`);
      else if (!meta || page !== renderPage(data, n, meta)) problem(`${TABLE} ${inst}/${k}: differs from its pack`);
      else pages++;
    }
  }
  const [[total]] = await s.queryRows(`select count(*) from ${TABLE}`);
  if (Number(total) !== pages) problem(`${TABLE}: ${Number(total)} pages for ${pages} packs with a page`);
  return pages;
}

/**
 * `column` of `table` (keyed by inst and month) for the keys from the first to the last of
 * `rows` (`[inst, month, …]` in key order), by `inst/month`: what a check compares a batch with.
 */
export async function storedInRange(s: BulkSession, table: string, column: string, rows: unknown[][]): Promise<Map<string, unknown>> {
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const stored = await s.queryRows(`select inst, month, ${column} from ${table} where (inst, month) >= (?, ?) and (inst, month) <= (?, ?)`,
    [first[0], first[1], last[0], last[1]]);
  return new Map(stored.map((r) => [`${String(r[0])}/${String(r[1])}`, r[2]]));
}

/** The daily packs `[inst, month, n, data]` in key order, 500 at a time. */
export async function* packBatches(s: BulkSession): AsyncGenerator<unknown[][]> {
  let pos: unknown[] = [];
  for (;;) {
    const rows = await s.queryRows(`select inst, month, n, data from ${PACKS}${pos.length ? ' where (inst, month) > (?, ?)' : ''}`
      + ' order by inst, month limit ?', [...pos, 500]);
    if (rows.length === 0) return;
    yield rows;
    pos = rows[rows.length - 1].slice(0, 2);
  }
}
