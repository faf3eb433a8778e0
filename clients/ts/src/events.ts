/**
 * The event stream (GET /api/v1/events) as an async iterator: each committed data version's
 * record once, in order, the stream opened again after an end or a lost connection with
 * Last-Event-ID (the id of the last event received), as EventSource does, but over fetch, so the
 * API key goes in a header. docs/clients.md.
 */
import type { operations } from './schema.js';

/** A server-sent event: its `id` (the data version), its type and its data (a JSON text). */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Text of an event stream to events as it arrives (WHATWG HTML, "Server-sent events"): `id`,
 * `event`, `data` (several lines joined by line breaks) and `retry` fields; comments skipped.
 */
export class SseParser {
  /** The wait before reconnecting the server asked for (`retry:`, ms), if it did. */
  retryMs: number | null = null;
  private buf = '';

  /** Reads a chunk of text; returns the events it completed. */
  push(text: string): SseEvent[] {
    this.buf += text;
    const out: SseEvent[] = [];
    for (let m = /\r\n\r\n|\n\n|\r\r/.exec(this.buf); m !== null; m = /\r\n\r\n|\n\n|\r\r/.exec(this.buf)) {
      const block = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      const e = this.block(block);
      if (e !== null) out.push(e);
    }
    return out;
  }

  private block(block: string): SseEvent | null {
    const e: SseEvent = { event: 'message', data: '' };
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
      else if (name === 'id') e.id = value;
      else if (name === 'event') e.event = value;
      else if (name === 'data') data.push(value);
      else continue;
      if (name !== 'retry') fields++;
    }
    e.data = data.join('\n');
    return fields > 0 ? e : null;
  }
}

/** The record of a `version` event: what /changes lists. */
export type DataVersionRecord = operations['listChanges']['responses'][200]['content']['application/json']['data'][number];
/** The stream's filters and where it starts: `after` (absent: from now), `dataset`, `instrument_id`, `token`. */
export type EventQuery = NonNullable<operations['streamEvents']['parameters']['query']>;

export interface EventStreamOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (a trailing `/api/v1` is allowed). */
  baseUrl: string;
  /** The API key, sent as `X-API-Key` (or a stream token in `query.token`). */
  key?: string;
  query?: EventQuery;
  /** Ends the iteration (the open stream is closed). */
  signal?: AbortSignal;
  /** Failed connections (or 429s and 503s) in a row tried again before giving up (default 4). */
  retries?: number;
  /** The first wait in ms after a failed connection, doubled each time (default 500). */
  backoffMs?: number;
  /** The fetch to use (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait before reconnecting (default a timer). */
  sleep?: (ms: number) => Promise<void>;
}

/** What the stream takes of the package (index.ts): the error it throws, how it reads Retry-After. */
export interface StreamDeps {
  /** The error of an answer other than 200, or of a stream the server ended for a reason not to retry (a revoked key). */
  fail(status: number, body: unknown): Error;
  retryAfterMs(value: string | null): number | null;
}

/**
 * Each committed data version's record as it comes. After the stream ends (the server closing, a
 * worker gone, `event: dropped` for a reader too slow: resumed after the version it names) it is
 * opened again with Last-Event-ID after the server's `retry` wait; a failed connection or a 429
 * or 503 is tried again after its Retry-After or with back-off, `retries` times in a row. Any other
 * answer than 200, or a revoked key (`event: error`), throws `deps.fail`'s error (MdsError).
 */
export async function* streamEvents(options: EventStreamOptions, deps: StreamDeps): AsyncGenerator<DataVersionRecord> {
  const base = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  const send = options.fetch ?? ((r: Request) => globalThis.fetch(r));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { retries = 4, backoffMs = 500, signal } = options;
  const url = new URL(`${base}/api/v1/events`);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  let last: string | null = null;
  let failures = 0;
  let retryMs = 1000;
  let asked: number | null = null;
  while (!signal?.aborted) {
    asked = null;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.key) headers['x-api-key'] = options.key;
    if (last !== null) headers['last-event-id'] = last;
    try {
      const response = await send(new Request(url, { headers, signal }));
      if (response.status === 200 && response.body) {
        failures = 0;
        const parser = new SseParser();
        const text = response.body.pipeThrough(new TextDecoderStream());
        for await (const chunk of text as unknown as AsyncIterable<string>)
          for (const e of parser.push(chunk)) {
            if (e.event === 'version') {
              last = e.id ?? last;
              yield JSON.parse(e.data) as DataVersionRecord;
            } else if (e.event === 'dropped') last = String((JSON.parse(e.data) as { after: number }).after);
            else if (e.event === 'error') {
              const err = JSON.parse(e.data) as { code: string; detail: string };
              if (err.code !== 'internal_error') throw deps.fail(401, { errors: [err] });
            }
          }
        retryMs = parser.retryMs ?? retryMs;
      } else {
        const body: unknown = await response.json().catch(() => undefined);
        if ((response.status !== 429 && response.status !== 503) || failures >= retries) throw deps.fail(response.status, body);
        asked = deps.retryAfterMs(response.headers.get('retry-after'));
        failures++;
      }
    } catch (e) {
      if (signal?.aborted) return;
      if (e instanceof Error && e.name === 'MdsError') throw e;
      // The connection failed, or was lost mid-stream.
      if (failures >= retries) throw e;
      failures++;
    }
    await sleep(asked ?? (failures ? backoffMs * 2 ** (failures - 1) : retryMs));
  }
}
