/**
 * The clients' generated files from the OpenAPI document, by path: `npm run clients:generate`
 * writes them; test/clients-generated.test.ts makes them again in memory and compares.
 */
import { openApiDocument } from './document.js';
import { pythonOperations, PYTHON_OPERATIONS } from './python.js';
import { typescriptSchema, TS_SCHEMA } from './typescript.js';

export async function generatedClients(): Promise<Record<string, string>> {
  const doc = await openApiDocument();
  return { [TS_SCHEMA]: await typescriptSchema(doc), [PYTHON_OPERATIONS]: pythonOperations(doc) };
}
