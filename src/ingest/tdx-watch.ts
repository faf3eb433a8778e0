/**
 * `mds ingest --tdx PATH --watch` (docs/ingest.md, "Keeping it current"): the command stays,
 * watching the install's parts it reads (the `.day`, `.lc1` and `.lc5` files of
 * `vipdoc/{sh,sz,bj}/{lday,minline,fzline}`, the gbbq and name tables of `T0002/hq_cache`) with
 * Node's own watcher, one inotify watch a folder (not recursive: an install's other folders
 * change all day). A write starts a quiet period (`settle`); each further write starts it again;
 * once it passes, the batch runs (the same update as the command run again: one transaction, one
 * data version). A bar file written since the last batch that ends in a partial record (the
 * client still writing it) holds the batch for another quiet period, up to `partialWaits` of them
 * (then the batch runs and fails on it, naming its record, and loads nothing). A failed batch is
 * logged and leaves the store as it was; the next write starts the next. Writes during a batch
 * wait for it, then start their quiet period. The watch ends when `signal` aborts: a batch under
 * way finishes (commits or rolls back) first. The first batch runs at once: what changed while
 * nothing watched.
 */
import { watch, statSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { RECORD } from './vendors/tdx.js';
import { t0002Of, TDX_MARKETS } from './tdx-install.js';

const BAR_DIRS = ['lday', 'minline', 'fzline'];
/** The files of a folder the load reads: bar files, the gbbq and name tables. */
const READ = /\.(day|lc1|lc5|tnf)$|^gbbq$/i;
/** Bar files whose records are 32 bytes (a partial one holds the batch). */
const RECORDS = /\.(day|lc1|lc5)$/i;

export interface WatchOptions {
  /** The install's `vipdoc` folder. */
  vipdoc: string;
  /** Milliseconds without a write before a batch runs. */
  settle: number;
  /** Quiet periods a partial record may hold the batch (default 10). */
  partialWaits?: number;
  /** One batch: the update, resolving to its line (rejecting: the batch failed, its message logged). */
  batch: () => Promise<string>;
  /** A batch's line, or the watch's own (`watching …`, `waiting …`, `stopped`). */
  log: (line: string, failed?: boolean) => void;
  signal: AbortSignal;
}

/** The folders watched: those of the install's parts that exist, and the folders above them (a part's folder made later). */
function folders(vipdoc: string): string[] {
  const out = [vipdoc];
  for (const m of Object.keys(TDX_MARKETS)) out.push(join(vipdoc, m), ...BAR_DIRS.map((d) => join(vipdoc, m, d)));
  const t = t0002Of(vipdoc);
  if (t) out.push(t, join(t, 'hq_cache'));
  return out.filter((d) => {
    try {
      return statSync(d).isDirectory();
    } catch {
      return false;
    }
  });
}

/** The files of `paths` that end in a partial record. */
function partial(paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (!RECORDS.test(p)) continue;
    try {
      if (statSync(p).size % RECORD !== 0) out.push(p);
    } catch {
      // Gone: the batch will say what is left.
    }
  }
  return out;
}

/** Watches until `o.signal` aborts; resolves once the last batch has ended. */
export async function watchTdx(o: WatchOptions): Promise<void> {
  const watchers = new Map<string, FSWatcher>();
  /** Files written since the last batch began. */
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let waits = 0;
  const maxWaits = o.partialWaits ?? 10;

  const arm = () => {
    for (const d of folders(o.vipdoc)) {
      if (watchers.has(d)) continue;
      try {
        const w = watch(d, { persistent: true }, (_event, name) => onWrite(d, name ? String(name) : null));
        w.on('error', () => {
          // The folder went away: watched again if it comes back (arm() after the next batch).
          w.close();
          watchers.delete(d);
        });
        watchers.set(d, w);
      } catch {
        // Not there any more: the next arm() tries again.
      }
    }
  };

  const onWrite = (dir: string, name: string | null) => {
    if (o.signal.aborted) return;
    if (name === null || !READ.test(name)) {
      // A folder made or renamed (a market's lday/, hq_cache/): watch what is there now.
      if (name !== null && !name.includes('.')) arm();
      return;
    }
    pending.add(join(dir, name));
    waits = 0;
    if (!running) schedule();
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(settled, o.settle);
  };

  const settled = () => {
    timer = null;
    if (o.signal.aborted || running) return;
    const still = partial(pending);
    if (still.length && waits < maxWaits) {
      if (waits === 0)
        o.log(
          `watch: waiting: ${still.length} file${still.length === 1 ? '' : 's'} end in a partial record, being written (${still.slice(0, 3).join(', ')}${still.length > 3 ? ', …' : ''})`,
        );
      waits++;
      schedule();
      return;
    }
    run();
  };

  const run = () => {
    pending = new Set();
    waits = 0;
    running = o
      .batch()
      .then(
        (line) => o.log(line),
        (e: unknown) => o.log(`${e instanceof Error ? e.message : String(e)}`, true),
      )
      .finally(() => {
        running = null;
        arm();
        if (pending.size && !o.signal.aborted) schedule();
      });
  };

  arm();
  o.log(`watch: ${watchers.size} folders of ${o.vipdoc} and its T0002; a batch ${o.settle / 1000} s after the last write`);
  // What changed while nothing watched: the first batch, at once.
  run();
  await new Promise<void>((resolve) => {
    if (o.signal.aborted) resolve();
    else o.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  if (timer) clearTimeout(timer);
  for (const w of watchers.values()) w.close();
  await running;
}
