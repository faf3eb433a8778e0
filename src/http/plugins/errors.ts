import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, renderErrors, type ApiErrorItem } from '../../errors.js';
import { MAX_PAGE_SIZE } from '../params.js';

interface AjvError {
  keyword: string; instancePath: string; message?: string;
  params: Record<string, any>;
}

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
    case 'format':
      return {
        code: 'invalid_parameter', parameter: param,
        detail: e.params.format === 'date'
          ? `${param} must be a calendar date (YYYY-MM-DD)`
          : `${param} must be an RFC 3339 date-time (e.g. 2024-03-01T10:30:00+08:00) or a date`,
      };
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
      items = [{ code: 'internal_error', detail: 'The server failed to answer this request; it has been logged.' }];
    }
    reply.code(status).type('application/json').send(renderErrors(items, req.id));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).type('application/json').send(renderErrors(
      [{ code: 'not_found', detail: `No operation at ${req.method} ${req.url.split('?')[0]}` }], req.id));
  });
}
