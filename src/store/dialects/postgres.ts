import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database as Schema } from '../schema.js';
import type { ReadSession, Store, StoreTimeouts } from '../types.js';
import { StoreHealth, StoreUnavailable } from '../health.js';
import { CURRENT_VERSION } from '../versions.js';
import { pgBulkTransaction } from './postgres-bulk.js';
import { hostPool, NoHost, pgHosts } from './postgres-hosts.js';

/**
 * int8 comes back as a JS number (every stored integer is below 2^53, checked here) so that
 * both stores yield the same runtime types; numeric stays a string.
 */
function parseInt8(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${v} exceeds 2^53`);
  return n;
}

/** Network errors that mean the server cannot be reached or the connection broke. */
const NET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ENOENT',
]);
/** What pg and pg-pool say when a connection fails, breaks or times out, or the pool was closed (ended) under a request. */
const DRIVER =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|timeout expired|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end on the pool)/;

/**
 * Why PostgreSQL cannot answer, when `err` says so; null for an error of the query itself.
 * SQLSTATE classes 08 (connection), 53 (insufficient resources), 57 (operator intervention:
 * shutdown, cannot connect now, statement timeout), 58 (system / I/O), 28 (authentication) and
 * 3D000 (no such database); a replica's conflict with recovery (40001, 40P01); network errors;
 * the driver's connection and timeout errors.
 */
export function pgUnavailable(err: unknown): string | null {
  const e = err as { code?: unknown; message?: unknown; severity?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (err instanceof NoHost) return message;
  if (typeof e?.severity === 'string') {
    if (code === '57014') return `statement timeout (${message})`;
    // A hot standby cancelling a read whose rows its replay removes: that replica cannot answer
    // the read now (the request is answered again from the primary: http-cache.ts dataTags).
    if ((code === '40001' || code === '40P01') && /conflict with recovery/i.test(message)) return `${code} ${message}`;
    return /^(08|53|57|58|28)/.test(code) || code === '3D000' ? `${code} ${message}` : null;
  }
  if (NET.has(code)) return message;
  if (DRIVER.test(message)) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return cause ? `${message} (${cause})` : message;
  }
  return null;
}

/** How long a released snapshot's connection waits for the next snapshot before it is committed and pooled (ms). */
const WARM_MS = 50;

/** Distinct SQL texts run as named statements, at most (the rest run unnamed). */
export const MAX_NAMED = 256;

/** Requests of one event-loop turn that share a PostgreSQL snapshot, at most. */
const GROUP_MAX = 8;

/** Marks a connection handed from a released snapshot to the next while still in its transaction. */
const IN_TX = Symbol('in a snapshot transaction');

/** The client's own bound on a statement: the server's statement timeout plus a second. */
const queryTimeout = (t?: StoreTimeouts) => (t?.statementMs ? t.statementMs + 1000 : undefined);

/**
 * The pool as Kysely sees it: statements get the request bound (`query_timeout`), failures for
 * want of the server become `StoreUnavailable`, and a connection that failed so is dropped, not
 * returned to the pool (a statement that timed out may still hold it).
 */
function kyselyPool(pool: pg.Pool, health: StoreHealth, fail: (e: unknown) => unknown, timeouts?: StoreTimeouts) {
  const query_timeout = queryTimeout(timeouts);
  interface Wrapped {
    query(q: unknown, values?: unknown[]): unknown;
    release(): void;
  }
  const wrapped = new WeakMap<pg.PoolClient, Wrapped>();
  return {
    async connect(): Promise<Wrapped> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (e) {
        throw fail(e);
      }
      let w = wrapped.get(client);
      if (!w) {
        const q = clientQueries(client, health, fail);
        w = {
          query(text: unknown, values?: unknown[]) {
            if (typeof text !== 'string') return client.query(text as pg.Submittable); // a cursor
            return q.query({ text, values, query_timeout } as pg.QueryConfig);
          },
          release() {
            const broken = q.broken;
            q.broken = undefined;
            client.release(broken);
          },
        };
        wrapped.set(client, w);
      }
      return w;
    },
    end: () => pool.end(),
  };
}

/** A pooled connection's queries, as every path of this store runs them (clientQueries). */
interface ClientQueries {
  query(q: pg.QueryConfig): Promise<pg.QueryResult>;
  /** Set when a query failed for want of the server: the connection is dropped, not pooled, when released. */
  broken?: Error;
}
const queriesOf = new WeakMap<pg.PoolClient, ClientQueries>();

/**
 * The queries of one pooled connection (made once per connection): one after another (the
 * requests sharing a snapshot send theirs at once: each starts when the one before it has
 * settled), each telling `health` the server answered, a failure for want of the server becoming
 * StoreUnavailable (`fail`) and marking the connection broken.
 */
function clientQueries(client: pg.PoolClient, health: StoreHealth, fail: (e: unknown) => unknown): ClientQueries {
  let q = queriesOf.get(client);
  if (q) return q;
  let tail: Promise<unknown> = Promise.resolve();
  const self: ClientQueries = {
    async query(config) {
      let mark = 0;
      const run = tail.then(() => {
        // A query queued behind one that found the server gone fails with it, at once, instead
        // of waiting its own timeout on a connection that will not answer (requests sharing a
        // snapshot would otherwise wait a timeout each, one after the other).
        if (self.broken) throw self.broken;
        mark = health.mark;
        return client.query(config);
      });
      tail = run.catch(() => {});
      try {
        const r = await run;
        health.ok(mark);
        return r;
      } catch (e) {
        const f = fail(e);
        if (f !== e) self.broken = e as Error;
        throw f;
      }
    },
  };
  queriesOf.set(client, (q = self));
  return q;
}

/** A PostgreSQL store, and the host it writes to (its URL may name several: postgres-hosts.ts). */
export type PostgresStore = Store & {
  /** The host (`host:port`) new connections go to now: the writable one found last, with several. */
  writesTo(): string;
};

/**
 * Opens a PostgreSQL store. One of the two files that import a driver. `url` may name several
 * hosts, as libpq's (postgres-hosts.ts): connections go to the one that answers (with
 * `target_session_attrs=read-write`, accepts writes), following it through a failover.
 */
export function openPostgres(url: string, timeouts?: StoreTimeouts, poolSize = 10): PostgresStore {
  const list = pgHosts(url);
  if (typeof list === 'string') throw new Error(`cannot open the store: ${list}`);
  const types = {
    getTypeParser(oid: number, format?: any) {
      if (oid === 20) return parseInt8;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const health = new StoreHealth();
  const fail = (e: unknown) => {
    const reason = pgUnavailable(e);
    return reason === null ? e : health.failed(reason, e);
  };
  const connectMs = timeouts?.connectMs || undefined;
  /**
   * Each connection gets the connect timeout; the pool's own (acquiring, connecting included) is
   * the acquire timeout. And an error listener for its whole life: the pool listens only while a
   * connection is idle, and a connection's error (PostgreSQL stopping or terminating its backend:
   * 57P01; the socket reset) with no listener would end the process. The error also fails the
   * connection's queries, marks it not queryable, and the pool drops it on release.
   */
  class Client extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectMs });
      this.on('error', () => {
        /* its queries fail with it (StoreUnavailable); the pool drops the connection */
      });
    }
  }
  const poolOf = (connectionString: string) =>
    new pg.Pool({
      connectionString,
      max: poolSize + 2,
      types,
      Client,
      connectionTimeoutMillis: timeouts?.acquireMs || undefined,
      statement_timeout: timeouts?.statementMs || undefined,
    } as unknown as pg.PoolConfig);
  // One host and no target_session_attrs: node-postgres's own pool, the URL as given.
  const hosts = list.hosts.length === 1 && !list.writable && !/[?&]target_session_attrs=/.test(url) ? null : hostPool(list, poolOf);
  const pool = (hosts ?? poolOf(url)) as pg.Pool;
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  let ended: Promise<void> | undefined;
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: kyselyPool(pool, health, fail, timeouts) as any }) });
  const query_timeout = queryTimeout(timeouts);
  const run = async (q: pg.QueryConfig) => {
    const mark = health.mark;
    try {
      const r = await pool.query(q);
      health.ok(mark);
      return r;
    } catch (e) {
      throw fail(e);
    }
  };
  /**
   * The request path's reads as named (server-side prepared) statements: each connection parses
   * and plans one once and keeps it for its life. Bounded: the first MAX_NAMED texts get names;
   * any text after them runs unnamed (parsed each time), so no connection ever keeps more than
   * MAX_NAMED statements whatever SQL it is given. The readers' texts are a few dozen.
   */
  const names = new Map<string, { name?: string; text: string }>();
  const named = (sql: string) => {
    let q = names.get(sql);
    if (!q) {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      if (names.size >= MAX_NAMED) return { text };
      q = { name: `mds_${names.size}`, text };
      names.set(sql, q);
    }
    return q;
  };
  /** Kysely over one pooled connection, made once per connection (the pool keeps its connections). */
  const kyselyOf = new WeakMap<pg.PoolClient, ClientQueries & { db: Kysely<Schema> }>();
  const bound = (client: pg.PoolClient) => {
    let b = kyselyOf.get(client);
    if (b) return b;
    const q = clientQueries(client, health, fail);
    const connection = {
      query: (text: string, values?: unknown[]) => q.query({ text, values, query_timeout } as pg.QueryConfig),
      release() {},
    };
    b = Object.assign(q, {
      db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool: { connect: async () => connection, end: async () => {} } as any }) }),
    });
    kyselyOf.set(client, b);
    return b;
  };
  /**
   * Snapshots hold up to `poolSize` connections of the pool (two more serve everything else: key
   * lookups, probes, ingest), handed out first come, first served. A released snapshot's
   * connection stays checked out and in its read-only transaction: the next snapshot (the
   * first waiting, else the next to come within WARM_MS) ends it and begins its own in one round
   * trip (`commit; begin …; select version`). One not taken within WARM_MS is committed and goes
   * back to the pool, so no other user ever gets a connection inside a transaction and no
   * snapshot stays open on an idle server.
   */
  const warm: { client: pg.PoolClient; timer: NodeJS.Timeout }[] = [];
  const waiting: ((c: pg.PoolClient | Error) => void)[] = [];
  let held = 0;
  /** A connection leaves the snapshots: committed (when `commit`) and given back to the pool (dropped when broken). */
  const giveBack = (client: pg.PoolClient, broken?: Error | boolean) => {
    held--;
    if (broken) client.release(broken);
    else
      bound(client)
        .query({ text: 'commit' })
        .then(
          () => client.release(),
          (e: Error) => client.release(e),
        );
    // A waiter may take the place freed.
    const next = waiting.shift();
    if (next) {
      held++;
      pool.connect().then(next, (e: Error) => {
        held--;
        next(e);
      });
    }
  };
  const acquire = async (): Promise<{ client: pg.PoolClient; inTransaction: boolean }> => {
    const w = warm.pop();
    if (w) {
      clearTimeout(w.timer);
      return { client: w.client, inTransaction: true };
    }
    if (held < poolSize) {
      held++;
      try {
        return { client: await pool.connect(), inTransaction: false };
      } catch (e) {
        held--;
        throw fail(e);
      }
    }
    // Waits its turn, as long as the pool's acquire timeout (PG_POOL_ACQUIRE_TIMEOUT_MS) allows,
    // connecting included: a place freed for it late (a connection still being opened when the
    // time is up) is freed again for the next.
    const got = await new Promise<pg.PoolClient | Error>((resolve) => {
      const acquireMs = timeouts?.acquireMs;
      let done = false;
      const timer = acquireMs
        ? setTimeout(() => {
            const i = waiting.indexOf(take);
            if (i >= 0) waiting.splice(i, 1);
            done = true;
            resolve(new Error('timeout exceeded when trying to connect'));
          }, acquireMs)
        : null;
      const take = (c: pg.PoolClient | Error) => {
        if (done) {
          if (!(c instanceof Error)) giveBack(c);
          return;
        }
        done = true;
        if (timer) clearTimeout(timer);
        resolve(c);
      };
      waiting.push(take);
    });
    if (got instanceof Error) throw fail(got);
    // From a released snapshot (in its transaction) or fresh from the pool.
    return { client: got, inTransaction: (got as { [IN_TX]?: boolean })[IN_TX] === true };
  };
  /**
   * A snapshot: BEGIN REPEATABLE READ, READ ONLY and the version read in one round trip (a
   * simple query of two statements, three with the COMMIT of the connection's last snapshot).
   */
  const snapshot = async (again = true): Promise<ReadSession> => {
    const { client, inTransaction } = await acquire();
    (client as { [IN_TX]?: boolean })[IN_TX] = false;
    const b = bound(client);
    b.broken = undefined;
    let version: number;
    try {
      const rs = (await b.query({
        text: `${inTransaction ? 'commit; ' : ''}begin isolation level repeatable read, read only; ${CURRENT_VERSION}`,
        query_timeout,
      } as pg.QueryConfig)) as unknown as pg.QueryResult[];
      version = Number(rs[rs.length - 1].rows[0].max ?? 0);
    } catch (e) {
      const broken = b.broken;
      giveBack(client, broken ?? true);
      // A connection that died while it waited (its backend terminated, the server restarted):
      // nothing was read on it, so once more on another (a new one, if the server answers). Not
      // after a timeout, which would double the documented wait.
      if (again && broken && e instanceof StoreUnavailable && !/timeout/i.test(e.reason)) return snapshot(false);
      throw e;
    }
    let released = false;
    return {
      version,
      db: b.db,
      select: async <T>(sql: string, params: unknown[]) =>
        (await b.query({ ...named(sql), values: params, query_timeout } as pg.QueryConfig)).rows as T[],
      selectRows: async (sql: string, params: unknown[]) =>
        (await b.query({ ...named(sql), values: params, rowMode: 'array', query_timeout } as pg.QueryConfig)).rows as unknown[][],
      release() {
        if (released) return;
        released = true;
        if (b.broken || ended) {
          giveBack(client, b.broken);
          return;
        }
        (client as { [IN_TX]?: boolean })[IN_TX] = true;
        const next = waiting.shift();
        if (next) {
          next(client);
          return;
        }
        const entry = {
          client,
          timer: setTimeout(() => {
            const i = warm.indexOf(entry);
            if (i >= 0) {
              warm.splice(i, 1);
              giveBack(client);
            }
          }, WARM_MS).unref(),
        };
        warm.push(entry);
      },
    };
  };
  /**
   * Snapshots asked for in one event-loop turn share one (up to GROUP_MAX requests): requests that
   * start together may all read the same version, and each round trip costs this process more
   * (a write, a read and their wake-ups) than a page's own work. A shared snapshot's connection
   * serves its requests' reads one after the other and is released when the turn is over and
   * the last of them released it.
   */
  let group: { open: Promise<ReadSession>; users: number; closed: boolean } | null = null;
  const grouped = async (): Promise<ReadSession> => {
    let g = group;
    if (g === null || g.users >= GROUP_MAX) {
      const fresh = { open: snapshot(), users: 0, closed: false };
      group = g = fresh;
      setImmediate(() => {
        fresh.closed = true;
        if (group === fresh) group = null;
        if (fresh.users === 0)
          fresh.open.then(
            (x) => x.release(),
            () => {},
          );
      });
      // A failed open is every member's failure, and nobody's to release.
      fresh.open.catch(() => {});
    }
    g.users++;
    const shared = g;
    let session: ReadSession;
    try {
      session = await shared.open;
    } catch (e) {
      shared.users--;
      throw e;
    }
    let released = false;
    return {
      version: session.version,
      db: session.db,
      select: session.select,
      selectRows: session.selectRows,
      release() {
        if (released) return;
        released = true;
        if (--shared.users === 0 && shared.closed) session.release();
      },
    };
  };
  /** A connection of its own, listening for committed versions; a failed one is replaced a second later. */
  const watchVersions = (on: (version: number) => void) => {
    let stopped = false;
    let client: pg.Client | null = null;
    let retry: NodeJS.Timeout | null = null;
    const listen = () => {
      if (stopped) return;
      // On the host written to (a standby refuses LISTEN: tried again a second later, on the host found then).
      const c = new pg.Client({ connectionString: hosts ? hosts.currentUrl() : url, connectionTimeoutMillis: connectMs });
      client = c;
      let failed = false;
      const again = () => {
        if (failed) return;
        failed = true;
        c.removeAllListeners('notification');
        c.end().catch(() => {});
        if (!stopped) retry = setTimeout(listen, 1000).unref();
      };
      c.on('error', again);
      c.on('end', again);
      c.on('notification', (n) => {
        const v = Number(n.payload);
        if (Number.isSafeInteger(v)) on(v);
      });
      c.connect()
        .then(() => c.query('listen mds_data_version'))
        .catch(again);
    };
    listen();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      client?.end().catch(() => {});
    };
  };
  return {
    dialect: 'postgres',
    writesTo: () => (hosts ? hosts.current() : list.hosts[0]),
    watchVersions,
    readCost: 'round-trip',
    snapshot: grouped,
    async select<T>(sql: string, params: unknown[]) {
      return (await run({ ...named(sql), values: params, query_timeout } as pg.QueryConfig)).rows as T[];
    },
    async selectRows(sql: string, params: unknown[]) {
      return (await run({ ...named(sql), values: params, rowMode: 'array', query_timeout } as pg.QueryConfig)).rows as unknown[][];
    },
    db,
    bulkInsert(table, columns, rows) {
      return pgBulkTransaction(pool, (s) => s.insert(table, columns, rows), undefined, fail);
    },
    bulkTransaction: (fn, opts) => pgBulkTransaction(pool, fn, opts, fail),
    async ping() {
      await run({ text: 'select 1', query_timeout } as pg.QueryConfig);
    },
    health,
    /**
     * Ends the pool (once), not Kysely's driver: a query still to run (a request in flight when
     * a shutdown closes the store) then fails as StoreUnavailable (503), where a destroyed
     * driver throws a plain error (500).
     */
    close: () => {
      if (!ended)
        for (const w of warm.splice(0)) {
          clearTimeout(w.timer);
          giveBack(w.client);
        }
      return (ended ??= pool.end());
    },
  };
}
