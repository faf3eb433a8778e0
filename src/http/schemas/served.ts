/**
 * The schemas of the collections served from declarations (datasets/registry.ts SERVED): each
 * dataset's record (`record.id`, its declared columns) and its collection response
 * (`serve.response`). A dataset declared with `serve` has them with nothing written here.
 */
import type { TObject } from '@sinclair/typebox';
import { Collection } from './common.js';
import { recordSchema } from './declared.js';
import { SERVED } from '../../datasets/registry.js';

const RECORDS = new Map(SERVED.map((d) => [d.name, recordSchema(d)]));
const RESPONSES = new Map(SERVED.map((d) => [d.name, Collection(d.serve.response, RECORDS.get(d.name)!)]));

/** The record schema of served dataset `name`. */
export function servedRecord(name: string): TObject {
  const s = RECORDS.get(name);
  if (!s) throw new Error(`dataset ${name} is not served from its declaration`);
  return s;
}

/** The collection response schema of served dataset `name`. */
export function servedResponse(name: string): TObject {
  const s = RESPONSES.get(name);
  if (!s) throw new Error(`dataset ${name} is not served from its declaration`);
  return s;
}

/** Every one of them, for registry.ts: the records, then the responses. */
export const SERVED_SCHEMAS: readonly TObject[] = [...RECORDS.values(), ...RESPONSES.values()];
