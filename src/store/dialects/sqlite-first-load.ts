/**
 * A first load into a SQLite store (BulkOptions.firstLoad): a whole market into a new file. In
 * WAL mode every page the transaction writes goes to the log, spilled there once the page cache
 * is full, read back from it, and copied into the file by the checkpoint after the commit: the
 * store's bytes are written twice. Under a rollback journal they are written once, in place: the
 * journal keeps only the pages the file had before (a new store's few), and a rollback (or a
 * crash, at the next open) puts them back and cuts the file to its old size, so the load stays
 * all or nothing. Readers could not read the file while it is written that way (a writer holds
 * its lock while it spills), hence only when no other connection has it open: leaving WAL mode
 * then fails, and the load runs in WAL mode as any other.
 */
import type Database from 'better-sqlite3';

/** The page cache of a first load, KiB: the b-trees' pages it writes stay in memory until they are full. */
const FIRST_LOAD_CACHE_KIB = 256 * 1024;

/**
 * Switches connection `raw` to a rollback journal for a first load, when it can; returns what
 * puts its WAL mode and page cache back after the transaction (commit or rollback), or null
 * when the load runs in WAL mode.
 */
export function beginFirstLoad(raw: Database.Database): (() => void) | null {
  if (raw.name === ':memory:' || raw.name === '' || raw.inTransaction) return null;
  const cache = raw.pragma('cache_size', { simple: true }) as number;
  let mode: unknown;
  try {
    mode = raw.pragma('journal_mode = TRUNCATE', { simple: true });
  } catch {
    return null; // another connection has the file open (SQLITE_BUSY)
  }
  if (String(mode).toLowerCase() !== 'truncate') return null;
  // Synced as a rollback journal must be for the load to survive a power cut whole or not at all.
  raw.pragma('synchronous = FULL');
  raw.pragma(`cache_size = -${FIRST_LOAD_CACHE_KIB}`);
  return () => {
    raw.pragma(`cache_size = ${cache}`);
    raw.pragma('synchronous = NORMAL');
    raw.pragma('journal_mode = WAL');
  };
}
