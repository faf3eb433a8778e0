/**
 * `mds ingest --tdx PATH` run again (docs/ingest.md, "Keeping it current"): the Tongdaxin client
 * appends each day's records to its files after the close, so a run reads only what is new. The
 * store keeps, per file of the install (table `tdx_files`, migration 0027, written in the load's
 * transaction), its size and modification time, the records loaded and the bytes of its last
 * record. A file whose size and last stored record are as stored is not read; one that grew by
 * records after that last record is read from there (VendorOptions.range); any other change (the
 * record at the stored end differs, the file shrank) rewrites the file from its first record: a
 * correction. The gbbq is read again whole when its size or time changed (its rows upserted: a
 * changed row is an update, a new one an insert). A file new to the store is read whole.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { Store } from '../store/types.js';
import { storedStates, type FileState } from '../store/tables/tdx-files.js';
import { formatDate } from '../lib/time.js';
import { IngestIOError } from './source.js';
import type { IngestFile } from './load.js';
import { readRange, RECORD, tdxLc1 } from './vendors/tdx.js';
import { dateAt, type TdxFolder } from './tdx-folder.js';

/** What was loaded of a file (a row of tdx_files). */
export type { FileState } from '../store/tables/tdx-files.js';

export type FileChange = 'new' | 'appended' | 'corrected' | 'unchanged';

export interface TdxUpdate {
  /** The files to load, each bar file with the bytes to read. */
  files: IngestFile[];
  /** The state to record for each file loaded or found unchanged, by key. */
  states: Map<string, FileState>;
  /** Files by what changed. */
  counts: Record<FileChange, number>;
  /** The files loaded as corrections (keys), for the summary. */
  corrected: string[];
  /** The newest last date among the appended files. */
  newest: number | null;
  /** The gbbq, unchanged, read again for the rows of new files' codes only (skipped while they had no instrument). */
  gbbqForNew: boolean;
}

/**
 * A file now (records of `record` bytes, 1 for the gbbq) and what changed since
 * `was`: the same size and time is unchanged without reading it; else its bytes decide (the
 * SHA-1 of those loaded before, then of all): the same bytes are unchanged, more after them
 * appended (when `appends`), any other difference a correction.
 */
function fileNow(path: string, record: number, appends: boolean, was: FileState | undefined, lastDate: (b: Buffer) => number | null) {
  const st = statSync(path);
  // A partial record at the end is read, and refused at its record as in a whole load (nothing is loaded).
  const size = st.size;
  const mtime = Math.round(st.mtimeMs);
  if (was && was.size === size && was.mtime === mtime) return { now: { ...was }, change: 'unchanged' as FileChange };
  const b = readRange(path, 0, size);
  const h = createHash('sha1');
  let change: FileChange = 'new';
  if (was) {
    const before = was.size <= b.length ? h.update(b.subarray(0, was.size)).copy().digest('hex') : null;
    change = before !== was.sha1 ? 'corrected' : b.length === was.size ? 'unchanged' : appends ? 'appended' : 'corrected';
    h.update(b.subarray(before === null ? 0 : was.size));
  } else h.update(b);
  const now: FileState = { size: b.length, mtime, records: Math.floor(b.length / record), lastDate: lastDate(b), sha1: h.digest('hex') };
  return { now, change };
}

/**
 * The files of `folder` to read given what the store loaded of them (`stored`); the bar files
 * read up to their last whole record (a record still being written is read next time).
 */
export function planUpdate(folder: TdxFolder, stored: ReadonlyMap<string, FileState>): TdxUpdate {
  const base = dirname(folder.root);
  const keyOf = (p: string) => relative(base, p).split(sep).join('/');
  const out: TdxUpdate = {
    files: [],
    states: new Map(),
    counts: { new: 0, appended: 0, corrected: 0, unchanged: 0 },
    corrected: [],
    newest: null,
    gbbqForNew: false,
  };
  const gbbq = new Map<string, FileChange>();
  const gbbqUnchanged: IngestFile[] = [];
  /** The instruments of bar files new to the store. */
  const newIds = new Set<string>();
  for (const f of folder.files) {
    if (f.virtual) {
      out.files.push(f);
      continue;
    }
    const key = keyOf(f.path);
    const was = stored.get(key);
    const bars = f.dataset.name === 'bars_1d' || f.dataset.name === 'bars_1m';
    try {
      // The gbbq is two files of one path (corporate actions, share capital): decided once, read again whole when it changed.
      let change = bars ? undefined : gbbq.get(key);
      if (change === undefined) {
        const minute = f.vendor?.layout === tdxLc1;
        const last = (b: Buffer) => (bars && b.length >= RECORD ? dateAt(b, b.length - RECORD, minute) : null);
        const x = fileNow(f.path, bars ? RECORD : 1, bars, was, last);
        change = x.change;
        out.states.set(key, x.now);
        out.counts[change]++;
        if (change === 'corrected') out.corrected.push(key);
        if (!bars) gbbq.set(key, change);
        if (change === 'appended' && x.now.lastDate !== null && x.now.lastDate > (out.newest ?? 0)) out.newest = x.now.lastDate;
      }
      if (bars && change === 'new' && f.vendor?.instrument) newIds.add(f.vendor.instrument);
      if (change === 'unchanged') {
        if (!bars) gbbqUnchanged.push(f);
        continue;
      }
      if (!bars) {
        out.files.push(f);
        continue;
      }
      const from = change === 'appended' ? was!.size : 0;
      out.files.push({ ...f, vendor: { ...f.vendor!, range: { from, to: out.states.get(key)!.size } } });
    } catch (e) {
      throw new IngestIOError(`${f.path}: ${(e as Error).message}`);
    }
  }
  // A new file's code had no instrument when the gbbq was last read (its rows skipped): its rows read again.
  if (newIds.size && stored.size && gbbqUnchanged.length) {
    out.files.push(...gbbqUnchanged.map((f) => ({ ...f, vendor: { ...f.vendor!, only: newIds } })));
    out.gbbqForNew = true;
  }
  return out;
}

/**
 * The files of `folder` to load into `store` (every one whole with `full` or into a store that
 * has loaded none), with the summary's lines and the data version's origin (an update's says
 * what it read; a whole load's is the ingest's own).
 */
export async function tdxUpdate(store: Store, folder: TdxFolder, full: boolean) {
  const stored = full ? new Map<string, FileState>() : await storedStates(store);
  const plan = planUpdate(folder, stored);
  const said = updateLines(plan, stored.size === 0 ? (full ? '--full' : 'none loaded before') : null);
  return { plan, files: plan.files, ...said };
}

/** The summary's lines of an update, and the data version's origin (undefined: a whole load, `ingest of N files`). */
export function updateLines(u: TdxUpdate, whole: string | null): { lines: string[]; origin?: string } {
  const c = u.counts;
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  if (whole) return { lines: [`tdx: ${files(c.new)} read whole (${whole})`] };
  const parts = [
    `${files(c.appended)} with new records${u.newest ? ` (to ${formatDate(u.newest)})` : ''}`,
    `${files(c.unchanged)} unchanged, not read`,
    `${files(c.new)} new, read whole`,
    `${files(c.corrected)} changed before their last loaded record, read again whole as corrections`,
  ];
  const lines = [`tdx update: ${parts.join('; ')}`];
  if (u.gbbqForNew) lines.push("tdx update: the gbbq, unchanged, read again for the rows of the new files' codes");
  for (const k of u.corrected.slice(0, 10)) lines.push(`tdx update: correction: ${k}`);
  if (u.corrected.length > 10) lines.push(`tdx update: … ${u.corrected.length - 10} more corrections`);
  const origin =
    `tdx update: ${c.appended} appended, ${c.new} new` +
    (c.corrected ? `, ${c.corrected} corrected (${u.corrected.slice(0, 3).join(', ')}${c.corrected > 3 ? ', …' : ''})` : '');
  return { lines, origin };
}
