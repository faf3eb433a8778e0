import type { BulkSession, Store, UpsertCounts } from './types.js';
import { metaValue, readMeta, setMeta } from './meta.js';

/** The running totals of the successful ingests into a store (meta `ingest_totals`, JSON). */
export interface IngestTotals {
  runs: number;
  /** Completion time of the last successful ingest, ISO 8601. */
  last_at: string;
  rows: Record<string, UpsertCounts>;
}

/** The meta key of the running totals of successful ingests (read by the server's /metrics). */
export const INGEST_TOTALS = 'ingest_totals';

/**
 * Adds a successful ingest's rows (by dataset) to the store's running totals, in the ingest's
 * own transaction: the totals commit with the rows they count. A failed ingest is rolled back
 * whole, totals included (docs/operations.md, "Metrics": watch `mds ingest`'s exit code).
 */
export async function recordIngest(s: BulkSession, datasets: (UpsertCounts & { dataset: string })[], at = new Date()): Promise<void> {
  const stored = await metaValue(s, INGEST_TOTALS);
  let totals: IngestTotals = { runs: 0, last_at: '', rows: {} };
  try {
    if (stored !== null) totals = JSON.parse(stored) as IngestTotals;
  } catch {
    /* unreadable: start again */
  }
  totals.runs++;
  totals.last_at = at.toISOString();
  for (const d of datasets) {
    const t = (totals.rows[d.dataset] ??= { inserted: 0, updated: 0, unchanged: 0 });
    t.inserted += d.inserted;
    t.updated += d.updated;
    t.unchanged += d.unchanged;
  }
  await setMeta(s, INGEST_TOTALS, JSON.stringify(totals));
}

/** The store's ingest totals; null before the first successful ingest. */
export async function readIngestTotals(store: Store): Promise<IngestTotals | null> {
  const value = await readMeta(store, INGEST_TOTALS);
  if (value === null) return null;
  try {
    return JSON.parse(value) as IngestTotals;
  } catch {
    return null;
  }
}
