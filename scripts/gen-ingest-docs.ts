/** Rewrites the dataset reference section of docs/ingest.md from the registry.  npx tsx scripts/gen-ingest-docs.ts */
import { readFileSync, writeFileSync } from 'node:fs';
import { withDatasetDocs } from '../src/ingest/docs.js';

const path = new URL('../docs/ingest.md', import.meta.url);
writeFileSync(path, withDatasetDocs(readFileSync(path, 'utf8')));
