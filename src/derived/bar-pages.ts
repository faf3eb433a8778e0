/**
 * Bar pages: each daily bar pack (store/packs.ts) rendered once more as the JSON the API serves
 * for it, in the stored page text format (render/page-text.ts), so that a page of unadjusted
 * daily bars is bytes copied out of a few rows instead of 100 bars decoded, formatted and joined
 * (the bars route's hottest path). A page row is `bars_1d_pages`, per instrument and month as
 * the pack it renders. 1m bars have none: a day's page would be 60 KB read for a 24 KB response,
 * and rendering every 1m bar at ingest halved the ingest rate, for about 5% on the 1m page.
 *
 * Pages are derived from the packs by code (the JSON of a Bar, render/json-bytes.ts), so they
 * carry a version (`BAR_PAGES`, a derivation of registry.ts): the hash of the pages of the fixture
 * (fixture.ts), so that any change of the rendered JSON makes migration render every pack again.
 * The pack merges keep them in step.
 */
import { barWriter, Renderer } from '../render/json-bytes.js';
import { pageText } from '../render/page-text.js';
import type { Bar } from '../market/types.js';
import { decodeBars } from '../store/packs.js';
import type { BulkSession } from '../store/types.js';
import { DAILY_PACKS, instruments, packBatches, storedInRange, type PageInstrument } from './daily-packs.js';
import { versionedInMeta } from './derivation.js';
import { FIXTURE } from './fixture.js';

/** The page table (keyed by inst and month, as the daily packs). */
const TABLE = 'bars_1d_pages';
const WRITE_PAGES = 64;

/**
 * Renders the `n` records of a daily pack (`data`: 56-byte records of seven little-endian
 * float64, the date first, as store/packs.ts encodes them) as a page, written with `renderer`.
 */
export function renderPage(data: Uint8Array, n: number, inst: PageInstrument, renderer: Renderer): string {
  const write = barWriter(inst.id, inst.kind, '1d', 'none');
  const bars: Bar[] = [];
  decodeBars(bars, data, n, null, -Infinity, Infinity, Infinity);
  const keys: number[] = [], ends: number[] = [];
  const w = renderer.start();
  for (const b of bars) {
    write(w, b);
    w.byte(44);
    keys.push(b.date);
    ends.push(w.length);
  }
  return pageText(keys, ends, w);
}

/**
 * Writes the pages of packs just written to `packs` (rows `[inst, key, n, data]`), replacing
 * those stored: called by every pack merge, in the merge's transaction (1m packs have none).
 */
export async function writePages(s: BulkSession, packs: string, rows: unknown[][]): Promise<void> {
  if (packs !== DAILY_PACKS) return;
  const renderer = new Renderer();
  const insts = await instruments(s, [...new Set(rows.map((r) => r[0] as number))]);
  for (let i = 0; i < rows.length; i += WRITE_PAGES) {
    const part = rows.slice(i, i + WRITE_PAGES).map(([inst, k, n, data]) => {
      const meta = insts.get(inst as number);
      if (!meta) throw new Error(`bar pack of instrument ${String(inst)}, which is not in instruments`);
      return [inst, k, renderPage(data as Uint8Array, n as number, meta, renderer)];
    });
    await s.query(`insert into ${TABLE} (inst, month, data) values ${part.map(() => '(?, ?, ?)').join(', ')}`
      + ' on conflict (inst, month) do update set data = excluded.data', part.flat());
  }
}

/** Renders every page from the packs again; returns the pages. */
async function rebuildPages(s: BulkSession): Promise<number> {
  await s.query(`delete from ${TABLE}`);
  let pages = 0;
  for await (const rows of packBatches(s)) {
    await writePages(s, DAILY_PACKS, rows);
    pages += rows.length;
  }
  return pages;
}

/** The pages of the fixture's packs as `render` renders them, one a line: what versions the pages. */
export function barPagesOutput(render: typeof renderPage = renderPage): string {
  const renderer = new Renderer();
  return FIXTURE.flatMap((f) => f.packs.map(([, n, data]) => render(data, n, f.meta, renderer))).join('\n');
}

/** Bar pages as a derivation (registry.ts); the version is in `meta` as `bar_pages`. */
export const BAR_PAGES = versionedInMeta({
  name: 'bar_pages', unit: 'pages', output: () => barPagesOutput(), write: writePages, make: rebuildPages,
  check: checkPages,
});

/**
 * Checks, in session `s`, that every pack has its page, rendered from it as the code renders
 * it now, and no page is left without a pack; reports each problem through `problem` and
 * returns the pages compared (checkBarPacks calls it).
 */
export async function checkPages(s: BulkSession, problem: (p: string) => void): Promise<number> {
  let pages = 0, seen = 0;
  const renderer = new Renderer();
  for await (const rows of packBatches(s)) {
    const stored = await storedInRange(s, TABLE, 'data', rows) as Map<string, string>;
    const insts = await instruments(s, [...new Set(rows.map((r) => r[0] as number))]);
    for (const [inst, k, n, data] of rows as [number, number, number, Uint8Array][]) {
      const page = stored.get(`${inst}/${k}`);
      const meta = insts.get(inst);
      if (page) seen++;
      if (!page) problem(`${TABLE} ${inst}/${k}: missing`);
      else if (!meta || page !== renderPage(data, n, meta, renderer)) problem(`${TABLE} ${inst}/${k}: differs from its pack`);
      else pages++;
    }
  }
  const [[total]] = await s.queryRows(`select count(*) from ${TABLE}`);
  if (Number(total) !== seen) problem(`${TABLE}: pages without a pack: ${Number(total) - seen}`);
  return pages;
}
