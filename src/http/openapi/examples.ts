/**
 * What the docs page shows beyond the schemas: a description of every response status, the
 * `servers`, and examples recorded from the default demo market (examples.json, written by
 * `npx tsx scripts/openapi-examples.ts`): each operation's parameter values, pre-filled in "Try
 * it out", and the responses the service gave to them.
 */
import { readFileSync } from 'node:fs';
import { FILE_TYPES, fileText, type FileFormat } from '../file-format.js';
import { fileShape } from '../file-shapes.js';

export interface OperationExamples {
  /** Parameter values by name (path and query). */
  parameters: Record<string, string>;
  /** Response bodies by status. */
  responses: Record<string, unknown>;
}

export interface Examples {
  demo: { last_day: string };
  /** Bodies every operation answers alike (401, 429, 503 of protected ones; 405, 408, 417, 431, 500, 505 of all). */
  common: Record<string, unknown>;
  operations: Record<string, OperationExamples>;
}

/** Read beside this module (the build copies it into dist/). */
export const EXAMPLES = JSON.parse(readFileSync(new URL('./examples.json', import.meta.url), 'utf8')) as Examples;

const DESCRIPTIONS: Record<string, string> = {
  400: 'Bad request: a parameter is malformed, out of range or unknown, or `page[after]` is not a cursor issued for this query; `errors[].source.parameter` names the parameter.',
  401: 'Unauthorized: the `X-API-Key` header is missing, or does not carry a valid, unrevoked API key.',
  404: 'Not found: nothing has the id in the path (an id of another kind, such as an index id under /equities, is not found either; its `detail` names the path where it is).',
  405: 'Method not allowed: any other method than GET or HEAD on this path (the API is read-only); `Allow: GET, HEAD`.',
  408: 'Request timeout: the request line and headers did not arrive in time (20 s by default); the connection is closed.',
  417: 'Expectation failed: an `Expect` header other than `100-continue`; the connection is closed.',
  431: 'Request header fields too large: the request line and headers exceed 16 KiB; the connection is closed.',
  505: 'HTTP version not supported: only HTTP/1.1 and HTTP/1.0 are served; the connection is closed.',
  500: 'Internal error: the server failed to answer; it has been logged (the body never holds internals).',
  429: 'Too many requests: over the rate limit of this key (or, without a valid key, of this client address). Retry after `Retry-After` seconds; the `RateLimit-*` headers say where the limit stands.',
  503: 'Service unavailable: the store cannot answer, or the data changed faster than this response could be computed. Retry after `Retry-After` seconds.',
};

const ALLOW = { description: 'The methods served: `GET, HEAD`.', schema: { type: 'string', const: 'GET, HEAD' } };

const PAGE_200 = 'OK: one page of the collection; walk on with `page[after]` = `meta.next_cursor` (a file: the URL in `Link`).';

const LINK = {
  description:
    'A file\'s (CSV, NDJSON, Arrow) next page, when there is one: `<url>; rel="next"`, the JSON\'s `links.next` (docs/api.md, "Files").',
  schema: { type: 'string' },
};

const FILE_DESCRIPTIONS: Record<FileFormat, string> = {
  csv:
    'With `Accept: text/csv`: the same page as a CSV file with a header line, in the columns of the ingest dataset the records are ' +
    '(`mds ingest` loads it), else of the record\'s own fields (nested ones as `parent.child`); null is an empty field (docs/api.md, "Files").',
  ndjson: 'With `Accept: application/x-ndjson`: the same page, one JSON object per line keyed as the CSV header, null for an empty field.',
  arrow:
    "With `Accept: application/vnd.apache.arrow.stream`: the same page as an Apache Arrow IPC stream of the JSON record's own fields " +
    "(nested ones as `parent.child`), typed: decimals decimal128(38, the field's scale), dates date32, times timestamp[s, Asia/Shanghai], " +
    'integers int64, booleans bool, text utf8, nullable where the field is (docs/api.md, "Arrow").',
};

interface Operation {
  operationId: string;
  parameters?: { name: string; example?: unknown }[];
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, { example?: unknown }> }>;
}

/** Adds the servers, response descriptions and recorded examples to the OpenAPI document. */
export function documentExamples<T extends { paths?: Record<string, Record<string, unknown>> }>(doc: T): T {
  const out = doc as T & { servers?: unknown[] };
  out.servers = [{ url: '/', description: 'This server (the paths start with /api/v1)' }];
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item) as Operation[]) {
      const ex = EXAMPLES.operations[op.operationId];
      for (const p of op.parameters ?? []) if (ex?.parameters[p.name] !== undefined) p.example = ex.parameters[p.name];
      const paged = (op.parameters ?? []).some((p) => p.name === 'page[after]');
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === '200') {
          if (!response.description || response.description === 'Default Response') response.description = paged ? PAGE_200 : 'OK';
        } else if (op.operationId === 'getSystemReadiness' && status === '503') {
          response.description = 'Not ready: the store does not answer.';
        } else if (DESCRIPTIONS[status]) {
          response.description = DESCRIPTIONS[status];
        }
        if (status === '405') response.headers = { ...response.headers, Allow: ALLOW };
        const body = ex?.responses[status] ?? EXAMPLES.common[status];
        const media = response.content?.['application/json'];
        if (media && body !== undefined) media.example = body;
        if (status === '200' && paged) documentFiles(op.operationId, response, ex);
        if (status === '200' && op.operationId === 'streamEvents') documentStream(response, body);
      }
    }
  }
  return doc;
}

/**
 * A collection's files (CSV, NDJSON) beside its JSON, each with the example JSON's page as that
 * file: made by the columns the server writes (file-shapes.ts), so that they cannot differ; and
 * its Arrow stream (described, binary).
 */
function documentFiles(operationId: string, response: Operation['responses'][string], ex: OperationExamples | undefined): void {
  const params = ex?.parameters ?? {};
  const shape = fileShape(operationId, { params, query: params });
  if (!shape || !response.content) return;
  const records = (ex?.responses['200'] as { data?: unknown[] } | undefined)?.data ?? [];
  response.headers = { ...response.headers, Link: LINK };
  for (const format of ['csv', 'ndjson'] as const) {
    // An example is the collection's first page: a record's cursor key that is not in its JSON (a record number) is its position.
    const example = fileText(shape, format, records, (i) => [i + 1]);
    response.content[FILE_TYPES[format].split(';')[0]] = {
      schema: { type: 'string', description: FILE_DESCRIPTIONS[format] },
      example,
    } as { example?: unknown };
  }
  // Arrow is binary: no example (test/arrow.test.ts reads every collection's stream back).
  response.content[FILE_TYPES.arrow] = { schema: { type: 'string', format: 'binary', description: FILE_DESCRIPTIONS.arrow } } as {
    example?: unknown;
  };
}

/**
 * The event stream's 200: `text/event-stream`, whose events' data is the record the JSON schema
 * describes (the JSON media stays, as what each event's `data` holds), with an example stream.
 */
function documentStream(response: Operation['responses'][string], record: unknown): void {
  if (!response.content) return;
  const v = (record as { version?: number } | undefined)?.version ?? 2;
  response.description =
    'OK: a stream of server-sent events that does not end: `id: <version>`, `event: version`, `data: <the JSON record below>`, a comment ' +
    'every EVENT_HEARTBEAT_MS; `event: dropped` (a reader too slow: `{after, detail}`, resume from /changes) or `event: error` (key revoked) last.';
  response.content['text/event-stream'] = {
    schema: { type: 'string', description: 'Server-sent events (docs/api.md, "Events").' },
    example: `retry: 1000\n\nid: ${v}\nevent: version\ndata: ${JSON.stringify(record)}\n\n: heartbeat ${v}\n\n`,
  } as { example?: unknown };
}
