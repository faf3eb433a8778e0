import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError, ERROR_CODES, renderErrors, type ApiErrorItem } from '../../lib/errors.js';

/**
 * The HTTP edge: what Node would answer itself, with an empty body or none of our envelope,
 * answered as ErrorResponse with an x-request-id instead.
 *
 * - Bytes Node's parser refuses (`clientErrorHandler`) never become a request.
 * - Requests Node parses but RFC 9112 refuses (`framingError`, checked on request like any
 *   other refusal): Node's own answers to a missing Host (an empty 400) and to an Expect other
 *   than 100-continue (a bare 417) are turned off (`requireHostHeader: false` in app.ts,
 *   `registerHttpEdge`), so that these come here.
 * - CONNECT, which Node would drop (`registerHttpEdge`).
 */

/** An Expect header other than 100-continue (any operation may meet it: declared on each). */
export const EXPECTATION_FAILED: ApiErrorItem = {
  code: 'expectation_failed',
  detail: 'The Expect header asks for something this server does not do: only 100-continue is met.',
};

const VERSION: ApiErrorItem = { code: 'http_version_not_supported', detail: 'Only HTTP/1.1 and HTTP/1.0 are served.' };

/** Requests Node's parser refuses, by its error code (the OpenAPI document declares their statuses on every operation). */
export const CLIENT_ERRORS: Record<string, ApiErrorItem> = {
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'The request line and headers did not arrive in time.' },
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'The request line and headers exceed 16 KiB.' },
  HPE_INVALID_VERSION: VERSION,
};
const MALFORMED: ApiErrorItem = {
  code: 'invalid_parameter',
  detail: 'Malformed request: not a valid HTTP/1.1 request (a target must be an ASCII path starting with /).',
};
/**
 * A request line Node refuses as HPE_INVALID_VERSION though its version is not the problem: a
 * bare LF (or anything but CRLF) after `HTTP/1.1`. RFC 9112 §2.2 lets a server refuse a bare LF;
 * it is HTTP/1.x, so 400, not 505.
 */
const REQUEST_LINE: ApiErrorItem = {
  code: 'invalid_parameter',
  detail:
    'Malformed request: the request line must end in CRLF right after its HTTP version (RFC 9112 §2.2, §3); a bare LF or anything else there is refused.',
};

/** llhttp's reason when the version itself is one it does not serve (HTTP/2.0, HTTP/1.2); other HPE_INVALID_VERSION reasons are the line's syntax. */
const UNSUPPORTED_VERSION = 'Invalid HTTP version';

/** chunked not last, or twice: llhttp's own refusal of what framingError refuses when Node lets it through (400, as MALFORMED). */
const TRANSFER_ENCODING: ApiErrorItem = {
  code: 'invalid_parameter',
  detail: 'Malformed request: Transfer-Encoding must end in chunked, and name it once (RFC 9112 §6.1, §6.3).',
};

/** What a request Node's parser refused is answered with. */
function clientErrorItem(err: Error & { code?: string; reason?: string }): ApiErrorItem {
  if (err.code === 'HPE_INVALID_VERSION' && err.reason !== UNSUPPORTED_VERSION) return REQUEST_LINE;
  if (err.code === 'HPE_INVALID_TRANSFER_ENCODING') return TRANSFER_ENCODING;
  return CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED;
}

/**
 * Node's `clientError`: requests its HTTP parser refuses (headers over 16 KiB, headers not
 * received in time, an unknown HTTP version, a malformed request line) never become requests.
 * Bound to the Fastify instance, whose `connections` say what is still being answered.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string; reason?: string }, socket: Duplex): void {
  // The parser stays failed: more bytes on the connection report the same error again.
  if (err.code === 'ECONNRESET' || socket.destroyed || refused.has(socket)) return;
  refused.add(socket);
  answerOnSocket(this, socket, clientErrorItem(err), err.code ?? 'client error');
}

/**
 * Answers `item` on a connection no request owns: after the responses to the requests
 * pipelined before on it, in order, as ErrorResponse with a generated x-request-id; then the
 * connection is closed.
 */
function answerOnSocket(app: FastifyInstance, socket: Duplex, item: ApiErrorItem, why: string, headers = ''): void {
  const status = ERROR_CODES[item.code].status;
  const id = randomUUID();
  app.log.debug({ code: why, reqId: id }, 'client error');
  app.connections.afterResponses(socket as Socket, () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(renderErrors([item], id));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\nx-request-id: ${id}\r\n${headers}connection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}

/** Connections whose parser failed (answered once). */
const refused = new WeakSet<Duplex>();

/** A Host field value (RFC 9110 §7.2): an IP literal or a reg-name, an optional port. */
const HOST = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=-]+\]|[0-9A-Za-z._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** The last Host found valid (clients repeat theirs: the check is a comparison). */
let validHost = '';

/** Requests with an Expect other than 100-continue (Node's `checkExpectation`), for `framingError`. */
const unmetExpectations = new WeakSet<IncomingMessage>();

/**
 * What `app`'s server would answer itself, or drop: a request with an Expect it cannot meet is
 * handed on to the application (`framingError` refuses it) where Node would answer a bare 417;
 * CONNECT, which Node hands to no request handler (it closes the connection without a word), is
 * 405 as any method but GET and HEAD.
 */
export function registerHttpEdge(app: FastifyInstance): void {
  app.server.on('checkExpectation', (req: IncomingMessage, res) => {
    unmetExpectations.add(req);
    app.server.emit('request', req, res);
  });
  app.server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    answerOnSocket(
      app,
      socket,
      { code: 'method_not_allowed', detail: 'CONNECT is not served: the API is read-only, use GET or HEAD' },
      'CONNECT',
      'allow: GET, HEAD\r\n',
    );
  });
}

/**
 * What RFC 9112 refuses in a request Node parsed, or null: a version other than 1.x (505), no
 * Host in HTTP/1.1, more than one Host line or an invalid Host (400, §3.2), a Transfer-Encoding
 * whose last coding is not chunked, or any in HTTP/1.0 (400, §6.1, §6.3: its body's length
 * cannot be known, so the connection is closed after), an Expect other than 100-continue in
 * HTTP/1.1 (417).
 */
export function framingError(req: IncomingMessage): ApiError | null {
  if (req.httpVersionMajor !== 1) return new ApiError(VERSION);
  const te = req.headers['transfer-encoding'];
  if (te !== undefined) {
    if (req.httpVersionMinor === 0) return malformed('HTTP/1.0 has no Transfer-Encoding', '6.1');
    if (!endsInChunked(te)) return malformed('the last coding of Transfer-Encoding must be chunked', '6.3');
  }
  // Node keeps the first of several Host lines: count them in the raw headers.
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return malformed(`a request has one Host header, not ${hosts}`);
  if (hosts === 0 && req.httpVersionMinor === 1) return malformed('an HTTP/1.1 request must have a Host header');
  const host = req.headers.host;
  if (host !== undefined && host !== validHost) {
    if (!HOST.test(host)) return malformed('the Host header is not a host name or address with an optional port');
    validHost = host;
  }
  if (unmetExpectations.has(req)) {
    return new ApiError(EXPECTATION_FAILED);
  }
  return null;
}

const malformed = (what: string, section = '3.2') =>
  new ApiError({ code: 'invalid_parameter', detail: `Malformed request: ${what} (RFC 9112 §${section}).` });

/** Whether a Transfer-Encoding list (Node joins several lines with ", ") ends in chunked. */
function endsInChunked(te: string): boolean {
  return (
    te
      .slice(te.lastIndexOf(',') + 1)
      .trim()
      .toLowerCase() === 'chunked'
  );
}
