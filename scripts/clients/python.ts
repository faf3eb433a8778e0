/**
 * clients/python/mds_client/_generated.py: a method for every operation of the OpenAPI document
 * (collections walked whole into a DataFrame, single records as dicts) and the kind of every
 * field of every record, which is how the client types a DataFrame's columns.
 */
import { deref, operations, refName, type OpenApiDocument, type Operation, type Parameter, type Schema } from './document.js';

export const PYTHON_OPERATIONS = 'clients/python/mds_client/_generated.py';

/** The pattern of the API's exact decimal strings. */
const DECIMAL = '^-?\\d+(\\.\\d+)?$';
const PY_KEYWORDS = new Set(['from', 'import', 'class', 'def', 'in', 'is', 'not', 'or', 'and', 'global', 'lambda', 'pass', 'return']);

/** A field's kind: decimal, integer, number, boolean, date, datetime, string, list, object, or decimal_map (named decimals). */
function kind(schema: Schema): string {
  if (schema.anyOf) {
    const kinds = [...new Set((schema.anyOf as Schema[]).filter((s) => s.type !== 'null').map(kind))];
    return kinds.length === 1 ? kinds[0] : 'string';
  }
  if (schema.$ref) return 'object';
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date') return 'date';
      if (schema.format === 'date-time') return 'datetime';
      return schema.pattern === DECIMAL ? 'decimal' : 'string';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'list';
    case 'object':
      // Technical indicator values: decimal strings by name (the API writes them at 4 decimals).
      return schema.additionalProperties?.type === 'string' ? 'decimal_map' : 'object';
    default:
      return 'object';
  }
}

/** snake_case of an operationId: listEquityBars -> list_equity_bars. */
export const snake = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The Python argument of a parameter: page[size] -> page_size, from -> from_. */
const argName = (name: string) => {
  const n = name.replace(/\[/g, '_').replace(/\]/g, '');
  return PY_KEYWORDS.has(n) ? `${n}_` : n;
};

const py = (s: string) => JSON.stringify(s);

function pyType(p: Parameter): string {
  const s = p.schema;
  if (s.enum) return `Literal[${(s.enum as string[]).map(py).join(', ')}]`;
  if (s.type === 'integer') return 'int';
  if (s.type === 'boolean') return 'bool';
  if (p.in === 'query' && (s.format === 'date' || p.name === 'from' || p.name === 'to')) return 'DateLike';
  return 'str';
}

/** Text as lines of at most `width` characters (words kept whole): the first indented by `indent`, the others by `hanging`. */
function wrap(text: string, indent: string, hanging = indent, width = 100): string[] {
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const at = lines.length ? hanging : indent;
      if (line && at.length + line.length + 1 + word.length > width) {
        lines.push(at + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push((lines.length ? hanging : indent) + line);
  }
  return lines.map((l) => l.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').trimEnd());
}

/** The record schema a 200 answer holds: `{name, collection}` (data is an array of it), or null (no `data`). */
function recordOf(doc: OpenApiDocument, op: Operation): { name: string; collection: boolean } | null {
  const body = op.responses['200']?.content?.['application/json']?.schema;
  if (!body) return null;
  const data = deref(doc, body).properties?.data as Schema | undefined;
  if (!data) return null;
  if (data.type === 'array') return { name: refName(data.items)!, collection: true };
  return { name: refName(data)!, collection: false };
}

/** Whether the operation's 200 is a stream of server-sent events (GET /api/v1/events): an iterator of its records. */
const isStream = (op: Operation) => op.responses['200']?.content?.['text/event-stream'] !== undefined;

function method(doc: OpenApiDocument, path: string, op: Operation): string[] {
  const params = op.parameters ?? [];
  const stream = isStream(op);
  const pathParams = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query' && p.name !== 'page[after]' && p.name !== 'page[size]');
  const record = recordOf(doc, op);
  const collection = record?.collection ?? false;
  const args = pathParams.map((p) => `${argName(p.name)}: ${pyType(p)}`);
  const kw = [
    ...query.filter((p) => p.required).map((p) => `${argName(p.name)}: ${pyType(p)}`),
    ...query.filter((p) => !p.required).map((p) => `${argName(p.name)}: Optional[${pyType(p)}] = None`),
    ...(collection ? ['page_size: Optional[int] = None', 'limit: Optional[int] = None', 'exact: Optional[bool] = None'] : []),
    ...(stream ? ['timeout: float = 60.0', 'duration: Optional[float] = None'] : []),
  ];
  const signature = ['self', ...args, ...(kw.length ? ['*', ...kw] : [])];
  const returns = collection ? 'pd.DataFrame' : stream ? 'Iterator[Dict[str, Any]]' : 'Dict[str, Any]';
  const what = collection
    ? `Every page, as one DataFrame of \`\`${record!.name}\`\` records (typed columns).`
    : stream
      ? "Each event's record as it comes (the API's JSON), the stream resumed after a disconnect with Last-Event-ID."
      : record
        ? `The \`\`${record.name}\`\` record (the answer's \`\`data\`\`), as the API's JSON.`
        : "The answer's JSON.";
  const doc_ = [
    ...wrap(op.summary ?? op.operationId, '        '),
    '',
    ...wrap(`\`\`GET ${path}\`\` (${op.operationId}). ${what}`, '        '),
  ];
  const described = [...pathParams, ...query].filter((p) => p.description);
  if (described.length || collection || stream) {
    doc_.push('', '        Args:');
    for (const p of described) doc_.push(...wrap(`${argName(p.name)}: ${p.description}`, '            ', '                '));
    if (collection) {
      doc_.push("            page_size: Rows per request (1..1000; default the client's, 1000).");
      doc_.push('            limit: Stop after this many rows.');
      doc_.push("            exact: Decimals as ``decimal.Decimal`` (else float64); default the client's.");
    }
    if (stream) {
      doc_.push(
        '            timeout: Seconds without a byte (heartbeats come every 15 s) before the stream counts as lost and is reopened.',
      );
      doc_.push('            duration: Stop after about this many seconds (None: never; break out of the loop to stop).');
    }
  }
  const pathArg = `{${pathParams.map((p) => `${py(p.name)}: ${argName(p.name)}`).join(', ')}}`;
  const queryArg = `{${query.map((p) => `${py(p.name)}: ${argName(p.name)}`).join(', ')}}`;
  const call = collection
    ? [
        `        return self._collection(`,
        `            ${py(path)},`,
        `            ${pathArg},`,
        `            ${queryArg},`,
        `            ${py(record!.name)},`,
        `            page_size=page_size,`,
        `            limit=limit,`,
        `            exact=exact,`,
        `        )`,
      ]
    : stream
      ? [`        return self._events(${py(path)}, ${pathArg}, ${queryArg}, timeout=timeout, duration=duration)`]
      : [`        return self._resource(${py(path)}, ${pathArg}, ${queryArg})`];
  return [
    `    def ${snake(op.operationId)}(`,
    ...signature.map((a) => `        ${a},`),
    `    ) -> ${returns}:`,
    `        """${doc_[0].trimStart()}`,
    ...doc_.slice(1),
    `        """`,
    ...call,
    '',
  ];
}

/** Every record schema a collection or single answer holds: field -> kind. */
function records(doc: OpenApiDocument): string[] {
  const names = [...new Set(operations(doc).flatMap(({ op }) => recordOf(doc, op)?.name ?? []))].sort();
  return names.flatMap((name) => {
    const props = Object.entries((doc.components.schemas[name].properties ?? {}) as Record<string, Schema>);
    return [`    ${py(name)}: {`, ...props.map(([f, s]) => `        ${py(f)}: ${py(kind(s))},`), '    },'];
  });
}

export function pythonOperations(doc: OpenApiDocument): string {
  return [
    '# Generated by `npm run clients:generate` from the OpenAPI document (`mds openapi`): do not edit.',
    '# test/clients-generated.test.ts fails when this file is not what the document makes.',
    `"""Every operation of the market-data-service API ${doc.info.version}, a method each, and the kinds of its records' fields."""`,
    '',
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, Iterator, Literal, Optional',
    '',
    'import pandas as pd',
    '',
    'from ._base import BaseClient, DateLike',
    '',
    "#: Each record's fields and their kinds (decimal, integer, number, boolean, date, datetime, string, list, object,",
    '#: decimal_map): how the columns of a DataFrame are typed.',
    'RECORDS: Dict[str, Dict[str, str]] = {',
    ...records(doc),
    '}',
    '',
    '',
    'class Operations(BaseClient):',
    '    """A method per operation: a collection walked whole into one DataFrame, a single record as a dict, a stream as an iterator."""',
    '',
    ...operations(doc).flatMap(({ path, op }) => method(doc, path, op)),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
