/**
 * Daily bar pages, rendered from the packs when read: a daily pack (store/packs.ts) rendered
 * as the JSON the API serves for its bars, in the page text format (render/page-text.ts), so
 * that a page of unadjusted daily bars is slices of text copied into the response. They are
 * not stored (they were: 272 bytes a bar, two thirds of a whole-market store, and a third of
 * its ingest): a worker keeps the pages it rendered last (an LRU bounded in bytes), each with
 * the bytes of the pack it was rendered from, and a page is used only while the pack read
 * with it is byte for byte that one. A page can therefore never be stale, whatever an ingest
 * rewrote, and needs no version or check of its own.
 */
import { LRUCache } from 'lru-cache';
import type { InstrumentKind } from '../../market/kinds.js';
import type { Bar } from '../../market/types.js';
import { barWriter, Renderer } from '../../render/json-bytes.js';
import { pageText } from '../../render/page-text.js';
import { decodeBars } from '../packs.js';

/** What rendering needs of an instrument. */
export interface PageInstrument { id: string; kind: InstrumentKind }

/**
 * Renders the `n` records of a daily pack (`data`, as store/packs.ts encodes it) as a page,
 * written with `renderer`.
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

interface Rendered { pack: Uint8Array; id: string; kind: InstrumentKind; page: string }

/** The pages a worker rendered last, at most `maxBytes` of pages and packs (0: none kept). */
export class DailyPages {
  private readonly cache: LRUCache<string, Rendered> | null;
  private readonly renderer = new Renderer();

  constructor(maxBytes: number) {
    this.cache = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (r) => r.page.length + r.pack.byteLength + 100 }) : null;
  }

  /** The page of pack `month` of instrument `inst` (`x`) whose `n` records are `data`. */
  page(inst: number, x: PageInstrument, month: number, n: number, data: Uint8Array): string {
    const key = `${inst}/${month}`;
    const hit = this.cache?.get(key);
    if (hit && hit.id === x.id && hit.kind === x.kind && Buffer.compare(hit.pack, data) === 0) return hit.page;
    const page = renderPage(data, n, x, this.renderer);
    // A copy of the pack: the driver may reuse the buffer it handed over.
    this.cache?.set(key, { pack: Uint8Array.prototype.slice.call(data), id: x.id, kind: x.kind, page });
    return page;
  }
}
