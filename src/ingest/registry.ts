/** Dataset files by name: `bars_1d.csv`, `quotes.ndjson.gz` (the datasets: datasets/registry.ts). */
import { dataset } from '../datasets/registry.js';
import type { Dataset } from '../datasets/dataset.js';

export type Format = 'csv' | 'ndjson';

/** `bars_1d.csv`, `quotes.ndjson.gz`, `trades.jsonl` → dataset and format; null for other names. */
export function fileDataset(fileName: string): { dataset: Dataset; format: Format } | null {
  const m = /^([a-z0-9_]+)\.(csv|ndjson|jsonl)(\.gz)?$/.exec(fileName);
  const d = m ? dataset(m[1]) : undefined;
  return d ? { dataset: d, format: m![2] === 'csv' ? 'csv' : 'ndjson' } : null;
}
