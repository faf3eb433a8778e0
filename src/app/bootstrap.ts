import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describeRebuilt } from '../derived/ensure.js';
import { migrate, openStore } from '../derived/open.js';
import type { Store, StoreTimeouts } from '../store/types.js';
import { StoreUnavailable } from '../store/health.js';
import { ensureStoreDirectory, storeLocation } from '../store/connect.js';
import { Worker } from 'node:worker_threads';
import { timedSteps, type DemoOptions } from '../demo/generate.js';

/**
 * Runs src/demo/build-worker in a worker thread; `progress` hears of each step done. Resolves
 * with the API key it created.
 */
function buildInWorker(file: string, options: Partial<DemoOptions>, progress: (step: string) => void): Promise<string> {
  const ts = import.meta.url.endsWith('.ts');
  const worker = new Worker(new URL(`../demo/build-worker.${ts ? 'ts' : 'js'}`, import.meta.url), {
    workerData: { file, options },
    execArgv: ts ? ['--import', 'tsx'] : [],
  });
  return new Promise((resolve, reject) => {
    let key: string | null = null;
    worker.on('message', (m: { key?: string; step?: string }) => {
      if (m.step !== undefined) progress(m.step);
      if (m.key !== undefined) key = m.key;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (key !== null && code === 0 ? resolve(key) : reject(new Error(`demo build failed (exit ${code})`))));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes the files of first builds of `url` whose process is gone (killed before the rename). */
function removeAbandonedBuilds(url: string): void {
  const name = basename(url);
  for (const f of readdirSync(dirname(url))) {
    const m = f.startsWith(`${name}.building-`) ? /^(\d+)(?:-wal|-shm)?$/.exec(f.slice(name.length + 10)) : null;
    if (m && (Number(m[1]) === process.pid || !alive(Number(m[1])))) rmSync(join(dirname(url), f), { force: true });
  }
}

/** Migrates `store`, logging a line for each derivation it rebuilt, and why (none when nothing was). */
async function migrateLogged(store: Store, log: (msg: string) => void): Promise<void> {
  for (const r of (await migrate(store)).rebuilt) log(describeRebuilt(r));
}

/**
 * A PostgreSQL store that could not be reached at start, so not migrated yet: `why()` is the
 * StoreUnavailable to answer with until it is migrated (null after); `done` settles then, and
 * rejects if migrating fails for another reason than the store's absence.
 */
export interface Unready {
  why(): StoreUnavailable | null;
  done: Promise<void>;
}

export interface Opened {
  store: Store;
  created: boolean;
  firstKey?: string;
  unready?: Unready;
}

/** Migrates PostgreSQL on a store of its own: migrations may run long, so without the request path's statement and acquire timeouts. */
async function migratePostgres(url: string, connectMs: number, log: (msg: string) => void): Promise<void> {
  const plain = openStore(url, { connectMs, statementMs: 0, acquireMs: 0 });
  try {
    await migrateLogged(plain, log);
  } finally {
    await plain.close();
  }
}

/** The wait between tries to migrate a store that cannot be reached. */
export const MIGRATE_RETRY_MS = 1000;

/** Migrates again every MIGRATE_RETRY_MS until the store can be reached (`first`: why it could not). */
function migrateOnceReachable(url: string, connectMs: number, first: StoreUnavailable, log: (msg: string) => void): Unready {
  let why: StoreUnavailable | null = first;
  log(`the store cannot be reached (${first.reason}); answering 503 not_ready, and migrating as soon as it can be reached`);
  const done = new Promise<void>((resolve, reject) => {
    const attempt = () =>
      migratePostgres(url, connectMs, log).then(
        () => {
          why = null;
          log('the store can be reached: migrated, serving');
          resolve();
        },
        (e: unknown) => {
          if (!(e instanceof StoreUnavailable)) {
            reject(e);
            return;
          }
          why = e;
          setTimeout(attempt, MIGRATE_RETRY_MS).unref();
        },
      );
    setTimeout(attempt, MIGRATE_RETRY_MS).unref();
  });
  return { why: () => why, done };
}

/**
 * Opens the configured store, migrating it (`log` hears of each derivation rebuilt). A SQLite
 * file that does not exist yet is built aside with the demo market and an API key, then renamed
 * into place, so a killed first run never leaves a half-built store behind. With `timeouts`
 * (the server's request path), PostgreSQL that cannot be reached (StoreUnavailable) fails the
 * start, unless `waitForStore`: then the store is returned `unready` and migrated once reachable.
 * `replicaUrls`: PostgreSQL replicas the server's read snapshots go to (store/dialects/replicated.ts).
 */
export async function openConfiguredStore(
  url: string,
  demo: Partial<DemoOptions> | null,
  log: (msg: string) => void = () => {},
  timeouts?: StoreTimeouts,
  waitForStore = false,
  replicaUrls?: readonly string[],
): Promise<Opened> {
  // A URL of another kind of store, or a file in a directory that does not exist, fails here,
  // before any file or folder is made (StoreUrlError).
  const at = storeLocation(url);
  ensureStoreDirectory(url);
  if (at.dialect === 'postgres' && timeouts) {
    try {
      await migratePostgres(url, timeouts.connectMs, log);
      return { store: openStore(url, timeouts, replicaUrls), created: false };
    } catch (e) {
      if (!(e instanceof StoreUnavailable) || !waitForStore) throw e;
      return {
        store: openStore(url, timeouts, replicaUrls),
        created: false,
        unready: migrateOnceReachable(url, timeouts.connectMs, e, log),
      };
    }
  }
  if (at.dialect === 'postgres' || at.path === ':memory:' || existsSync(at.path) || demo === null) {
    const store = openStore(url);
    await migrateLogged(store, log);
    return { store, created: false };
  }
  // Absolute: the building file's name is handed on as a path, never read as a URL.
  const file = resolve(at.path);
  const tmp = `${file}.building-${process.pid}`;
  removeAbandonedBuilds(file);
  const started = Date.now();
  log(`First run: building the demo market into ${file} (seed ${demo.seed ?? 1}) ...`);
  let firstKey: string;
  try {
    firstKey = await buildInWorker(tmp, demo, timedSteps(log, started));
  } catch (e) {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    throw e;
  }
  renameSync(tmp, file);
  for (const f of [`${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  log(`Demo market ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  const store = openStore(url);
  await migrateLogged(store, log);
  return { store, created: true, firstKey };
}
