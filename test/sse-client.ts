/**
 * A test's subscriber of GET /api/v1/events: server-sent events parsed by the TypeScript
 * client's parser (clients/ts/src/events.ts), over node:http so
 * a test knows the connection's local port (which server process holds it: `ss`), and a
 * subscriber that reconnects with Last-Event-ID whenever its stream ends, as EventSource does.
 */
import http from 'node:http';
import { sleep } from './ingest-helpers.js';
import { SseParser, type SseEvent } from '../clients/ts/src/index.js';

export type { SseEvent };

/** How long a test waits for events or an end (a bound, not a timing). */
const WAIT_MS = 15_000;

/** Whether `ok` comes true, asked every 20 ms for at most `limitMs`. */
export async function until(ok: () => boolean, limitMs = WAIT_MS): Promise<boolean> {
  const t0 = Date.now();
  while (!ok() && Date.now() - t0 < limitMs) await sleep(20);
  return ok();
}

export interface SseStream {
  status: number;
  header(name: string): string | undefined;
  /** The client side's port of the connection. */
  localPort: number;
  /** The events received so far (the body, parsed as JSON, when the answer is not a stream). */
  events: SseEvent[];
  body: string;
  ended(): boolean;
  /** The ids of the `version` events so far. */
  versions(): number[];
  /** Whether `n` version events came before the stream ended (bounded wait). */
  waitFor(n: number): Promise<boolean>;
  /** Whether the stream ended (bounded wait). */
  waitEnd(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens `url` (GET, `headers`) and reads its events as they come; a connection refused rejects. */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const parser = new SseParser();
      let ended = false;
      let body = '';
      const done = new Promise<void>((r) => {
        const end = () => {
          ended = true;
          r();
        };
        res.on('end', end).on('close', end).on('error', end);
      });
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        if (res.statusCode === 200) events.push(...parser.push(text));
        else body += text;
      });
      const versions = () => events.filter((e) => e.event === 'version').map((e) => Number(e.id));
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const v = res.headers[name.toLowerCase()];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        localPort: req.socket?.localPort ?? 0,
        events,
        get body() {
          return body;
        },
        ended: () => ended,
        versions,
        waitFor: (n) => until(() => versions().length >= n || ended),
        waitEnd: () => until(() => ended),
        close: async () => {
          req.destroy();
          await done;
        },
      });
    });
    req.on('error', reject);
  });
}

/**
 * A subscriber that never gives up: each time its stream ends (or cannot be opened) it opens
 * another from `url()` with Last-Event-ID = the last id it received, after `retryMs`. Every event
 * of every stream is kept, in order: a version seen twice or missed is there to see.
 */
export function subscribe(url: () => string, headers: Record<string, string>, opts: { retryMs?: number; after?: number } = {}) {
  const events: SseEvent[] = [];
  let last: string | undefined = opts.after === undefined ? undefined : String(opts.after);
  let current: SseStream | null = null;
  let stopped = false;
  /** Streams opened (200), and attempts refused or answered otherwise. */
  const counts = { streams: 0, failed: 0 };
  /** Keeps the events of `s` from index `from` on; returns where it stopped. */
  const take = (s: SseStream, from: number) => {
    for (; from < s.events.length; from++) {
      events.push(s.events[from]);
      if (s.events[from].id !== undefined) last = s.events[from].id;
    }
    return from;
  };
  const loop = (async () => {
    while (!stopped) {
      try {
        const s = await openStream(url(), last === undefined ? headers : { ...headers, 'last-event-id': last });
        if (s.status !== 200) {
          counts.failed++;
          await s.close();
        } else {
          counts.streams++;
          current = s;
          let seen = 0;
          while (!s.ended() && !stopped) {
            await until(() => s.events.length > seen || s.ended() || stopped, 1000);
            seen = take(s, seen);
          }
          take(s, seen);
          current = null;
        }
      } catch {
        counts.failed++;
      }
      if (!stopped) await sleep(opts.retryMs ?? 100);
    }
  })();
  const versions = () => events.filter((e) => e.event === 'version').map((e) => Number(e.id));
  return {
    events,
    counts,
    versions,
    /** The stream open now (null between streams). */
    current: () => current,
    /** Whether the subscriber has received version `v` (bounded wait). */
    waitVersion: (v: number, limitMs = 30_000) => until(() => versions().includes(v), limitMs),
    /** Whether a stream is open (bounded wait). */
    waitOpen: (limitMs = 30_000) => until(() => current !== null, limitMs),
    async close() {
      stopped = true;
      const c = current as SseStream | null;
      await c?.close();
      await loop;
    },
  };
}
