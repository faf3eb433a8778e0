/** Shared pieces of the ingest/export suites: the CLI in-process or as a child process, empty stores, snapshots. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import pg from 'pg';
import Database from 'better-sqlite3';
import { formatTimestamp, marketEpoch } from '../src/lib/time.js';
import { formatScaled } from '../src/lib/decimal.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../src/store/types.js';
import { exportDatasets } from '../src/ingest/export.js';
import { DATASETS } from '../src/datasets/registry.js';
import { run } from '../src/cli/run.js';
import { harness, type Harness } from './helpers.js';

export const tmp = (prefix = 'mds-ingest-') => mkdtempSync(join(tmpdir(), prefix));

/** The real CLI as a child process: `node --import tsx src/cli/index.ts`. */
export const CLI = ['--import', 'tsx', 'src/cli/index.ts'];
/** The CLI as `npm start` and `npx mds` run it: dist/, built from src/ by the run's global setup. */
export const BUILT_CLI = ['dist/cli/index.js'];

/** A stream collecting what is written to it as text. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs `mds ...argv` in this process (cli/run.ts): its exit code and what it wrote. */
export async function cli(...argv: string[]) {
  const out = collector(),
    err = collector();
  const code = await run(argv, { stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Runs `mds --database url ...args` to completion, in this process. */
export const mds = (url: string, ...args: string[]) => cli('--database', url, ...args);

/** Starts `mds --database url ...args` (dist/) as a child process and returns the child. */
export function mdsChild(url: string, ...args: string[]): ChildProcess {
  return spawn(process.execPath, [...BUILT_CLI, '--database', url, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

export const exited = (c: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) resolve({ code: c.exitCode, signal: c.signalCode });
    else c.on('exit', (code, signal) => resolve({ code, signal }));
  });

/** Every dataset of a store as exported text, by file name (compares whole stores). */
export async function snapshot(store: Store): Promise<Record<string, string>> {
  const dir = tmp('mds-snap-');
  await exportDatasets(store, DATASETS, { dir });
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
}

/** A migrated empty store, an API key and the app over it. */
export const emptyHarness = (url: string): Promise<Harness> => harness(url, null);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes a bars_1m file of 241 valid bars a day for each of `ids` on each of `days` (prices
 * near `base`, deterministic); returns the row count.
 */
export async function writeMinuteBars(path: string, ids: string[], days: number[], base = 10_000): Promise<number> {
  const minutes = [570, ...Array.from({ length: 120 }, (_, i) => 571 + i), ...Array.from({ length: 120 }, (_, i) => 781 + i)];
  const out = createWriteStream(path);
  out.write('instrument_id,timestamp,open,high,low,close,volume,amount\n');
  let n = 0;
  const px = (v: number) => formatScaled(v, 3, 2);
  for (const id of ids) {
    let buf = '';
    for (const d of days) {
      for (const m of minutes) {
        n++;
        const open = base + (n % 50) * 10,
          close = base + ((n * 7) % 50) * 10;
        const high = Math.max(open, close) + 20,
          low = Math.min(open, close) - 20;
        buf += `${id},${formatTimestamp(marketEpoch(d, m))},${px(open)},${px(high)},${px(low)},${px(close)},${100 * ((n % 90) + 1)},${n % 100000}.00\n`;
      }
    }
    if (!out.write(buf)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return n;
}

/** Resolves once another process holds the store's write transaction (and has written, on PostgreSQL). */
export async function writerActive(url: string, stillRunning: () => boolean): Promise<boolean> {
  if (url.startsWith('postgres')) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const db = new URL(url).pathname.slice(1);
      while (stillRunning()) {
        const r = await c.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and backend_xid is not null and pid <> pg_backend_pid()',
          [db],
        );
        if (r.rows[0].n > 0) return true;
        await sleep(20);
      }
      return false;
    } finally {
      await c.end();
    }
  }
  const db = new Database(url, { timeout: 0 });
  try {
    while (stillRunning()) {
      try {
        db.exec('begin immediate');
        db.exec('rollback');
      } catch {
        return true;
      }
      await sleep(20);
    }
    return false;
  } finally {
    db.close();
  }
}
