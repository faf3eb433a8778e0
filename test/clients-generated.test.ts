/**
 * The clients' generated files are what the current OpenAPI document makes: an operation, a
 * parameter or a schema changed without `npm run clients:generate` fails here, naming the file.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { generatedClients } from '../scripts/clients/generate.js';
import { operations, openApiDocument } from '../scripts/clients/document.js';
import { snake } from '../scripts/clients/python.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('the generated clients', () => {
  it('are what the OpenAPI document makes (regenerate: npm run clients:generate)', async () => {
    const files = await generatedClients();
    expect(Object.keys(files).sort()).toEqual(['clients/python/mds_client/_generated.py', 'clients/ts/src/schema.ts']);
    for (const [path, text] of Object.entries(files)) {
      // Compared as a flag first: a diff of 500 KB of types says less than the file's name.
      expect(read(path) === text, `${path} is stale: run npm run clients:generate and commit it`).toBe(true);
    }
  });

  it('have a Python method and a TypeScript path for every operation', async () => {
    const doc = await openApiDocument();
    const py = read('clients/python/mds_client/_generated.py');
    const ts = read('clients/ts/src/schema.ts');
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(47);
    for (const { path, op } of ops) {
      expect(py, op.operationId).toContain(`    def ${snake(op.operationId)}(\n`);
      expect(ts, path).toContain(`    "${path}": {`);
      expect(ts, op.operationId).toContain(`    ${op.operationId}: {`);
    }
  });
});
