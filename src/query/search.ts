/**
 * Instrument search (searchInstruments): by code or id, by name (Chinese included, or English),
 * and by pinyin initials as Tongdaxin users type them (`gzmt` for 贵州茅台), over every kind. The
 * index of a catalog version is built once (each character's readings looked up once a process). Queries and names are compared in Unicode NFKC form
 * (full-width `ＧＺＭＴ`, `６００５１９` and `万科Ａ` read as `GZMT`, `600519` and `万科A`) and
 * without case. Initials are kept per character as the set of the initials of every reading of
 * it (pinyin-pro's reading in context and its polyphonic list: 藏 c or z, 行 x or h), so a name is
 * found by the initials of any of its readings (藏格矿业 by cgky and by zgky, Tushare's cnspell)
 * without listing the combinations: a query fits where each of its letters is in the set of its
 * position. Names are also compared without their spaces: Tongdaxin pads names to a width
 * (`万 科Ａ`, found by `万科A`). Where a vendor's own initials were loaded (`pinyin_initials`:
 * Tongdaxin's name tables), they match as the service's do, whichever fits better ranks.
 */
import { pinyin } from 'pinyin-pro';
import { CountedCache, type CacheCounts } from '../lib/counted-cache.js';
import type { CatalogSnapshot, InstrumentRow } from '../store/catalog.js';
import type { InstrumentKind } from '../market/kinds.js';

interface Entry {
  row: InstrumentRow;
  code: string;
  id: string;
  /** The name in NFKC form, lower-case. */
  name: string;
  nameEn: string;
  /** Per position, the initials it may be read with (initialSets). */
  initials: string[];
  /** The vendor's initials in searchForm, one letter a position ('' when none). */
  vendorInitials: string;
}

/** How a match ranks, best first: the id or code itself, a code prefix, an initials prefix, a name prefix, anything contained. */
export const MATCH = ['exact', 'code', 'initials', 'name', 'contains'] as const;

/** Text as searched: NFKC (full-width letters and digits as ASCII), lower-case, without spaces (`万 科Ａ` → `万科a`). */
export const searchForm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

/** Per character, the initials of all its readings (`行` → `xh`; '' for a character without one): they do not depend on the name. */
const READINGS = new Map<string, string>();
const HAN = /\p{Script=Han}/u;

function readingsOf(ch: string): string {
  let all = READINGS.get(ch);
  if (all === undefined) {
    const firsts = HAN.test(ch) ? pinyin(ch, { pattern: 'first', toneType: 'none', type: 'array', multiple: true }) : [];
    all = [...new Set(firsts.map((f) => f.toLowerCase()).filter((f) => /^[a-z]$/.test(f)))].join('');
    READINGS.set(ch, all);
  }
  return all;
}

/**
 * Per position of a name, the lower-case pinyin initials of every reading of its character
 * (pinyin-pro's reading in context among them), or the letter or digit itself; other characters are dropped
 * (`*ST润安` → s, t, r, a). initialSets('世联行') → ['s', 'l', 'xh'].
 */
export function initialSets(name: string): string[] {
  const chars = [...name.normalize('NFKC')];
  const context = pinyin(chars.join(''), { pattern: 'first', toneType: 'none', type: 'array' });
  const out: string[] = [];
  chars.forEach((ch, i) => {
    const all = readingsOf(ch);
    if (all) {
      const first = context.length === chars.length ? context[i].toLowerCase() : '';
      out.push(all.includes(first) || !/^[a-z]$/.test(first) ? all : first + all);
    } else {
      const c = ch.toLowerCase();
      if (/^[a-z0-9]$/.test(c)) out.push(c);
    }
  });
  return out;
}

/** Whether `q` fits `sets` from position `at`: each character of q among the initials of its position. */
function fitsAt(sets: ArrayLike<string>, q: string, at: number): boolean {
  for (let i = 0; i < q.length; i++) if (!sets[at + i].includes(q[i])) return false;
  return true;
}

/** 0 when `q` fits the initials from the first position, 1 when from a later one, -1 when nowhere (a string: one letter a position). */
function initialsMatch(sets: ArrayLike<string>, q: string): number {
  for (let at = 0; at + q.length <= sets.length; at++) if (fitsAt(sets, q, at)) return at === 0 ? 0 : 1;
  return -1;
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
    // By the version the catalog was read at: a catalog carried over to later versions keeps its index.
    let e = this.caches.index.get(this.catalog.base);
    if (!e) {
      e = [...this.catalog.byId.values()].map((row) => ({
        row,
        code: row.code,
        id: row.id.toLowerCase(),
        name: searchForm(row.name),
        nameEn: searchForm(row.name_en ?? ''),
        initials: initialSets(row.name),
        vendorInitials: searchForm(row.pinyin_initials ?? ''),
      }));
      this.caches.index.set(this.catalog.base, e);
    }
    return e;
  }

  /** The rank of a match by initials or name (2 to 4), or -1. */
  private rank(e: Entry, q: string): number {
    const own = initialsMatch(e.initials, q),
      vendor = e.vendorInitials ? initialsMatch(e.vendorInitials, q) : -1,
      initials = own < 0 ? vendor : vendor < 0 ? own : Math.min(own, vendor);
    if (initials === 0) return 2;
    if (e.name.startsWith(q)) return 3;
    return initials === 1 || e.name.includes(q) || e.nameEn.includes(q) ? 4 : -1;
  }

  /** Instruments matching `q` (of `kind` if given), by rank then id, after the key `after`, at most `limit`. */
  find(q: string, kind: InstrumentKind | undefined, after: [number, string] | null, limit: number): Found[] {
    const lower = searchForm(q),
      out: Found[] = [];
    if (!lower) return out;
    for (const e of this.entries()) {
      if (kind !== undefined && e.row.kind !== kind) continue;
      const rank = e.id === lower || e.code === lower ? 0 : e.code.startsWith(lower) ? 1 : this.rank(e, lower);
      if (rank < 0) continue;
      if (after && (rank < after[0] || (rank === after[0] && e.row.id <= after[1]))) continue;
      out.push({ row: e.row, rank });
    }
    out.sort((a, b) => a.rank - b.rank || (a.row.id < b.row.id ? -1 : 1));
    return out.slice(0, limit);
  }
}
