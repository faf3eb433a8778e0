/**
 * The data-version headers of every data operation in the OpenAPI document (docs/api.md,
 * "Consistency"): `Data-Version` on its 200 and 304, `Data-Version-Cursor` on a collection's 200; and
 * `Data-Notice` on a collection's 200 (docs/api.md, "Empty pages that say why").
 */
const HEADERS = {
  'Data-Version': {
    description: 'The data version the response was read at (one per commit that changed data; `mds versions` lists what each changed).',
    schema: { type: 'integer', minimum: 1 },
  },
  'Data-Version-Cursor': {
    description:
      'Only on a page read from a cursor issued at another data version: that version. The walk goes on after the cursor (no row repeated or skipped by key); restart it without page[after] to read the whole walk at one version.',
    schema: { type: 'integer', minimum: 1 },
  },
  'Data-Notice': {
    description:
      "Only on an empty first page whose operation can say why it is empty, as `meta.notice` says it (a file has no envelope): bars and indicator points of a window that begins after the store's data (`The store's data ends on 2026-11-20, before this window.`).",
    schema: { type: 'string' },
  },
};

/** Adds the headers to the 200 and 304 responses of every operation that needs an API key. */
export function documentVersionHeaders<T>(doc: T): T {
  const d = doc as {
    components?: { headers?: Record<string, unknown>; schemas?: Record<string, any> };
    paths?: Record<string, Record<string, any>>;
  };
  if (!d.paths) return doc;
  d.components ??= {};
  d.components.headers = { ...(d.components.headers ?? {}), ...HEADERS };
  for (const item of Object.values(d.paths)) {
    for (const op of Object.values(item)) {
      if (typeof op !== 'object' || op === null || !op.responses || (Array.isArray(op.security) && op.security.length === 0)) continue;
      for (const status of ['200', '304']) {
        const response = op.responses[status];
        if (!response) continue;
        response.headers = { ...(response.headers ?? {}), 'Data-Version': { $ref: '#/components/headers/Data-Version' } };
        // A collection: its schema (references into components resolved) pages by meta.next_cursor.
        const resolve = (x: any) => (typeof x?.$ref === 'string' ? d.components!.schemas?.[x.$ref.split('/').pop()] : x);
        const meta = resolve(resolve(response.content?.['application/json']?.schema)?.properties?.meta);
        const collection = status === '200' && meta?.properties?.next_cursor !== undefined;
        if (collection) for (const h of ['Data-Version-Cursor', 'Data-Notice']) response.headers[h] = { $ref: `#/components/headers/${h}` };
      }
    }
  }
  return doc;
}
