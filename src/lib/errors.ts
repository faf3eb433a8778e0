/**
 * The one catalogue of error codes (CONTRACT.md §4). Every error response is rendered from it.
 */
export const ERROR_CODES = {
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  invalid_token: { status: 401, title: 'Invalid token' },
  invalid_parameter: { status: 400, title: 'Invalid parameter' },
  missing_parameter: { status: 400, title: 'Missing parameter' },
  unknown_parameter: { status: 400, title: 'Unknown parameter' },
  conflicting_parameters: { status: 400, title: 'Conflicting parameters' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  page_size_too_large: { status: 400, title: 'Page size too large' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  rate_limited: { status: 429, title: 'Rate limited' },
  too_many_streams: { status: 429, title: 'Too many streams' },
  internal_error: { status: 500, title: 'Internal error' },
  not_ready: { status: 503, title: 'Not ready' },
  http_version_not_supported: { status: 505, title: 'HTTP version not supported' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorItem {
  code: ErrorCode;
  detail: string;
  parameter?: string;
}

/** A known failure; thrown anywhere, rendered as an ErrorResponse by the error handler. */
export class ApiError extends Error {
  readonly items: ApiErrorItem[];
  readonly status: number;
  readonly headers?: Record<string, string>;
  constructor(items: ApiErrorItem | ApiErrorItem[], headers?: Record<string, string>) {
    const list = Array.isArray(items) ? items : [items];
    super(list.map((i) => i.detail).join('; '));
    this.items = list;
    // One response has one status: the most severe of its items (all 400s in practice).
    this.status = Math.max(...list.map((i) => ERROR_CODES[i.code].status));
    this.headers = headers;
  }
}

export function invalid(parameter: string, detail: string): ApiErrorItem {
  return { code: 'invalid_parameter', parameter, detail };
}

export function notFound(detail: string): ApiError {
  return new ApiError({ code: 'not_found', detail });
}

export function renderErrors(items: ApiErrorItem[], requestId: string) {
  return {
    errors: items.map((i) => ({
      status: String(ERROR_CODES[i.code].status),
      code: i.code,
      title: ERROR_CODES[i.code].title,
      detail: i.detail,
      ...(i.parameter ? { source: { parameter: i.parameter } } : {}),
    })),
    meta: { request_id: requestId },
  };
}
