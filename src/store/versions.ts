import type { BulkSession } from './types.js';

/**
 * Data versions: a sequence (1, 2, 3, …) numbering the commits that change what the service
 * serves, with a change log of what each changed. Every ingest that changes data, every rebuild
 * of a derivation, every precompute setting and every demo build records its version in its own
 * transaction (`recordVersion`), so a reader's snapshot holds exactly the data of the highest
 * version it sees (CURRENT_VERSION), and `changesSince` tells a cache, a replica or a client
 * what moved after the version it holds.
 */

/** What one version changed in one dataset. */
export interface DataChange {
  /** The dataset (ingest's name: `bars_1d`, `income_statements`) or derivation (`indicator_states`) changed. */
  dataset: string;
  /** Rows inserted or updated (derivations: what they made, in their unit). */
  rows: number;
  /** The instruments whose rows changed, by id, ascending; null: all of them, or unknown. */
  instruments: readonly string[] | null;
  /** The first and last dates (YYYYMMDD) of the rows changed; null when the dataset has no dates or they are unknown. */
  from: number | null;
  to: number | null;
}

/** A data version: its number, when (epoch ms) and by what it was made, and what it changed. */
export interface DataVersion {
  version: number;
  at: number;
  origin: string;
  changes: DataChange[];
}

/** The latest data version of a snapshot, as one row `[version]`. */
export const CURRENT_VERSION = 'select max(version) from data_versions';

/**
 * Records a new data version in session `s`: the one after the last committed, under the lock
 * that orders them (BulkSession.lockVersions, held to the commit); returns it. `origin` says
 * what made it ("ingest of 3 files", "demo build"), `changes` what it changed.
 */
export async function recordVersion(s: BulkSession, origin: string, changes: readonly DataChange[], now = Date.now()): Promise<number> {
  await s.lockVersions();
  const [[last]] = await s.queryRows(CURRENT_VERSION);
  const version = Number(last ?? 0) + 1;
  await s.query('insert into data_versions (version, at, origin) values (?, ?, ?)', [version, now, origin]);
  for (const c of changes) {
    await s.query('insert into data_changes (version, dataset, rows, instruments, from_date, to_date) values (?, ?, ?, ?, ?, ?)', [
      version,
      c.dataset,
      c.rows,
      c.instruments === null ? null : JSON.stringify(c.instruments),
      c.from,
      c.to,
    ]);
  }
  return version;
}

/** How a reader reads: rows as arrays, by SQL with `?` placeholders (Store.selectRows, or a snapshot's). */
export type RowSource = (sql: string, params: unknown[]) => Promise<unknown[][]>;

/** The data version a source reads now (1 in a new store; 0 in one never migrated past 0017). */
export async function currentVersion(rows: RowSource): Promise<number> {
  const [[v]] = await rows(CURRENT_VERSION, []);
  return Number(v ?? 0);
}

/** The latest data version and when it was made (epoch ms); undefined in a store without versions. */
export async function latestVersion(rows: RowSource): Promise<{ version: number; at: number } | undefined> {
  const [r] = await rows('select version, at from data_versions order by version desc limit 1', []);
  return r === undefined ? undefined : { version: Number(r[0]), at: Number(r[1]) };
}

/**
 * The versions after `after`, ascending, at most `limit` of them, each with what it changed
 * (datasets in name order): what a holder of version `after` has to catch up on.
 */
export async function changesSince(rows: RowSource, after: number, limit = 100): Promise<DataVersion[]> {
  const versions = await rows('select version, at, origin from data_versions where version > ? order by version limit ?', [after, limit]);
  if (versions.length === 0) return [];
  const last = Number(versions[versions.length - 1][0]);
  const changes = await rows(
    'select version, dataset, rows, instruments, from_date, to_date from data_changes' +
      ' where version > ? and version <= ? order by version, dataset',
    [after, last],
  );
  const byVersion = new Map<number, DataChange[]>();
  for (const [v, dataset, n, instruments, from, to] of changes) {
    const list = byVersion.get(Number(v)) ?? [];
    list.push(changeOf(dataset, n, instruments, from, to));
    byVersion.set(Number(v), list);
  }
  return versions.map(([v, at, origin]) => ({
    version: Number(v),
    at: Number(at),
    origin: String(origin),
    changes: byVersion.get(Number(v)) ?? [],
  }));
}

/** What a reader of the log asks for (changeLog): versions that changed a dataset, an instrument, or both. */
export interface LogFilter {
  dataset?: string;
  /** An instrument id: versions whose changes name it, or all instruments (null), match. */
  instrument?: string;
}

/** `s` as a LIKE pattern matching itself (`\` escapes). */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The versions after `after`, ascending, at most `limit`, that match `filter`, each with the
 * changes that match it (datasets in name order). A version recorded without changes matches
 * every filter (it may have changed anything), with no changes. Without a filter, changesSince.
 */
export async function changeLog(rows: RowSource, after: number, limit: number, filter: LogFilter = {}): Promise<DataVersion[]> {
  if (filter.dataset === undefined && filter.instrument === undefined) return changesSince(rows, after, limit);
  const conds: string[] = [];
  const params: unknown[] = [];
  if (filter.dataset !== undefined) {
    conds.push('c.dataset = ?');
    params.push(filter.dataset);
  }
  if (filter.instrument !== undefined) {
    conds.push("(c.instruments is null or c.instruments like ? escape '\\')");
    params.push(`%${likeLiteral(JSON.stringify(filter.instrument))}%`);
  }
  const match = conds.join(' and ');
  const found = await rows(
    'select v.version, v.at, v.origin, c.dataset, c.rows, c.instruments, c.from_date, c.to_date' +
      ` from data_versions v left join data_changes c on c.version = v.version and ${match}` +
      ' where v.version in (select w.version from data_versions w where w.version > ? and' +
      ` (exists (select 1 from data_changes c where c.version = w.version and ${match})` +
      ' or not exists (select 1 from data_changes d where d.version = w.version))' +
      ' order by w.version limit ?) order by v.version, c.dataset',
    [...params, after, ...params, limit],
  );
  const out: DataVersion[] = [];
  for (const [v, at, origin, dataset, n, instruments, from, to] of found) {
    if (out.length === 0 || out[out.length - 1].version !== Number(v))
      out.push({ version: Number(v), at: Number(at), origin: String(origin), changes: [] });
    if (dataset !== null) out[out.length - 1].changes.push(changeOf(dataset, n, instruments, from, to));
  }
  return out;
}

/** A change as a row of data_changes holds it. */
function changeOf(dataset: unknown, n: unknown, instruments: unknown, from: unknown, to: unknown): DataChange {
  return {
    dataset: String(dataset),
    rows: Number(n),
    instruments: instruments === null ? null : (JSON.parse(String(instruments)) as string[]),
    from: from === null ? null : Number(from),
    to: to === null ? null : Number(to),
  };
}

/**
 * Version `v` as changeLog with `filter` has it (the changes that match, or none for a version
 * recorded without changes), or null when it does not match: the same rule, in memory.
 */
export function matchVersion(v: DataVersion, filter: LogFilter): DataVersion | null {
  if ((filter.dataset === undefined && filter.instrument === undefined) || v.changes.length === 0) return v;
  const changes = v.changes.filter(
    (c) =>
      (filter.dataset === undefined || c.dataset === filter.dataset) &&
      (filter.instrument === undefined || c.instruments === null || c.instruments.includes(filter.instrument)),
  );
  return changes.length === 0 ? null : { ...v, changes };
}
