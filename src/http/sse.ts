/**
 * Server-sent events framing (WHATWG HTML, "Server-sent events"): what GET /api/v1/events
 * writes. Written here rather than with a plugin: @fastify/sse (0.x when this was written) owns
 * the reply and its writes, while the stream needs the raw socket's buffer to bound a slow
 * reader (EVENT_BUFFER_KB) and the end of every stream on shutdown; the format is three line types.
 */

/** The response headers of a stream: never cached, never buffered by a proxy (nginx reads X-Accel-Buffering). */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};

/** One event: `id`, `event` and `data` lines (data's line breaks, if any, each a `data:` line), then a blank line. */
export function sseEvent(event: string, data: string, id?: number | string): string {
  const lines = data.split(/\r\n|\r|\n/).map((l) => `data: ${l}\n`);
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\n${lines.join('')}\n`;
}

/** A comment line (a heartbeat): clients ignore it; it keeps proxies from closing an idle stream. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** `retry:` tells EventSource how long to wait before reconnecting (ms). */
export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`;
