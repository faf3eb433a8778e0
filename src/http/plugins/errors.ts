import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound, renderErrors, type ApiErrorItem } from '../../lib/errors.js';
import { MAX_PAGE_SIZE, windowProblems } from '../params.js';
import { DATE_TIME_PATTERN } from '../../lib/time.js';
import { isProtected, type KeyCheck } from './auth.js';

/** Longest path value routed (find-my-way's maxParamLength); a longer one names no resource: 404. */
export const MAX_PATH_VALUE = 100;

interface AjvError {
  keyword: string; instancePath: string; message?: string;
  params: Record<string, any>;
}

/** The answer to a failure of the server's own (logged, never with internals in it). */
export const INTERNAL_ERROR: ApiErrorItem = { code: 'internal_error', detail: 'The server failed to answer this request; it has been logged.' };

const notDateTime = (param: string): ApiErrorItem => ({
  code: 'invalid_parameter', parameter: param, detail: `${param} must be an RFC 3339 date-time (e.g. 2024-03-01T10:30:00+08:00) or a date`,
});

/** Turns one schema-validation failure into a catalogue error naming the parameter. */
function fromValidation(e: AjvError, context: string): ApiErrorItem {
  const param = e.instancePath.replace(/^\//, '').replace(/~1/g, '/').replace(/~0/g, '~');
  switch (e.keyword) {
    case 'required':
      return { code: 'missing_parameter', parameter: e.params.missingProperty, detail: `${e.params.missingProperty} is required` };
    case 'additionalProperties':
      return {
        code: 'unknown_parameter', parameter: e.params.additionalProperty,
        detail: `${e.params.additionalProperty} is not a parameter of this operation`,
      };
    case 'type':
      if (param === 'page[size]') {
        return { code: 'invalid_parameter', parameter: param, detail: `page[size] must be an integer 1..${MAX_PAGE_SIZE} written as decimal digits` };
      }
      return { code: 'invalid_parameter', parameter: param, detail: `${param} ${e.message ?? 'is invalid'}` };
    case 'minimum':
      return { code: 'invalid_parameter', parameter: param, detail: `${param} must be at least ${e.params.limit}` };
    case 'enum':
      return { code: 'invalid_parameter', parameter: param, detail: `${param} must be one of ${e.params.allowedValues.join(', ')}` };
    case 'maximum':
      if (param === 'page[size]') {
        return { code: 'page_size_too_large', parameter: param, detail: `page[size] must be at most ${MAX_PAGE_SIZE}` };
      }
      return { code: 'invalid_parameter', parameter: param, detail: `${param} must be at most ${e.params.limit}` };
    case 'maxLength':
      return { code: 'invalid_parameter', parameter: param, detail: `${param} must be at most ${e.params.limit} characters` };
    case 'format':
      if (e.params.format === 'date') return { code: 'invalid_parameter', parameter: param, detail: `${param} must be a calendar date (YYYY-MM-DD)` };
      return notDateTime(param);
    case 'pattern':
      if (e.params.pattern === DATE_TIME_PATTERN) return notDateTime(param);
      return { code: 'invalid_parameter', parameter: param || context, detail: `${param || context} ${e.message ?? 'is invalid'}` };
    default:
      return { code: 'invalid_parameter', parameter: param || context, detail: `${param || context} ${e.message ?? 'is invalid'}` };
  }
}

/** A PostgreSQL data exception (bad value for a column type), as the pg driver reports it. */
function isDataException(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  return typeof e.code === 'string' && e.code.startsWith('22') && typeof e.severity === 'string';
}

/** One error handler: known errors render as ErrorResponse, the rest as a logged generic 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    let status: number;
    let items: ApiErrorItem[];
    if (err instanceof ApiError) {
      status = err.status;
      items = err.items;
      if (err.headers) reply.headers(err.headers);
    } else if ((err as FastifyError).validation) {
      const e = err as FastifyError;
      status = 400;
      items = (e.validation as unknown as AjvError[]).map((v) => fromValidation(v, e.validationContext ?? 'request'));
      // All problems together: date with from/to, from after to, among the parameters valid alone.
      if (e.validationContext === 'querystring') {
        items.push(...windowProblems(req.query as Record<string, unknown>, items));
      }
    } else if (isDataException(err)) {
      // Every value but a cursor's key is validated before it reaches SQL, so a data exception
      // (SQLSTATE class 22, e.g. text where an integer belongs) means a forged cursor.
      status = 400;
      items = [{ code: 'invalid_cursor', parameter: 'page[after]', detail: 'page[after] does not hold a cursor this service issued' }];
    } else if ((err as FastifyError).statusCode && (err as FastifyError).statusCode! < 500) {
      status = (err as FastifyError).statusCode!;
      items = [{ code: status === 404 ? 'not_found' : 'invalid_parameter', detail: err.message }];
    } else {
      req.log.error({ err }, 'unhandled error');
      status = 500;
      items = [INTERNAL_ERROR];
    }
    reply.code(status).type('application/json').send(renderErrors(items, req.id));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).type('application/json').send(renderErrors(
      [{ code: 'not_found', detail: `No operation at ${req.method} ${req.url.split('?')[0]}` }], req.id));
  });
}

/** The key check first on protected paths, then `refusal`; either rendered as ErrorResponse. */
async function refuse(req: FastifyRequest, reply: FastifyReply, check: KeyCheck, refusal: ApiError): Promise<void> {
  let err = refusal;
  try {
    if (isProtected(req.url)) await check(req, reply);
  } catch (e) {
    if (!(e instanceof ApiError)) {
      req.log.error({ err: e }, 'key check failed');
      err = new ApiError(INTERNAL_ERROR);
    } else err = e;
  }
  if (err.headers) reply.headers(err.headers);
  reply.header('x-request-id', req.id).code(err.status).type('application/json').send(renderErrors(err.items, req.id));
}

/**
 * Fastify's `frameworkErrors`: requests refused while routing. As every request, the key is
 * checked first on protected paths (a caller without a key learns nothing else); then a URL
 * that is not valid percent-encoding is 400, and a path value longer than MAX_PATH_VALUE is
 * 404 (no market, instrument or pool type has such an id).
 */
export function frameworkErrors(check: KeyCheck) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    const refusal = err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError({ code: 'not_found', detail: `No resource has a path value longer than ${MAX_PATH_VALUE} characters` })
      : new ApiError({ code: 'invalid_parameter', detail: 'Malformed request: the URL is not valid percent-encoded UTF-8' });
    void refuse(req, reply, check, refusal);
  };
}

/**
 * Every operation is a GET (and HEAD): another method on a path served for GET is 405 with
 * `Allow: GET, HEAD`, answered on request, before any body is read (a broken body does not
 * matter), after the key check on protected paths; on any other path it is 404, as a GET is.
 */
export function refuseOtherMethods(app: FastifyInstance, check: KeyCheck) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const qi = req.url.indexOf('?');
    const path = qi < 0 ? req.url : req.url.slice(0, qi);
    let served = false;
    try { served = app.findRoute({ method: 'GET', url: path }) !== null; } catch { /* not routable */ }
    if (!served) throw notFound(`No operation at ${req.method} ${path}`);
    await refuse(req, reply, check, new ApiError(
      { code: 'method_not_allowed', detail: `${req.method} is not served: the API is read-only, use GET or HEAD` }, { allow: 'GET, HEAD' }));
    return reply;
  };
}

/** Requests Node's parser refuses, by its error code: status and error. */
export const CLIENT_ERRORS: Record<string, [number, ApiErrorItem]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, { code: 'request_timeout', detail: 'The request line and headers did not arrive in time.' }],
  HPE_HEADER_OVERFLOW: [431, { code: 'headers_too_large', detail: 'The request line and headers exceed 16 KiB.' }],
};
const MALFORMED: [number, ApiErrorItem] = [400, { code: 'invalid_parameter', detail: 'Malformed request: not a valid HTTP/1.1 request (a target must be an ASCII path starting with /).' }];

/**
 * Node's `clientError`: requests its HTTP parser refuses (headers over 16 KiB, headers not
 * received in time, a malformed request line) never become requests; they are answered here,
 * as ErrorResponse with a generated x-request-id, and the connection is closed.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, item] = CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED;
  const id = randomUUID();
  this.log.debug({ code: err.code, reqId: id }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(renderErrors([item], id));
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nconnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}
