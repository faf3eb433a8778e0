/**
 * `mds ingest --tdx PATH --watch` (docs/ingest.md, "Keeping it current"): the update of
 * `mds ingest --tdx PATH` run again each time the install settles after the client wrote it
 * (ingest/tdx-watch.ts), one line a batch on stdout (a failed one on stderr), until SIGINT or
 * SIGTERM. Exit code 0 once stopped.
 */
import type { Store } from '../store/types.js';
import type { CliIO } from './io.js';
import { ingest } from '../ingest/load.js';
import { tdxFolder } from '../ingest/tdx-folder.js';
import { tdxUpdate } from '../ingest/tdx-update.js';
import { watchTdx } from '../ingest/tdx-watch.js';
import { recordStates } from '../store/tables/tdx-files.js';
import { formatDate } from '../lib/time.js';

export interface WatchArgs {
  /** The path given to --tdx. */
  path: string;
  /** The first batch reads every file whole (--full). */
  full: boolean;
  /** Seconds without a write before a batch. */
  settle: number;
  maxErrors: number;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** One batch: the install planned again, its update loaded; its line, or an Error whose message is the failure's line. */
async function batch(store: Store, a: WatchArgs, full: boolean): Promise<string> {
  const at = new Date().toISOString();
  const t0 = process.hrtime.bigint();
  const secs = () => `${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`;
  try {
    const folder = tdxFolder(a.path);
    const update = await tdxUpdate(store, folder, full);
    const r = await ingest(store, update.files, {
      maxErrors: a.maxErrors,
      beforeCommit: (s) => recordStates(s, update.plan.states),
      origin: update.origin,
    });
    if (!r.ok) {
      const more = r.errorCount - 1;
      throw new Error(`${plural(r.errorCount, 'error')}: ${r.errors[0]}${more > 0 ? ` (and ${more} more)` : ''}`);
    }
    const c = update.plan.counts;
    const read =
      update.origin === undefined
        ? `${plural(c.new, 'file')} read whole`
        : `${c.appended} appended${update.plan.newest ? ` (to ${formatDate(update.plan.newest)})` : ''}, ${c.new} new, ${c.corrected} corrected, ${c.unchanged} unchanged`;
    const sum = (k: 'inserted' | 'updated') => r.datasets.reduce((n, d) => n + d[k], 0);
    const wrote =
      r.dataVersion === null ? 'nothing new' : `${sum('inserted')} rows inserted, ${sum('updated')} updated; data version ${r.dataVersion}`;
    const warned = r.warnings.length ? `; ${plural(r.warnings.length, 'bar')} outside their price limits` : '';
    return `${at} tdx: ${read}: ${wrote}${warned} (${secs()})`;
  } catch (e) {
    throw new Error(`${at} tdx: failed, nothing was changed: ${(e as Error).message} (${secs()}); again at the next write`);
  }
}

/** Watches `a.path` until SIGINT or SIGTERM; resolves then, once a batch under way has ended. */
export async function watchInstall(store: Store, a: WatchArgs, io: CliIO): Promise<void> {
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    io.stdout.write(`watch: ${sig}: stopping once the batch under way, if any, has ended\n`);
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let first = true;
  try {
    await watchTdx({
      vipdoc: tdxFolder(a.path).root,
      settle: a.settle * 1000,
      batch: () => {
        const full = first && a.full;
        first = false;
        return batch(store, a, full);
      },
      log: (line, failed) => (failed ? io.stderr : io.stdout).write(line + '\n'),
      signal: stop.signal,
    });
    io.stdout.write('watch: stopped\n');
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
