/**
 * Instrument search (searchInstruments): by code or id, by name (Chinese included, or English),
 * and by pinyin initials as Tongdaxin users type them (`gzmt` for 贵州茅台), over every kind. The
 * index of a catalog version is built once (initials by pinyin-pro, which reads 银行 as yinhang;
 * and a vendor's own initials where loaded, `pinyin_initials`: Tongdaxin's name tables). Names
 * are matched without their spaces and with full-width letters as ASCII (NFKC): Tongdaxin writes
 * `万 科Ａ`, found by `万科A`.
 */
import { pinyin } from 'pinyin-pro';
import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { CatalogSnapshot, InstrumentRow } from '../store/catalog.js';
import type { InstrumentKind } from '../market/kinds.js';

interface Entry {
  row: InstrumentRow;
  code: string;
  id: string;
  name: string;
  nameEn: string;
  initials: string;
  /** The vendor's initials (lower case), '' when none. */
  vendorInitials: string;
}

/** How a match ranks, best first: the id or code itself, a code prefix, an initials prefix, a name prefix, anything contained. */
export const MATCH = ['exact', 'code', 'initials', 'name', 'contains'] as const;

/** A name or query as matched: NFKC (full-width letters and digits as ASCII), without spaces. */
export const searchText = (s: string) => s.normalize('NFKC').replace(/\s+/g, '');

/** The lower-case pinyin initials of a name, other characters kept (`*ST润安` → `stra`). */
export function initialsOf(name: string): string {
  return pinyin(name, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' })
    .join('')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

export class SearchCaches {
  readonly index = new CountedCache<number, Entry[]>('search_index', { max: 2 });
  readonly all: readonly CacheCounts[] = [this.index];
}

export interface Found {
  row: InstrumentRow;
  rank: number;
}

export class InstrumentSearch {
  constructor(
    private readonly catalog: CatalogSnapshot,
    private readonly caches: SearchCaches,
  ) {}

  private entries(): Entry[] {
    let e = this.caches.index.get(this.catalog.version);
    if (!e) {
      e = [...this.catalog.byId.values()].map((row) => ({
        row,
        code: row.code,
        id: row.id.toLowerCase(),
        name: searchText(row.name),
        nameEn: (row.name_en ?? '').toLowerCase(),
        initials: initialsOf(searchText(row.name)),
        vendorInitials: (row.pinyin_initials ?? '').toLowerCase(),
      }));
      this.caches.index.set(this.catalog.version, e);
    }
    return e;
  }

  /** Instruments matching `q` (of `kind` if given), by rank then id, after the key `after`, at most `limit`. */
  find(q: string, kind: InstrumentKind | undefined, after: [number, string] | null, limit: number): Found[] {
    const lower = q.toLowerCase(),
      text = searchText(q),
      out: Found[] = [];
    for (const e of this.entries()) {
      if (kind !== undefined && e.row.kind !== kind) continue;
      const rank =
        e.id === lower || e.code === q
          ? 0
          : e.code.startsWith(q)
            ? 1
            : e.initials.startsWith(lower) || (e.vendorInitials !== '' && e.vendorInitials.startsWith(lower))
              ? 2
              : text !== '' && e.name.startsWith(text)
                ? 3
                : (text !== '' && e.name.includes(text)) ||
                    e.nameEn.includes(lower) ||
                    e.initials.includes(lower) ||
                    e.vendorInitials.includes(lower)
                  ? 4
                  : -1;
      if (rank < 0) continue;
      if (after && (rank < after[0] || (rank === after[0] && e.row.id <= after[1]))) continue;
      out.push({ row: e.row, rank });
    }
    out.sort((a, b) => a.rank - b.rank || (a.row.id < b.row.id ? -1 : 1));
    return out.slice(0, limit);
  }
}
