import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { StoreHealth } from './health.js';

/**
 * The seam between the store and everything above it: a connection to one store (SQLite or
 * PostgreSQL, store/dialects/), its transactions and their capabilities. Dialects implement
 * these interfaces, and a difference that code above needs is a capability here (`lockPacks`),
 * as Kysely's adapters make them, not a test of `dialect`.
 */
export type Dialect = 'sqlite' | 'postgres';

/** A table written by natural key: `key` columns identify a row, the other `columns` are its payload. */
export interface UpsertTarget {
  table: string;
  columns: string[];
  key: string[];
}
export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** What an upsert is asked to tell besides its counts. */
export interface UpsertOptions {
  /** The indices of the rows it inserted or updated (`UpsertChanges.changed`): rows one at a time on SQLite, their keys returned on PostgreSQL. */
  changed?: boolean;
}

/** An upsert's counts and, when asked (UpsertOptions.changed), the indices of the rows it inserted or updated, ascending. */
export interface UpsertChanges extends UpsertCounts {
  changed?: number[];
}

/**
 * One transaction of `Store.bulkTransaction`: reads see the transaction's own writes.
 * `upsert` writes rows (values in `columns` order) by natural key, in order: a new key is
 * inserted, a stored row that differs is replaced, an equal one is left alone (and counted).
 * Bars are written by `upsert` only, never by `query`: the store merges what it writes into
 * their packs (derived/bar-packs.ts), which stay equal to the bars only if nothing else writes them.
 */
export interface BulkSession {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** As `query` for a read, rows as arrays in column order (cheaper to build for many rows). */
  queryRows(sql: string, params?: unknown[]): Promise<unknown[][]>;
  upsert(target: UpsertTarget, rows: unknown[][], opts?: UpsertOptions): Promise<UpsertChanges>;
  /**
   * Inserts new rows (values in `columns` order: numbers, strings, null) as fast as the store
   * can: no key is looked up, so a row whose key is stored fails the transaction. For a table
   * written whole in one transaction (the demo market); bars written so are merged into their
   * packs like an upsert's (derived/bar-packs.ts).
   */
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  /**
   * Takes, once per transaction (again is a no-op), the lock that serialises writes of derived
   * data (bar pack merges, page rebuilds, daily bars derived from 1m bars) until the commit:
   * PostgreSQL's transaction advisory lock; nothing on SQLite, whose transactions take the one
   * write lock up front.
   */
  lockPacks(): Promise<void>;
  /**
   * Takes, until the commit, the lock that orders data versions (store/versions.ts): a version
   * is the one after the last committed, and no other transaction makes one until this one
   * commits, so versions number commits in their order. PostgreSQL locks `data_versions`;
   * nothing on SQLite, whose writers run one at a time.
   */
  lockVersions(): Promise<void>;
  /**
   * Makes now what the writes so far derive (pack merges, the days made again after them), as
   * the end of the transaction would: for a step that reads them before the commit (ingest's
   * price-limit check). Only a session of derived/open.ts's store has it.
   */
  settle?(): Promise<void>;
}

/** Kysely as a reader may use it: queries that read (`selectFrom`), none that write. */
export type ReadDb = Pick<Kysely<Database>, 'selectFrom'>;

/**
 * What a reader reads through: the store itself, or one of its read snapshots (ReadSession).
 * Read-only by type: readers (store/readers/) get no method that writes.
 */
export type Reads = Pick<Store, 'select' | 'selectRows'> & { readonly db: ReadDb };

/**
 * One read snapshot of the store (Store.snapshot): every read through it sees the data of one
 * data version (store/versions.ts), whatever commits meanwhile. It holds a connection until
 * `release` (idempotent), which every holder calls when its last read is done.
 */
export interface ReadSession {
  /** The data version the snapshot reads. */
  readonly version: number;
  /** Where it reads, when the store has more than one place (`primary`, `replica HOST:PORT`): store/dialects/replicated.ts. */
  readonly source?: string;
  /** Kysely over the snapshot's connection (reads only). */
  readonly db: Kysely<Database>;
  select<T>(sql: string, params: unknown[]): Promise<T[]>;
  selectRows(sql: string, params: unknown[]): Promise<unknown[][]>;
  release(): void;
}

/** What the service knows of one replica (the readiness probe shows it). */
export interface ReplicaState {
  /** The replica's URL, its password hidden. */
  url: string;
  /** Whether it answered its last check or snapshot. */
  up: boolean;
  /** A host of DATABASE_URL that is the primary now (written to, read as the primary): not read as a replica meanwhile. */
  primary: boolean;
  /** The data version it had replayed at its last check or snapshot (null before the first). */
  version: number | null;
  /** Versions the primary has committed that it had not replayed then (null when either is unknown). */
  behind: number | null;
  /** Why it is down (null while up). */
  error: string | null;
}

/**
 * What a read snapshot must see, for a store with replicas (store/dialects/replicated.ts; a
 * store of one place reads its latest version whatever is asked).
 */
export interface SnapshotWant {
  /** A data version the request has already seen (its cursor's, its ETag's): none older is read. */
  minVersion?: number;
  /** Read on the primary: a request retried after its replica failed. */
  primary?: boolean;
  /**
   * Read where the replicas are, at the latest version one of them has replayed (past
   * `minVersion`), not the primary's: the event streams tell of a version once a replica has it.
   * The primary answers only when no replica does.
   */
  replayed?: boolean;
}

/**
 * A connection to one store. Everything above this seam is dialect-agnostic.
 * @example const store = openStore('data/mds.sqlite'); await migrate(store);
 */
export interface Store {
  readonly dialect: Dialect;
  /**
   * What a read costs: `local` (SQLite: a call into the file's pages) or `round-trip`
   * (PostgreSQL: a network round trip), so that the query layer keeps in memory what a store of
   * round trips would read again and again (query/snapshot.ts: the daily packs).
   */
  readonly readCost: 'local' | 'round-trip';
  readonly db: Kysely<Database>;
  /**
   * Inserts many rows fast in one transaction of their own (`BulkSession.insert`), with what is
   * derived from them (bar packs, …): no snapshot ever sees the rows without the rest.
   * `deferDerived`: data derived by date from these rows (derived/market-days.ts) is not made
   * again now but forgotten, for the next migration to make whole.
   */
  bulkInsert(table: keyof Database & string, columns: string[], rows: unknown[][], opts?: { deferDerived?: boolean }): Promise<void>;
  /**
   * Runs a hot read with `?` placeholders through a cached prepared statement (better-sqlite3
   * statement cache; PostgreSQL named statements). For the keyset reads on the request path.
   */
  select<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** As `select`, rows as arrays in column order (cheaper to build than objects in the driver). */
  selectRows(sql: string, params: unknown[]): Promise<unknown[][]>;
  /**
   * A read snapshot (ReadSession): SQLite, a read transaction on a connection of a small pool
   * (WAL readers see the file as of their first read); PostgreSQL, a REPEATABLE READ, READ ONLY
   * transaction on a pooled connection. Fails with StoreUnavailable when the store cannot answer.
   */
  snapshot(want?: SnapshotWant): Promise<ReadSession>;
  /**
   * Runs `fn` in one transaction on one connection: commits when it resolves, rolls back when it
   * throws (or the process dies). Readers see the old snapshot until the commit. `readOnly`
   * takes a consistent read snapshot and no write lock (export, dry runs). `deferDerived` (a
   * store of derived/open.ts): data derived by date from the rows written is forgotten rather
   * than made (BulkSession.settle and the commit forget it), for the writer or the next
   * migration to make whole.
   */
  bulkTransaction<T>(fn: (s: BulkSession) => Promise<T>, opts?: BulkOptions): Promise<T>;
  ping(): Promise<void>;
  /**
   * Calls `on` with each data version committed from now on, as the store announces it (PostgreSQL:
   * LISTEN on `mds_data_version`, reconnecting after a failure); returns what stops it. Absent
   * where the store announces nothing (SQLite, read in place).
   */
  watchVersions?(on: (version: number) => void): () => void;
  /** The replicas read snapshots go to, and what is known of each (a PostgreSQL store with DATABASE_REPLICA_URLS). */
  replicas?(): ReplicaState[];
  /**
   * What is known of the primary of a store with replicas: whether it answers (its last query did,
   * or none begun since failed), and the host written to (`host:port`; the last found, while none answers).
   */
  primary?(): { up: boolean; host: string | null };
  /**
   * Copies the whole store into a new file, consistent while others read and write (SQLite's
   * online backup); absent where the database has its own tools (PostgreSQL: pg_dump).
   */
  backup?(file: string): Promise<void>;
  close(): Promise<void>;
  /**
   * What the store's queries tell of its health. A query that fails for want of the store
   * (down, unreachable, frozen, unreadable) throws `StoreUnavailable` (store/health.ts).
   */
  readonly health: StoreHealth;
}

/** How a bulk transaction runs (Store.bulkTransaction). */
export interface BulkOptions {
  readOnly?: boolean;
  deferDerived?: boolean;
  /**
   * The transaction loads a store that holds no bars yet (a first load, `mds ingest` into a new
   * store): a SQLite file is then written in place under a rollback journal, with a larger page
   * cache, instead of through its write-ahead log, when no other connection has it open
   * (store/dialects/sqlite-first-load.ts); still all or nothing. PostgreSQL ignores it.
   */
  firstLoad?: boolean;
}

/**
 * Bounds on waiting for PostgreSQL (ms; 0 = none), for the server's request path. Bulk
 * transactions (ingest, migrations) run without the statement timeout.
 */
export interface StoreTimeouts {
  /** Opening a connection (TCP, startup, authentication). */
  connectMs: number;
  /** One statement (server-side `statement_timeout`; the client gives up 1 s later if the server does not answer at all). */
  statementMs: number;
  /** Waiting for a pooled connection, opening one included. */
  acquireMs: number;
}

/** What the request path may know of a store besides its readers: whether it answers. */
export type StoreStatus = Pick<Store, 'ping' | 'health' | 'replicas' | 'primary'>;
