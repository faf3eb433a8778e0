/** The OpenAPI document the clients are generated from: what `mds openapi` prints, made in this process. */
import { Writable } from 'node:stream';
import { run } from '../../src/cli/run.js';

export type OpenApiDocument = {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
  [key: string]: unknown;
};
export type Schema = { [key: string]: any };
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: Schema;
}
export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

/** `mds openapi`'s output (the document of a store-less app), parsed. */
export async function openApiDocument(): Promise<OpenApiDocument> {
  let text = '';
  let err = '';
  const sink = (add: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        add(String(chunk));
        done();
      },
    });
  const code = await run(['openapi'], { stdout: sink((s) => (text += s)), stderr: sink((s) => (err += s)) });
  if (code !== 0) throw new Error(`mds openapi exited ${code}: ${err}`);
  return JSON.parse(text) as OpenApiDocument;
}

/** The document without its examples (`example`, `examples`): the clients need the shapes and words, not sample payloads. */
export function withoutExamples<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutExamples) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'example' && k !== 'examples')
      .map(([k, v]) => [k, withoutExamples(v)]),
  ) as T;
}

/** The schema a `$ref` names (`#/components/schemas/Name`), else the schema itself. */
export function deref(doc: OpenApiDocument, schema: Schema): Schema {
  const ref = schema.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.slice('#/components/schemas/'.length)] : schema;
}

/** The name of the schema a `$ref` names. */
export const refName = (schema: Schema): string | null => (schema.$ref ? (schema.$ref as string).split('/').pop()! : null);

/** Every GET operation with its path, in the document's order. */
export function operations(doc: OpenApiDocument): { path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => (item.get ? [{ path, op: item.get }] : []));
}
