/**
 * `tdx_files` (migration 0027): what `mds ingest --tdx` last loaded of each file of a Tongdaxin
 * install (ingest/tdx-update.ts), so that a run again reads only what is new.
 */
import type { BulkSession, Store } from '../types.js';

/** A file's state as loaded: its size, modification time, whole records, last date and the bytes' hash. */
export interface FileState {
  size: number;
  mtime: number;
  records: number;
  lastDate: number | null;
  /** SHA-1 of the bytes loaded, hex. */
  sha1: string;
}

/** The files' stored states, by key. */
export async function storedStates(store: Store): Promise<Map<string, FileState>> {
  const rows = await store.select<{
    path: string;
    size: number;
    mtime: number;
    records: number;
    last_date: number | null;
    sha1: string;
  }>('select path, size, mtime, records, last_date, sha1 from tdx_files', []);
  return new Map(
    rows.map((r) => [
      r.path,
      {
        size: Number(r.size),
        mtime: Number(r.mtime),
        records: Number(r.records),
        lastDate: r.last_date === null ? null : Number(r.last_date),
        sha1: r.sha1,
      },
    ]),
  );
}

/** Records the files' states in the load's transaction. */
export async function recordStates(s: BulkSession, states: ReadonlyMap<string, FileState>): Promise<void> {
  const rows = [...states].map(([path, x]) => [path, x.size, x.mtime, x.records, x.lastDate, x.sha1]);
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await s.query(
      `insert into tdx_files (path, size, mtime, records, last_date, sha1) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}` +
        ' on conflict (path) do update set size = excluded.size, mtime = excluded.mtime, records = excluded.records,' +
        ' last_date = excluded.last_date, sha1 = excluded.sha1',
      chunk.flat(),
    );
  }
}
