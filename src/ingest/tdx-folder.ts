/**
 * `mds ingest --tdx PATH` (docs/ingest.md, "Whole market: a Tongdaxin install"): every
 * `{sh,sz,bj}/lday/*.day` and `{sh,sz,bj}/minline/*.lc1` file of a Tongdaxin `vipdoc` folder as
 * the files of one ingest (one transaction), with the instruments the store does not know made
 * from the code ranges (market/codes.ts) and named by the install's name tables, and the
 * install's gbbq as corporate actions and share capital (tdx-install.ts). Files of codes the
 * service does not serve are skipped and counted per reason. The folder is walked once for the
 * first bar of each file (its first record, the whole file on BJ); the bars are then streamed
 * file by file by the ingest.
 *
 * Listing dates: F is the first trading day in the folder for a market and file kind (the
 * earliest first bar of its files). An instrument whose first bar is after F, or on its market's
 * opening day (BJ: 2021-11-15), listed on that bar's day (`first_bar`); one whose first bar is F,
 * or (SH, SZ) that has an ex-date in the gbbq before its first bar, listed before it, on an
 * unknown day (list_date null, `before_first_bar`).
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { securityOf } from '../market/codes.js';
import { EXCHANGES } from '../market/markets.js';
import type { MarketId } from '../market/types.js';
import { formatDate, isDate } from '../lib/time.js';
import { dataset } from '../datasets/registry.js';
import { IngestIOError, type SourceRecord } from './source.js';
import type { IngestFile, IngestResult } from './load.js';
import { RECORD, tdxDay, tdxLc1 } from './vendors/tdx.js';
import type { VendorInput } from './vendors/vendor.js';
import { checkFzline, installParts, partLines, t0002Of, TDX_MARKETS as FOLDERS, type InstallParts } from './tdx-install.js';
const KINDS = [
  { dir: 'lday', ext: 'day', minute: false },
  { dir: 'minline', ext: 'lc1', minute: true },
] as const;
const OPENED = new Map(EXCHANGES.map((m) => [m.id, m.opened]));

/** A Tongdaxin folder planned as ingest files. */
export interface TdxFolder {
  /** The `vipdoc` folder. */
  root: string;
  /** The new instruments (a virtual file, loaded first), the gbbq's two datasets, then one file per `.day`/`.lc1` file. */
  files: IngestFile[];
  /** Files not loaded, per reason. */
  skipped: Map<string, number>;
  /** Bytes of the bar files. */
  bytes: number;
  /** What was read of the install's other parts before the load (name tables, gbbq, `.lc5` checks). */
  lines: string[];
  /** Parts not read because their layout is unknown (`warning:` lines of the command). */
  warnings: string[];
}

interface Found {
  id: string;
  path: string;
  minute: boolean;
  first: number | null;
  bytes: number;
}

/** The date (YYYYMMDD) of the record at `o`: `.day` u32 YYYYMMDD, `.lc1` u16 (year−2004)×2048 + month×100 + day. */
export const dateAt = (b: Buffer, o: number, minute: boolean) => {
  if (!minute) return b.readUInt32LE(o);
  const d = b.readUInt16LE(o);
  return (Math.floor(d / 2048) + 2004) * 10000 + (d % 2048);
};

/** The first bar's date of a file on or after `from`, or null (no whole record, none that late, or not a date: its records then fail at their lines). */
function firstBar(path: string, minute: boolean, from: number): number | null {
  if (from > 0) {
    const b = readFileSync(path);
    for (let o = 0; o + RECORD <= b.length; o += RECORD) {
      const d = dateAt(b, o, minute);
      if (d >= from) return isDate(d) ? d : null;
    }
    return null;
  }
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(RECORD);
    const d = readSync(fd, b, 0, RECORD, 0) === RECORD ? dateAt(b, 0, minute) : null;
    return d !== null && isDate(d) ? d : null;
  } finally {
    closeSync(fd);
  }
}

const list = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new IngestIOError(`${dir}: ${(e as Error).message}`);
  }
};

/** The `vipdoc` folder of `path`: itself (it holds sh/, sz/ or bj/) or its `vipdoc/`. */
function vipdoc(path: string): string {
  const isDir = (p: string) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (!isDir(path)) throw new IngestIOError(`${path}: not a folder`);
  if (isDir(join(path, 'vipdoc'))) return join(path, 'vipdoc');
  if (Object.keys(FOLDERS).some((m) => isDir(join(path, m)))) return path;
  throw new IngestIOError(`${path}: not a Tongdaxin vipdoc folder (expected sh/, sz/ or bj/ with lday/*.day, or a vipdoc/ folder)`);
}

/** Plans the load of a Tongdaxin folder (`vipdoc` or the folder holding it). */
export function tdxFolder(path: string): TdxFolder {
  const root = vipdoc(path);
  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const served: Found[] = [];
  /** F per market and file kind: the earliest first bar of all its files. */
  const earliest = new Map<string, number>();
  for (const [folder, market] of Object.entries(FOLDERS)) {
    const opened = market === 'BJ' ? OPENED.get('BJ')! : 0;
    for (const k of KINDS) {
      const dir = join(root, folder, k.dir);
      for (const name of list(dir)) {
        const m = new RegExp(`^${folder}(\\d{6})\\.${k.ext}$`, 'i').exec(name);
        if (!m) {
          skip(`not a Tongdaxin ${folder}CODE.${k.ext} file`);
          continue;
        }
        const p = join(dir, name);
        let bytes: number, first: number | null;
        try {
          const st = statSync(p);
          if (!st.isFile()) {
            skip(`folders or other non-files named like ${folder}CODE.${k.ext}`);
            continue;
          }
          bytes = st.size;
          if (bytes === 0) {
            skip('empty files');
            continue;
          }
          first = firstBar(p, k.minute, opened);
        } catch (e) {
          throw new IngestIOError(`${p}: ${(e as Error).message}`);
        }
        const key = `${market}|${k.ext}`;
        if (first !== null && first < (earliest.get(key) ?? Infinity)) earliest.set(key, first);
        const sec = securityOf(m[1], market);
        if (sec.kind === null) {
          skip(sec.skip);
          continue;
        }
        if (first === null && bytes >= RECORD && opened > 0) {
          skip(`${market} files with every bar before the market opened on ${formatDate(opened)} (NEEQ trading)`);
          continue;
        }
        served.push({ id: `${m[1]}.${market}`, path: p, minute: k.minute, first, bytes });
      }
    }
  }
  const parts = installParts(t0002Of(root));
  const news = folderInstruments(served, earliest, parts.firstExDate);
  const lc1 = new Map(served.filter((f) => f.minute).map((f) => [basename(f.path, '.lc1').toLowerCase(), f.path]));
  const files: IngestFile[] = [
    {
      path: `${root} (instruments)`,
      dataset: dataset('instruments')!,
      virtual: true,
      vendor: { layout: { format: 'tdx-folder', dataset: 'instruments', read: (input) => instrumentRecords(input, news, parts) } },
    },
    ...parts.files,
    ...served.map((f): IngestFile => ({
      path: f.path,
      dataset: dataset(f.minute ? 'bars_1m' : 'bars_1d')!,
      vendor: { layout: f.minute ? tdxLc1 : tdxDay, instrument: f.id, skipClosedDays: true },
    })),
  ];
  return {
    root,
    files,
    skipped,
    bytes: served.reduce((n, f) => n + f.bytes, 0),
    lines: [...parts.lines, ...checkFzline(root, lc1)],
    warnings: parts.warnings,
  };
}

/**
 * The instrument record of each served file's code (the daily file decides; a minute file only
 * when there is none), with its listing date by the rule of the header: `earliest` is F per
 * market and file kind, `firstExDate` the gbbq's first ex-date per id.
 */
function folderInstruments(
  served: Found[],
  earliest: Map<string, number>,
  firstExDate: Map<string, number>,
): Map<string, Record<string, string>> {
  const news = new Map<string, Record<string, string>>();
  for (const f of [...served].sort((a, b) => Number(a.minute) - Number(b.minute))) {
    if (news.has(f.id)) continue; // the daily file decides; a minute file only when there is none
    const market = f.id.slice(7) as MarketId;
    const sec = securityOf(f.id.slice(0, 6), market);
    // An ex-date in the gbbq before the first bar (SH, SZ: BJ's are NEEQ's) says it traded before: suspended on F.
    const exBefore = market !== 'BJ' && (firstExDate.get(f.id) ?? Infinity) < f.first!;
    const listed =
      f.first !== null && !exBefore && (f.first > earliest.get(`${market}|${f.minute ? 'lc1' : 'day'}`)! || f.first === OPENED.get(market));
    const rec: Record<string, string> = { instrument_id: f.id, kind: sec.kind!, name: f.id.slice(0, 6) };
    if (sec.kind === 'equity') rec.board = sec.board;
    if (sec.kind === 'fund') rec.fund_type = sec.fundType;
    if (listed) rec.list_date = formatDate(f.first!);
    rec.list_date_source = listed ? 'first_bar' : 'before_first_bar';
    news.set(f.id, rec);
  }
  return news;
}

/** A Tongdaxin load made the instrument (its listing date is the folder's): its name follows the name tables. */
const madeByTdx = (source: string | null | undefined) => source === 'first_bar' || source === 'before_first_bar';

/**
 * The instruments of the folder the store does not know, named by the name tables (else by
 * their code); and those an earlier Tongdaxin load made, with the tables' names and initials.
 * Instruments loaded from other files are left as they are.
 */
async function* instrumentRecords(input: VendorInput, news: Map<string, Record<string, string>>, parts: InstallParts) {
  let line = 0,
    named = 0,
    unnamed = 0,
    renamed = 0;
  const out: SourceRecord[] = [];
  for (const rec of news.values()) {
    line++;
    const known = input.ctx.known(rec.instrument_id);
    const tnf = parts.names.get(rec.instrument_id);
    const name = tnf ? { name: tnf.name!, ...(tnf.initials ? { pinyin_initials: tnf.initials } : {}) } : {};
    if (!known) {
      if (tnf) named++;
      else unnamed++;
      out.push({ line, object: { ...rec, ...name } });
    } else if (tnf && known.kind === rec.kind && madeByTdx(known.listDateSource)) {
      renamed++;
      const { instrument_id, kind, board, fund_type } = rec;
      const listed = known.listDate === null ? {} : { list_date: formatDate(known.listDate) };
      const keep = { instrument_id, kind, ...(board ? { board } : {}), ...(fund_type ? { fund_type } : {}), ...listed };
      out.push({ line, object: { ...keep, list_date_source: known.listDateSource!, ...name } });
    }
  }
  if (parts.names.size) {
    if (named + unnamed) input.report.note(`${named} new instruments named by the name tables, ${unnamed} not in them named by their code`);
    if (renamed) input.report.note(`${renamed} instruments an earlier Tongdaxin load made take the tables' names and initials`);
  }
  yield out;
}

/** What the command says of the install: files and bars skipped, per reason; what each other part gave. */
export function tdxSummaryLines(folder: TdxFolder, r: IngestResult): string[] {
  const lines = [...folder.skipped].map(([reason, n]) => `skipped ${n} file${n === 1 ? '' : 's'}: ${reason}`);
  const bars = new Map<string, number>();
  for (const f of r.files) {
    if (!f.dataset.startsWith('bars_')) continue;
    for (const l of f.vendor ?? []) {
      const m = /^skipped (\d+) rows?: (.*)$/.exec(l);
      if (m) bars.set(m[2], (bars.get(m[2]) ?? 0) + Number(m[1]));
    }
  }
  for (const [reason, n] of bars) lines.push(`skipped ${n} bar${n === 1 ? '' : 's'}: ${reason}`);
  // Each part's lines together: what was read of it before the load, then what the load did with it.
  const order = ['T0002', 'names', 'gbbq', '.lc5'];
  const part = (l: string) => order.findIndex((p) => l.startsWith(p));
  return [...lines, ...[...folder.lines, ...partLines(r)].sort((a, b) => part(a) - part(b))];
}
