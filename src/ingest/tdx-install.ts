/**
 * The parts of a Tongdaxin install beside its `vipdoc` folder that `mds ingest --tdx` reads
 * (docs/ingest.md, "Whole market: a Tongdaxin install"): `T0002/hq_cache/gbbq` (ex-dates and
 * share changes, loaded as the datasets corporate_actions and share_capital), the name tables
 * `T0002/hq_cache/{sh,sz,bj}{m,s}.tnf` (names and pinyin initials of the instruments the folder
 * makes), and the `.lc5` files of `vipdoc/*\/fzline` (checked against the `.lc1` bars, not
 * loaded). A part that is absent is not read; one of an unknown layout is a warning, not a failure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatDate } from '../lib/time.js';
import type { MarketId } from '../market/types.js';
import { dataset } from '../datasets/registry.js';
import { IngestIOError } from './source.js';
import type { IngestFile, IngestResult } from './load.js';
import { GBBQ_MARKETS, gbbqRecords } from './vendors/tdx-gbbq.js';
import { gbbqActionsLayout, gbbqSharesLayout } from './vendors/tdx-gbbq-datasets.js';
import { tnfDate, tnfRecords, TNF_HEADER, TNF_RECORD, type TnfRecord } from './vendors/tdx-tnf.js';
import { checkLc5 } from './tdx-minutes.js';

export const TDX_MARKETS: Readonly<Record<string, MarketId>> = { sh: 'SH', sz: 'SZ', bj: 'BJ' };

/** What the install gives besides the bars. */
export interface InstallParts {
  /** The `T0002` folder, or null when there is none. */
  t0002: string | null;
  /** Names and initials by instrument id (CODE.MARKET), from the name tables. */
  names: Map<string, TnfRecord>;
  /** The gbbq file as two ingest files (corporate_actions, share_capital); none without it. */
  files: IngestFile[];
  /** The first ex-date the gbbq gives each instrument id (it traded before then). */
  firstExDate: Map<string, number>;
  /** What was read of each part and what was not, for the summary. */
  lines: string[];
  /** Parts not read because their layout is unknown. */
  warnings: string[];
}

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

const read = (p: string): Buffer => {
  try {
    return readFileSync(p);
  } catch (e) {
    throw new IngestIOError(`${p}: ${(e as Error).message}`);
  }
};

/** The `T0002` folder of an install whose `vipdoc` folder is `vipdoc`: beside it, if there. */
export function t0002Of(vipdoc: string): string | null {
  const p = join(vipdoc, '..', 'T0002');
  try {
    return statSync(p).isDirectory() ? p : null;
  } catch {
    return null;
  }
}

/** Name tables per market, in the order read (the first that names a code wins). */
const TABLES = ['shm', 'shs', 'szm', 'szs', 'bjm', 'bjs'];

function readNames(cache: string, out: InstallParts): void {
  const read1: string[] = [];
  for (const t of TABLES) {
    const p = join(cache, `${t}.tnf`);
    if (!isFile(p)) continue;
    const b = read(p);
    const recs = tnfRecords(b);
    if (recs === null) {
      out.warnings.push(
        `${p}: ${b.length} bytes is not a ${TNF_HEADER}-byte header and ${TNF_RECORD}-byte records (an unknown name table layout): not read`,
      );
      continue;
    }
    const market = TDX_MARKETS[t.slice(0, 2)];
    let bad = 0;
    for (const r of recs) {
      if (!/^\d{6}$/.test(r.code) || r.name === null || r.name === '') {
        bad++;
        continue;
      }
      const id = `${r.code}.${market}`;
      if (!out.names.has(id)) out.names.set(id, r);
    }
    const date = tnfDate(b);
    read1.push(
      `${t}.tnf (${recs.length} records${date ? ` of ${formatDate(date)}` : ''}${bad ? `, ${bad} without a code or a GBK name` : ''})`,
    );
  }
  out.lines.push(
    read1.length ? `names: read ${read1.join(', ')}` : `names: no name table in ${cache} (instruments are named by their code)`,
  );
}

function readGbbq(cache: string, out: InstallParts): void {
  const p = join(cache, 'gbbq');
  if (!isFile(p)) {
    out.lines.push(`gbbq: none in ${cache} (no ex-dates nor share capital loaded)`);
    return;
  }
  const b = read(p);
  const recs = gbbqRecords(b);
  if (recs === null) {
    out.warnings.push(
      `${p}: ${b.length} bytes is not 4 bytes and the 29-byte records its first 4 bytes count (an unknown gbbq layout): not read`,
    );
    return;
  }
  for (const r of recs) {
    const id = `${r.code}.${GBBQ_MARKETS[r.market]}`;
    if (r.category === 1 && r.date < (out.firstExDate.get(id) ?? Infinity)) out.firstExDate.set(id, r.date);
  }
  out.files.push(
    { path: p, dataset: dataset('corporate_actions')!, vendor: { layout: gbbqActionsLayout(recs) } },
    { path: p, dataset: dataset('share_capital')!, vendor: { layout: gbbqSharesLayout(recs) } },
  );
}

/** Reads the name tables and plans the gbbq load of the install's `T0002` folder (none: nothing). */
export function installParts(t0002: string | null): InstallParts {
  const out: InstallParts = { t0002, names: new Map(), files: [], firstExDate: new Map(), lines: [], warnings: [] };
  if (t0002 === null) {
    out.lines.push('T0002: no folder beside vipdoc (no names, ex-dates nor share capital loaded)');
    return out;
  }
  const cache = join(t0002, 'hq_cache');
  readNames(cache, out);
  readGbbq(cache, out);
  return out;
}

/**
 * The `.lc5` files of `vipdoc` checked against the `.lc1` file of the same instrument (`lc1`:
 * path by file stem, `sh688001`): the summary's lines.
 */
export function checkFzline(vipdoc: string, lc1: ReadonlyMap<string, string>): string[] {
  let files = 0;
  const sum = { bars: 0, checked: 0, differing: 0, unmatched: 0, unmatchedDays: 0 };
  const differ: string[] = [];
  for (const folder of Object.keys(TDX_MARKETS)) {
    const dir = join(vipdoc, folder, 'fzline');
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const m = new RegExp(`^(${folder}\\d{6})\\.lc5$`, 'i').exec(name);
      if (!m || !isFile(join(dir, name))) continue;
      files++;
      const one = lc1.get(m[1].toLowerCase());
      const c = checkLc5(read(join(dir, name)), one ? read(one) : null);
      for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += c[k];
      differ.push(...c.differ.map((d) => `${m[1]} ${d}`));
    }
  }
  if (files === 0) return [];
  const lines = [
    `.lc5: ${files} file${files === 1 ? '' : 's'}, ${sum.bars} five-minute bars, not loaded (the store keeps 1-minute bars and makes 5-minute bars of them): ` +
      `${sum.checked} checked against those made of the .lc1 bars, ${sum.differing} differ`,
  ];
  for (const d of differ.slice(0, 5)) lines.push(`.lc5: differs: ${d}`);
  if (sum.unmatched)
    lines.push(
      `.lc5: skipped ${sum.unmatched} five-minute bars of ${sum.unmatchedDays} instrument-days without .lc1 bars (no 1-minute bars to store)`,
    );
  return lines;
}

/**
 * The summary of what the load did with the install's files that are not bars: for each
 * vendor file (the names in the instruments, the gbbq's two datasets), its notes and skips,
 * labelled by part; lines both gbbq datasets share are said once.
 */
export function partLines(r: IngestResult): string[] {
  const gbbq = r.files.filter((f) => f.dataset === 'corporate_actions' || f.dataset === 'share_capital');
  const common =
    gbbq.length > 1 ? gbbq.map((f) => new Set(f.vendor ?? [])).reduce((a, b) => new Set([...a].filter((x) => b.has(x)))) : new Set();
  const out = [...common].map((l) => `gbbq: ${l}`);
  for (const f of r.files) {
    if (f.dataset === 'instruments') out.push(...(f.vendor ?? []).map((l) => `names: ${l}`));
    else if (gbbq.includes(f)) out.push(...(f.vendor ?? []).filter((l) => !common.has(l)).map((l) => `gbbq → ${f.dataset}: ${l}`));
  }
  return out;
}
