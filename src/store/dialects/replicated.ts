import type { ReadSession, ReplicaState, SnapshotWant, Store } from '../types.js';
import { StoreUnavailable } from '../health.js';
import { CURRENT_VERSION } from '../versions.js';

interface Replica {
  url: string;
  store: Store;
  /** A host of DATABASE_URL (`host:port`): the primary itself while it is the one written to. */
  host?: string;
  up: boolean;
  /** Replayed, as last seen (0: never seen). */
  version: number;
  /** When a snapshot of it was found behind the version asked for. */
  behindAt: number;
  error: string | null;
}

/** How often the primary's latest version and each replica's replayed one are read (ms). */
export const REPLICA_POLL_MS = 250;
/** How long a replica found behind the version a request needs is not tried (ms). */
export const BEHIND_REST_MS = 20;

/**
 * One store over a PostgreSQL primary and its streaming replicas (DATABASE_REPLICA_URLS, and the
 * other hosts of a DATABASE_URL naming several; docs/scaling.md). Writes, key lookups and
 * everything but read snapshots go to the primary.
 * A read snapshot goes to a replica that has replayed the data version the request needs: the
 * latest the primary has committed (announced by it at each commit, read every REPLICA_POLL_MS
 * too, and from every snapshot), or a
 * later one a cursor or an ETag of the request names (`want.minVersion`). The snapshot's own
 * version (read in the round trip that opens it) is checked: a replica behind is not used for
 * the request, nor tried again for BEHIND_REST_MS unless a check sees it caught up. When no replica has the version,
 * or one is asked for (`want.primary`: a request retried after its replica failed), the primary
 * answers. A replica that fails is skipped until a check finds it answering again; replicas
 * take turns. A snapshot that asks for what the replicas have replayed (`want.replayed`: the
 * event streams) is read on a replica at the latest version one has, the primary only when none answers.
 *
 * While the primary cannot answer (its queries fail for want of it: store/health.ts), the version
 * a request needs is the highest this store has served (its own floor: the primary's latest cannot
 * be read), and a request the primary fails is answered by a replica at that floor; `ping`
 * answers if such a replica does. A host of DATABASE_URL that is the one written to (`host`
 * equal to the primary's `writesTo`) is the primary, not a replica, while the primary answers.
 */
/** `replicas[].url` as shown (no password). */
export function openReplicated(
  primary: Store & { writesTo?(): string },
  replicas: { url: string; store: Store; host?: string }[],
  { pollMs = REPLICA_POLL_MS, behindRestMs = BEHIND_REST_MS }: { pollMs?: number; behindRestMs?: number } = {},
): Store {
  const all: Replica[] = replicas.map((r) => ({
    url: r.url,
    store: r.store,
    host: r.host,
    up: true,
    version: 0,
    behindAt: 0,
    error: null,
  }));
  primary.health.meanwhile =
    'reads go on from the replicas that have every version served (keys read there, or as cached), writes fail until a primary answers';
  let latest = 0;
  /** The highest version of a snapshot this store has handed out. */
  let served = 0;
  let turn = 0;
  const reason = (e: unknown) => (e instanceof StoreUnavailable ? e.reason : e instanceof Error ? e.message : String(e));
  const down = (r: Replica, e: unknown) => {
    r.up = false;
    r.error = reason(e);
  };
  const primaryDown = () => primary.health.unavailable;
  /** A host of DATABASE_URL that is the primary now (read as the primary, not as a replica). */
  const isPrimary = (r: Replica) => r.host !== undefined && r.host === primary.writesTo?.() && !primaryDown();
  /** A read cancelled by the replica's replay (conflict with recovery), not a replica that cannot answer. */
  const conflict = (e: unknown) => e instanceof StoreUnavailable && /^40(001|P01) /.test(e.reason);
  const versionOf = async (s: Store) => Number((await s.selectRows(CURRENT_VERSION, []))[0]?.[0] ?? 0);
  /**
   * Checks one place (each on its own: one that hangs, frozen or unreachable, delays no other's):
   * the primary's latest version, or a replica's replayed one and whether it answers.
   */
  const checker = (check: () => Promise<void>) => {
    let running: Promise<void> | null = null;
    return () => (running ??= check().finally(() => (running = null)));
  };
  const checks = [
    checker(() =>
      versionOf(primary).then(
        (v) => void (latest = Math.max(latest, v)),
        () => {},
      ),
    ),
    ...all.map((r) =>
      checker(() =>
        versionOf(r.store).then(
          (v) => {
            r.version = Math.max(r.version, v);
            r.up = true;
            r.error = null;
          },
          (e) => down(r, e),
        ),
      ),
    ),
  ];
  // And as soon as the primary announces a version (its commit): requests after it need it at once.
  const unwatch = primary.watchVersions?.((v) => (latest = Math.max(latest, v)));
  const timer = setInterval(() => checks.forEach((c) => void c()), pollMs);
  timer.unref();
  // Before the primary's first check no request knows its version: the first snapshots wait for it (not for the replicas').
  let first: Promise<unknown> | null = checks[0]().finally(() => (first = null));
  for (const c of checks.slice(1)) void c();

  const tagged = (s: ReadSession, source: string): ReadSession => ({
    version: s.version,
    db: s.db,
    source,
    select: s.select,
    selectRows: s.selectRows,
    release: () => s.release(),
  });

  /** A snapshot on a replica that has `target`, or null when none has it (or answers). */
  const onReplica = async (target: number): Promise<ReadSession | null> => {
    const n = all.length;
    const start = turn++ % Math.max(1, n);
    for (let i = 0; i < n; i++) {
      const r = all[(start + i) % n];
      // A replica found behind rests a moment (replay takes milliseconds) unless a check saw it
      // caught up: while ingests commit, the replicas still take the reads between them.
      if (!r.up || isPrimary(r) || (r.version < target && Date.now() - r.behindAt < behindRestMs)) continue;
      let s: ReadSession;
      try {
        s = await r.store.snapshot().catch((e: unknown) => {
          // Replay cancelled the connection's waiting transaction: the replica answers; a new connection will do.
          if (conflict(e)) return r.store.snapshot();
          throw e;
        });
      } catch (e) {
        down(r, e);
        continue;
      }
      r.version = Math.max(r.version, s.version);
      if (s.version >= target) {
        served = Math.max(served, s.version);
        return tagged(s, `replica ${r.url}`);
      }
      r.behindAt = Date.now();
      s.release();
    }
    return null;
  };

  const snapshot = async (want: SnapshotWant = {}): Promise<ReadSession> => {
    if (first) await first;
    const seen = want.minVersion ?? 0;
    // The primary down, its latest version cannot be known: the floor is what this store has served.
    const target = Math.max(primaryDown() ? served : latest, seen);
    if (want.replayed && !want.primary) {
      // The replica furthest on (as last seen), else any at `seen`: a version the replicas have not replayed is not read.
      const furthest = Math.max(seen, ...all.filter((r) => r.up && !isPrimary(r)).map((r) => r.version));
      const s = (await onReplica(furthest)) ?? (await onReplica(seen));
      if (s) return s;
    }
    if (!want.primary) {
      const s = await onReplica(target);
      if (s) return s;
    }
    let s: ReadSession;
    try {
      s = await primary.snapshot();
    } catch (e) {
      // The primary cannot answer: a replica that has every version this store has served will do.
      const r = e instanceof StoreUnavailable ? await onReplica(Math.max(served, seen)) : null;
      if (r) return r;
      throw e;
    }
    latest = Math.max(latest, s.version);
    served = Math.max(served, s.version);
    return tagged(s, 'primary');
  };

  return {
    dialect: primary.dialect,
    readCost: primary.readCost,
    db: primary.db,
    select: (sql, params) => primary.select(sql, params),
    selectRows: (sql, params) => primary.selectRows(sql, params),
    bulkInsert: (table, columns, rows, opts) => primary.bulkInsert(table, columns, rows, opts),
    bulkTransaction: (fn, opts) => primary.bulkTransaction(fn, opts),
    async ping() {
      if (!primaryDown())
        try {
          return await primary.ping();
        } catch (e) {
          if (!(e instanceof StoreUnavailable)) throw e;
        }
      // The primary down: the store answers if a replica can serve reads at this store's floor.
      (await snapshot()).release();
    },
    health: primary.health,
    primary: () => ({ up: !primaryDown(), host: primary.writesTo?.() ?? null }),
    snapshot,
    replicas: (): ReplicaState[] =>
      all.map((r) => ({
        url: r.url,
        up: r.up,
        primary: isPrimary(r),
        version: r.version || null,
        behind: r.version && latest ? Math.max(0, latest - r.version) : null,
        error: r.error,
      })),
    async close() {
      clearInterval(timer);
      unwatch?.();
      await Promise.all([primary.close(), ...all.map((r) => r.store.close())]);
    },
  };
}
