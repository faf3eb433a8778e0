import { parentPort, workerData } from 'node:worker_threads';
import { migrate, openStore } from '../derived/open.js';
import { KeyStore } from '../auth/keys.js';
import { generateDemo, type DemoOptions } from './generate.js';

/**
 * Builds a demo store in a worker thread, so the generator's working memory is returned to the
 * system when it ends instead of staying in the server's heap. Posts each step done, then the
 * first API key, back.
 */
const { file, options } = workerData as { file: string; options: Partial<DemoOptions> };
const store = openStore(file);
try {
  await migrate(store);
  await generateDemo(store, options, (step) => parentPort!.postMessage({ step }));
  const { key } = await new KeyStore(store.db).create('default');
  parentPort!.postMessage({ key });
} finally {
  await store.close();
}
