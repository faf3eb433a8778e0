import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database as Schema } from '../schema.js';
import type { BulkSession, ReadSession, Store } from '../types.js';
import { upserter, type Upsert } from './sqlite-upsert.js';
import { beginFirstLoad } from './sqlite-first-load.js';
import { StoreHealth } from '../health.js';
import { CURRENT_VERSION } from '../versions.js';

/**
 * The connection as Kysely sees it, faster on both ends of a query:
 * - its prepared statements are kept (LRU, by SQL text): Kysely prepares every query it runs,
 *   and parsing and planning cost more than many reads. A statement still executing (an open
 *   iterator) is never handed out twice.
 * - rows are fetched as arrays and made into objects by a function compiled per statement:
 *   better-sqlite3 builds row objects through V8's API one property at a time, which took
 *   twice as long as reading the rows (perf, 51 statement rows of 12 columns).
 */
/** SQLite result codes that mean the file cannot be read or locked, not that a query is wrong. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|CORRUPT|NOTADB|FULL|NOMEM|PROTOCOL)/;

/** What better-sqlite3 throws (a TypeError, no code) for a statement on a closed connection. */
const CLOSED = 'The database connection is not open';

/**
 * Why the SQLite file cannot answer, when `err` says so; null for an error of the query itself.
 * A closed connection (the store closed while a request still reads: a shutdown, a test's
 * teardown) cannot answer either.
 */
export function sqliteUnavailable(err: unknown): string | null {
  if (err instanceof TypeError && err.message === CLOSED) return 'the store is closed';
  const e = err as { code?: unknown; message?: unknown };
  return typeof e?.code === 'string' && UNAVAILABLE.test(e.code) ? `${e.code}: ${String(e.message)}` : null;
}

/**
 * Runs a statement: a failure for want of the file becomes `StoreUnavailable` (health.ts),
 * a success tells `health` the store answers.
 */
function guarded<T>(health: StoreHealth, run: () => T): T {
  const mark = health.mark;
  let r: T;
  try {
    r = run();
  } catch (e) {
    const reason = sqliteUnavailable(e);
    throw reason === null ? e : health.failed(reason, e);
  }
  health.ok(mark);
  return r;
}

function cachingPrepares(raw: Database.Database, health: StoreHealth) {
  type Row = (r: unknown[]) => unknown;
  /** A prepared statement and, for a reader, the function that makes a row object of an array. */
  const prepared = (sql: string) => {
    const stmt = raw.prepare(sql);
    const names = stmt.reader ? stmt.columns().map((c) => c.name) : null;
    const row = names && (new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as Row);
    return { stmt, row };
  };
  const cache = new LRUCache<string, { stmt: Database.Statement; row: Row | null }>({ max: 500 });
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      let p = cache.get(sql);
      if (!p) cache.set(sql, (p = guarded(health, () => prepared(sql))));
      else if (p.stmt.busy) p = guarded(health, () => prepared(sql));
      const { stmt, row } = p;
      return {
        reader: row !== null,
        all: (params: readonly unknown[]) =>
          guarded(health, () => (row ? (stmt.raw(true).all(params) as unknown[][]).map(row) : stmt.all(params))),
        run: (params: readonly unknown[]) => guarded(health, () => stmt.run(params)),
        iterate: (params: readonly unknown[]) => guarded(health, () => (row ? stmt.raw(false) : stmt).iterate(params)),
      };
    },
  };
}

/**
 * The page cache of a store file, KiB: about 1/512 of the file, between 8 and 64 MiB, and no
 * mmap. Requests read leaf pages at random over the whole file, so beyond the b-trees' interior
 * pages (about 1/1000 of a file of 16 KiB pages) a bigger cache hardly hits more: the OS page
 * cache keeps hot pages outside the process's RSS. (A 2.7 GB store: 8 MiB served the benchmark
 * as fast as 32 MiB, with 23 MB less RSS; a 20 GB one needs its interior pages cached.)
 */
function cacheKiB(file: string): number {
  const size = file === ':memory:' || !existsSync(file) ? 0 : statSync(file).size;
  return Math.round(Math.min(64 * 1024, Math.max(8 * 1024, size / 512 / 1024)));
}

/**
 * Prepared statements of a connection, kept: the request path's reads, and a writer's (bulk
 * session) batch statements, which repeat thousands of times in a large load (preparing one
 * costs more than running it). `rows`: rows as arrays.
 */
function statementCache(raw: Database.Database) {
  const statements = new LRUCache<string, Database.Statement>({ max: 512 });
  return (sql: string, rows: boolean) => {
    const key = rows ? '\0raw' + sql : sql;
    let stmt = statements.get(key);
    if (!stmt) {
      stmt = raw.prepare(sql);
      if (rows) stmt.raw(true);
      statements.set(key, stmt);
    }
    return stmt;
  };
}

/** A connection to the file with the store's settings (`cacheKiB` of page cache). */
function connect(file: string, cache: number): Database.Database {
  const raw = new Database(file);
  // 16 KiB pages (a new file only; an existing one keeps its page size): a month of precomputed
  // indicator pages (derived/indicator-pages.ts, about 5 KB) then fits in its b-tree page instead of spilling to overflow pages.
  raw.pragma('page_size = 16384');
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma(`cache_size = -${cache}`);
  raw.pragma('busy_timeout = 5000');
  return raw;
}

/** A connection that read snapshots are taken on: its driver, Kysely over it and its statements. */
interface ReadConnection {
  raw: Database.Database;
  db: Kysely<Schema>;
  statement: ReturnType<typeof statementCache>;
}

/**
 * Read snapshots (Store.snapshot) on connections of their own, up to `max` open at once (more
 * wait, first come first served): each is a read transaction, which in WAL mode reads the file
 * as of its first read, whatever commits meanwhile. A connection is opened when none is free,
 * kept when released. An in-memory store has one connection, which snapshots share without a
 * transaction (nothing but this process writes it; tests).
 */
class ReadPool {
  private readonly free: ReadConnection[] = [];
  private readonly waiting: ((c: ReadConnection) => void)[] = [];
  private opened = 0;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly health: StoreHealth,
    private readonly cache: number,
    private readonly max = 16,
  ) {}

  async snapshot(): Promise<ReadSession> {
    if (this.closed) throw this.health.failed('the store is closed', null);
    const conn = this.free.pop() ?? (this.opened < this.max ? this.open() : await new Promise<ReadConnection>((r) => this.waiting.push(r)));
    const { health } = this;
    let version: number;
    try {
      version = guarded(health, () => {
        conn.raw.exec('begin');
        return Number((conn.statement(CURRENT_VERSION, true).all() as unknown[][])[0][0] ?? 0);
      });
    } catch (e) {
      this.drop(conn);
      throw e;
    }
    let released = false;
    return {
      version,
      db: conn.db,
      select: async <T>(sql: string, params: unknown[]) => guarded(health, () => conn.statement(sql, false).all(...params) as T[]),
      selectRows: async (sql: string, params: unknown[]) => guarded(health, () => conn.statement(sql, true).all(...params) as unknown[][]),
      release: () => {
        if (released) return;
        released = true;
        try {
          conn.raw.exec('commit');
        } catch {
          this.drop(conn);
          return;
        }
        this.put(conn);
      },
    };
  }

  private open(): ReadConnection {
    const raw = guarded(this.health, () => connect(this.file, this.cache));
    this.opened++;
    return {
      raw,
      db: new Kysely<Schema>({ dialect: new SqliteDialect({ database: cachingPrepares(raw, this.health) }) }),
      statement: statementCache(raw),
    };
  }

  private put(conn: ReadConnection): void {
    if (this.closed) {
      conn.raw.close();
      return;
    }
    const next = this.waiting.shift();
    if (next) next(conn);
    else this.free.push(conn);
  }

  /** Forgets a connection that failed (closed if it can be); a waiter gets a new one. */
  private drop(conn: ReadConnection): void {
    this.opened--;
    try {
      conn.raw.close();
    } catch {
      /* already unusable */
    }
    const next = this.waiting.shift();
    if (next && !this.closed) {
      try {
        next(this.open());
      } catch {
        this.waiting.unshift(next);
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const c of this.free.splice(0)) c.raw.close();
  }
}

/** Opens (creating if needed) a SQLite store. One of the two files that import a driver. */
export function openSqlite(file: string): Store {
  const cache = cacheKiB(file);
  const raw = connect(file, cache);
  const health = new StoreHealth();
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: cachingPrepares(raw, health) }) });
  const statement = statementCache(raw);
  const memory = file === ':memory:' || file === '';
  const reads = memory ? null : new ReadPool(file, health, cache);
  const select = async <T>(sql: string, params: unknown[]) => guarded(health, () => statement(sql, false).all(...params) as T[]);
  const selectRows = async (sql: string, params: unknown[]) => guarded(health, () => statement(sql, true).all(...params) as unknown[][]);
  return {
    dialect: 'sqlite',
    readCost: 'local',
    select,
    selectRows,
    db,
    async snapshot() {
      if (reads !== null) return reads.snapshot();
      const [[v]] = await selectRows(CURRENT_VERSION, []);
      return { version: Number(v ?? 0), db, select, selectRows, release() {} };
    },
    async backup(target: string) {
      await raw.backup(target);
    },
    bulkInsert(table, columns, rows) {
      return this.bulkTransaction((s) => s.insert(table, columns, rows));
    },
    async bulkTransaction(fn, opts) {
      const upserts = new Map<string, Upsert>();
      const inserts = new Map<string, Database.Statement>();
      const session: BulkSession = {
        async query<T>(sql: string, params: unknown[] = []) {
          const stmt = statement(sql, false);
          if (stmt.reader) return stmt.all(...params) as T[];
          stmt.run(...params);
          return [];
        },
        async queryRows(sql: string, params: unknown[] = []) {
          return statement(sql, true).all(...params) as unknown[][];
        },
        async upsert(t, rows, opts) {
          const id = `${t.table}(${t.columns.join(',')})`;
          let up = upserts.get(id);
          if (!up) {
            up = upserter(raw, t);
            upserts.set(id, up);
          }
          if (!opts?.changed) return up(rows);
          const changed: number[] = [];
          return { ...up(rows, changed), changed };
        },
        async insert(table, columns, rows) {
          const id = `${table}(${columns.join(',')})`;
          let stmt = inserts.get(id);
          if (!stmt) {
            stmt = raw.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
            inserts.set(id, stmt);
          }
          for (const r of rows) stmt.run(r);
        },
        // One writer at a time already: the transaction takes the write lock up front.
        async lockPacks() {},
        // Likewise for the data versions.
        async lockVersions() {},
      };
      const restore = opts?.firstLoad && !opts.readOnly ? beginFirstLoad(raw) : null;
      // Immediate: take the write lock up front (busy_timeout waits for another writer).
      raw.exec(opts?.readOnly ? 'begin' : 'begin immediate');
      try {
        const result = await fn(session);
        raw.exec(opts?.readOnly ? 'rollback' : 'commit');
        return result;
      } catch (e) {
        if (raw.inTransaction) raw.exec('rollback');
        throw e;
      } finally {
        restore?.();
      }
    },
    /**
     * The connection answers, and so does the file itself: opened afresh, past the pages this
     * connection keeps in memory, so a file that became unreadable (damaged, overwritten,
     * permissions) fails here, as the reads that miss the cache do.
     */
    async ping() {
      guarded(health, () => {
        raw.prepare('select 1 from meta limit 1').get();
        if (file === ':memory:' || file === '') return;
        const fresh = new Database(file, { readonly: true, fileMustExist: true });
        try {
          fresh.prepare('select 1 from meta limit 1').get();
        } finally {
          fresh.close();
        }
      });
    },
    health,
    /**
     * Closes the connection, not Kysely's driver: a query still to run (a request in flight
     * when a shutdown closes the store) then fails as StoreUnavailable (503), where a destroyed
     * driver throws a plain error (500).
     */
    async close() {
      reads?.close();
      raw.close();
    },
  };
}
