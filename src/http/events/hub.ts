import type { DataVersion } from '../../store/versions.js';
import type { SnapshotWant } from '../../store/types.js';
import type { Snapshot } from '../../query/snapshot.js';

/**
 * What a hub hears: the versions it read after the last it told of, ascending and without a gap
 * (none when it first reads), and `top`, the version of the snapshot it read them from.
 */
export type HubListener = (versions: readonly DataVersion[], top: number) => void;

export interface HubOptions {
  /** Opens a read snapshot as a request does: an event is of a version this server can serve. */
  open(want?: SnapshotWant): Promise<Snapshot>;
  /** The store's announcements of committed versions (PostgreSQL LISTEN: Store.watchVersions); absent, polling only. */
  watch?: (on: (version: number) => void) => () => void;
  /** How often to look for new versions without an announcement (EVENT_POLL_MS; with announcements, ten times less often). */
  pollMs: number;
  onError(e: unknown): void;
}

/** Versions read per query. */
const BATCH = 500;

/**
 * The fan-out of committed versions to the streams of one server process (docs/api.md,
 * "Events"): while a stream listens, it reads the change log after the last version it told of,
 * from a snapshot opened as a request's is (so on a replica only what the replica has replayed),
 * whenever the store announces a version (PostgreSQL's `mds_data_version`, every worker and host
 * hears it) or a poll finds one (SQLite: `max(version)` every EVENT_POLL_MS), and tells every
 * listener. One read at a time; an announcement during a read reads again after it.
 */
export class EventHub {
  private readonly listeners = new Set<HubListener>();
  private readonly closers = new Set<() => void>();
  /** The last version told of; -1 before the first read. */
  private top = -1;
  private timer: NodeJS.Timeout | null = null;
  private unwatch: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly opts: HubOptions) {}

  /** The last version this hub read (-1 before its first read). */
  get latest(): number {
    return this.top;
  }

  /** Adds a listener (the hub starts reading); returns what removes it (the last removed, it stops). */
  subscribe(l: HubListener): () => void {
    this.listeners.add(l);
    this.start();
    return () => {
      this.listeners.delete(l);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Reads the versions committed since the last read (now, or after the read under way). */
  pump(): void {
    if (this.closed || this.timer === null) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.read()
      .catch((e: unknown) => this.opts.onError(e))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.pump();
        }
      });
  }

  /** Runs `fn` when the hub closes (a stream ends then); returns what forgets it. */
  onClose(fn: () => void): () => void {
    this.closers.add(fn);
    return () => this.closers.delete(fn);
  }

  /** Stops for good (the app closes: before its server, app/app.ts), ending every stream. */
  close(): void {
    this.closed = true;
    this.stop();
    this.listeners.clear();
    for (const fn of [...this.closers]) fn();
    this.closers.clear();
  }

  private start(): void {
    if (this.timer !== null || this.closed) return;
    const { watch, pollMs } = this.opts;
    this.timer = setInterval(() => this.pump(), watch ? pollMs * 10 : pollMs);
    this.timer.unref();
    this.unwatch = watch ? watch(() => this.pump()) : null;
    this.pump();
  }

  private stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.unwatch?.();
    this.unwatch = null;
    this.top = -1;
  }

  private async read(): Promise<void> {
    const snap = await this.opts.open(this.top > 0 ? { minVersion: this.top } : {});
    try {
      const read: DataVersion[] = [];
      if (this.top >= 0)
        for (let at = this.top; at < snap.version;) {
          const batch = await snap.changeLog(at, BATCH);
          if (batch.length === 0) break;
          read.push(...batch);
          at = batch[batch.length - 1].version;
        }
      if (snap.version <= this.top) return;
      this.top = snap.version;
      for (const l of [...this.listeners]) l(read, snap.version);
    } finally {
      snap.release();
    }
  }
}
