/** Writes the clients' generated files (clients/ts/src/schema.ts, clients/python/mds_client/_generated.py). npm run clients:generate */
import { writeFileSync } from 'node:fs';
import { generatedClients } from './clients/generate.js';

const root = new URL('..', import.meta.url);
for (const [path, text] of Object.entries(await generatedClients())) {
  writeFileSync(new URL(path, root), text);
  console.log(`wrote ${path} (${text.length.toLocaleString('en')} characters)`);
}
