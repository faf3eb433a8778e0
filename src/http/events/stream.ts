import type { ServerResponse } from 'node:http';
import { matchVersion, type DataVersion, type LogFilter } from '../../store/versions.js';
import type { SnapshotWant } from '../../store/types.js';
import type { Snapshot } from '../../query/snapshot.js';
import type { EventHub } from './hub.js';
import { sseComment, sseEvent } from '../sse.js';

/** What one stream needs (http/routes/changes/events.ts makes it). */
export interface StreamOptions {
  res: ServerResponse;
  hub: EventHub;
  open(want?: SnapshotWant): Promise<Snapshot>;
  filter: LogFilter;
  /** The version the client holds: events of the versions after it are sent. */
  after: number;
  /** What a record is on the wire (routes/changes/log.ts versionRecord). */
  record(v: DataVersion): unknown;
  heartbeatMs: number;
  /** Bytes a reader may leave unread before the stream ends with `event: dropped`. */
  bufferBytes: number;
  /** Whether the stream's key is still live (checked every heartbeat, at most 5 s apart). */
  keyLive(): Promise<boolean>;
  onError(e: unknown): void;
  onEnd(): void;
}

/** Versions replayed per query. */
const REPLAY_BATCH = 200;
/** How long an ended stream's socket may take to take its last bytes before it is destroyed (ms). */
const END_GRACE_MS = 5000;

/**
 * One subscriber of GET /api/v1/events: replays the log after `after` from a snapshot, then
 * sends what the hub hears, every version once, in order (a version the hub tells of that is
 * not the next is read from the log again, so a replica that lags, or a hub that started after
 * the replay, leaves no gap). The version last considered is `last`: an event's id is its
 * version, so a client that reconnects with Last-Event-ID gets the ones after it, none twice.
 */
export class EventStream {
  private last: number;
  private ended = false;
  private catching = false;
  private behind = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly o: StreamOptions) {
    this.last = o.after;
  }

  start(): void {
    const { res, heartbeatMs } = this.o;
    res.on('close', () => this.end());
    const unsubscribe = this.o.hub.subscribe((versions, top) => this.heard(versions, top));
    // The server closing (SIGTERM): the client reconnects with its last id.
    const forget = this.o.hub.onClose(() => this.end(sseComment('server closing: reconnect with Last-Event-ID')));
    this.unsubscribe = () => {
      unsubscribe();
      forget();
    };
    this.timers.push(setInterval(() => this.write(sseComment(`heartbeat ${this.last}`)), heartbeatMs));
    this.timers.push(setInterval(() => void this.checkKey(), Math.min(heartbeatMs, 5000)));
    for (const t of this.timers) t.unref();
    this.catchUp(true);
  }

  /** Ends the stream: `final` (an event saying why) is its last bytes. */
  end(final?: string): void {
    if (this.ended) return;
    if (final !== undefined) this.o.res.write(final);
    this.ended = true;
    for (const t of this.timers) clearInterval(t);
    this.unsubscribe?.();
    const { res } = this.o;
    if (!res.writableEnded) res.end();
    // A reader that takes nothing more does not keep the socket.
    if (!res.writableFinished) setTimeout(() => res.destroy(), END_GRACE_MS).unref();
    this.o.onEnd();
  }

  private heard(versions: readonly DataVersion[], top: number): void {
    if (this.ended) return;
    if (!this.catching)
      for (const v of versions) {
        if (v.version <= this.last) continue;
        if (v.version !== this.last + 1) break;
        this.send(v);
      }
    if (this.last < top) this.catchUp();
  }

  /** Reads the log after `last` until this stream has what the hub has told of. */
  private catchUp(first = false): void {
    if (this.catching) {
      this.behind = true;
      return;
    }
    this.catching = true;
    const run = async () => {
      // Bounded: a replay that moved nothing on (its snapshot not yet at the hub's version) waits
      // for the hub's next read, which calls again; each turn yields to the event loop.
      for (let moved = true; moved && !this.ended && (first || this.behind || this.last < this.o.hub.latest); first = false) {
        this.behind = false;
        const from = this.last;
        await this.replay();
        moved = this.last > from;
        await new Promise((r) => setImmediate(r));
      }
    };
    run()
      .catch((e: unknown) => {
        this.o.onError(e);
        this.end(sseEvent('error', JSON.stringify({ code: 'internal_error', detail: 'the change log could not be read; reconnect' })));
      })
      .finally(() => (this.catching = false));
  }

  /** Sends the versions after `last` that a snapshot (of at least the hub's latest) holds. */
  private async replay(): Promise<void> {
    const snap = await this.o.open(this.o.hub.latest > 0 ? { minVersion: this.o.hub.latest } : {});
    try {
      for (;;) {
        if (this.ended) return;
        const batch = await snap.changeLog(this.last, REPLAY_BATCH, this.o.filter);
        for (const v of batch) this.send(v);
        if (batch.length < REPLAY_BATCH) break;
      }
      if (!this.ended) this.last = Math.max(this.last, snap.version);
    } finally {
      snap.release();
    }
  }

  /** Sends `v` when it matches the filter; `last` moves on either way. */
  private send(v: DataVersion): void {
    if (this.ended) return;
    this.last = v.version;
    const m = matchVersion(v, this.o.filter);
    if (m !== null) this.write(sseEvent('version', JSON.stringify(this.o.record(m)), v.version));
  }

  /** Writes `text`; a reader whose unread bytes pass the bound is told where to resume, and ended. */
  private write(text: string): void {
    if (this.ended) return;
    const { res, bufferBytes } = this.o;
    res.write(text);
    if (res.writableLength > bufferBytes)
      this.end(
        sseEvent(
          'dropped',
          JSON.stringify({
            after: this.last,
            detail: `this stream's reader fell over ${Math.round(bufferBytes / 1024)} KB behind (EVENT_BUFFER_KB): read the versions after ${this.last} from /api/v1/changes?after=${this.last}, then reconnect with Last-Event-ID`,
          }),
        ),
      );
  }

  private async checkKey(): Promise<void> {
    let live = true;
    try {
      live = await this.o.keyLive();
    } catch {
      // The store cannot answer: the key stays as it was last found (auth/keys.ts).
    }
    if (!live && !this.ended)
      this.end(sseEvent('error', JSON.stringify({ code: 'invalid_api_key', detail: 'the API key of this stream was revoked' })));
  }
}
