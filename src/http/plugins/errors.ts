import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_CODES, notFound, renderErrors, type ApiErrorItem } from '../../lib/errors.js';
import { noSniff } from './security-headers.js';
import { MAX_PAGE_SIZE, windowProblems } from '../params.js';
import { DATE_TIME_PATTERN } from '../../lib/time.js';
import { isProtected, type KeyCheck } from './auth.js';

/** Longest path value routed (find-my-way's maxParamLength); a longer one names no resource: 404. */
export const MAX_PATH_VALUE = 100;

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, any>;
}

/** The answer to a failure of the server's own (logged, never with internals in it). */
export const INTERNAL_ERROR: ApiErrorItem = {
  code: 'internal_error',
  detail: 'The server failed to answer this request; it has been logged.',
};

const notDateTime = (param: string): ApiErrorItem => ({
  code: 'invalid_parameter',
  parameter: param,
  detail: `${param} must be an RFC 3339 date-time (e.g. 2024-03-01T10:30:00+08:00) or a date`,
});

/** Turns one schema-validation failure into a catalogue error naming the parameter. */
function fromValidation(e: AjvError, context: string): ApiErrorItem {
  const param = e.instancePath.replace(/^\//, '').replace(/~1/g, '/').replace(/~0/g, '~');
  switch (e.keyword) {
    case 'required':
      return { code: 'missing_parameter', parameter: e.params.missingProperty, detail: `${e.params.missingProperty} is required` };
    case 'additionalProperties':
      return {
        code: 'unknown_parameter',
        parameter: e.params.additionalProperty,
        detail: `${e.params.additionalProperty} is not a parameter of this operation`,
      };
    case 'type':
      if (param === 'page[size]') {
        return {
          code: 'invalid_parameter',
          parameter: param,
          detail: `page[size] must be an integer 1..${MAX_PAGE_SIZE} written as decimal digits`,
        };
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
      if (e.params.format === 'date')
        return { code: 'invalid_parameter', parameter: param, detail: `${param} must be a calendar date (YYYY-MM-DD)` };
      return notDateTime(param);
    case 'pattern':
      if (e.params.pattern === DATE_TIME_PATTERN) return notDateTime(param);
      return { code: 'invalid_parameter', parameter: param || context, detail: `${param || context} ${e.message ?? 'is invalid'}` };
    default:
      return { code: 'invalid_parameter', parameter: param || context, detail: `${param || context} ${e.message ?? 'is invalid'}` };
  }
}

/** One error handler: known errors render as ErrorResponse, the rest as a logged generic 500. */
export const errorHandling = fp(
  async (app: FastifyInstance) => {
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
      } else if ((err as FastifyError).statusCode && (err as FastifyError).statusCode! < 500) {
        items = [pluginRefusal((err as FastifyError).statusCode!, req, err.message)];
        status = ERROR_CODES[items[0].code].status;
      } else {
        req.log.error({ err }, 'unhandled error');
        status = 500;
        items = [INTERNAL_ERROR];
      }
      reply.code(status).type('application/json').send(renderErrors(items, req.id));
    });

    app.setNotFoundHandler((req, reply) => {
      reply
        .code(404)
        .type('application/json')
        .send(renderErrors([{ code: 'not_found', detail: noOperation(req) }], req.id));
    });
  },
  { name: 'mds-errors', fastify: '5.x' },
);

const noOperation = (req: FastifyRequest) => `No operation at ${req.method} ${req.url.split('?')[0]}`;

/**
 * A 4xx of Fastify or a plugin (in practice the docs' static files, @fastify/static) as the
 * catalogue error whose status the response gets: a path leading out of the static folder (403
 * there) names nothing, 404 as any unknown path; an If-Match that fails 412; a Range past the
 * file 416; anything else 400.
 */
function pluginRefusal(statusCode: number, req: FastifyRequest, message: string): ApiErrorItem {
  switch (statusCode) {
    case 403:
      return { code: 'not_found', detail: noOperation(req) };
    case 404:
      return { code: 'not_found', detail: message };
    case 412:
      return { code: 'precondition_failed', detail: 'A precondition (If-Match, If-Unmodified-Since) does not hold for this file.' };
    case 416:
      return { code: 'range_not_satisfiable', detail: 'The Range asked for cannot be served from this file.' };
    default:
      return { code: 'invalid_parameter', detail: message };
  }
}

/** The key check first on protected paths, then `refusal`; either rendered as ErrorResponse. */
export async function refuse(req: FastifyRequest, reply: FastifyReply, check: KeyCheck, refusal: ApiError): Promise<void> {
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
  noSniff(reply.header('x-request-id', req.id)).code(err.status).type('application/json').send(renderErrors(err.items, req.id));
}

/**
 * Fastify's `frameworkErrors`: requests refused while routing. As every request, the key is
 * checked first on protected paths (a caller without a key learns nothing else); then a URL
 * that is not valid percent-encoding is 400, and a path value longer than MAX_PATH_VALUE is
 * 404 (no market, instrument or pool type has such an id).
 */
export function frameworkErrors(check: KeyCheck) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    const refusal =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
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
    try {
      served = app.findRoute({ method: 'GET', url: path }) !== null;
    } catch {
      /* not routable */
    }
    if (!served) throw notFound(`No operation at ${req.method} ${path}`);
    await refuse(
      req,
      reply,
      check,
      new ApiError(
        { code: 'method_not_allowed', detail: `${req.method} is not served: the API is read-only, use GET or HEAD` },
        { allow: 'GET, HEAD' },
      ),
    );
    return reply;
  };
}
