import type { DataChange } from '../store/versions.js';
import type { BulkSession } from '../store/types.js';
import { idsByInst } from '../store/tables/instruments.js';
import { epochToMarketDate } from '../lib/time.js';
import type { Dataset, Row } from '../datasets/dataset.js';

/** What one dataset's batches changed so far: rows, instruments (internal keys, or ids for the instruments themselves), dates. */
interface Tally {
  rows: number;
  insts: Set<number>;
  ids: Set<string>;
  from: number;
  to: number;
  dated: boolean;
}

/**
 * The change log entry of an ingest (store/versions.ts), gathered batch by batch: of each batch
 * that inserted or updated rows, its instruments (by the dataset's instrument key columns: an
 * index's weights name the index and its members; the instruments' own `id` for `stock_basic`) and dates (its first date or timestamp key
 * column, timestamps by market date). Of datasets other than bars, the rows noted are those that
 * changed (the upsert tells them); of bars, a batch's unchanged rows count too: what the log lists
 * is then the least batch-exact superset of what changed.
 */
export class ChangeTracker {
  private readonly tallies = new Map<string, Tally>();

  /** Notes a batch of `dataset`'s rows written (or those of them that changed), of which `changed` were inserted or updated. */
  note(dataset: Dataset, batch: readonly Row[], changed: number): void {
    if (changed === 0) return;
    let t = this.tallies.get(dataset.name);
    if (!t)
      this.tallies.set(dataset.name, (t = { rows: 0, insts: new Set(), ids: new Set(), from: Infinity, to: -Infinity, dated: false }));
    t.rows += changed;
    const cols = dataset.columns;
    const instKeys = dataset.key.filter((k) => cols[dataset.ix[k]].type === 'instrument_id').map((k) => dataset.ix[k]);
    const dateKey = dataset.key.find((k) => ['date', 'timestamp'].includes(cols[dataset.ix[k]].type));
    const own = dataset.table === 'instruments' ? dataset.ix.id : undefined;
    const di = dateKey === undefined ? undefined : dataset.ix[dateKey];
    const epoch = dateKey !== undefined && cols[dataset.ix[dateKey]].type === 'timestamp';
    for (const r of batch) {
      if (own !== undefined) t.ids.add(String(r[own]));
      else for (const ii of instKeys) t.insts.add(r[ii] as number);
      if (di !== undefined && r[di] !== null) {
        const d = epoch ? epochToMarketDate(r[di] as number) : (r[di] as number);
        t.dated = true;
        if (d < t.from) t.from = d;
        if (d > t.to) t.to = d;
      }
    }
  }

  /**
   * Notes rows changed in `dataset` derived from those of `from` (daily bars from 1m bars): the
   * same instruments and dates, added to what `dataset`'s own files changed in the same ingest.
   */
  derived(dataset: string, from: string, rows: number): void {
    const src = this.tallies.get(from);
    if (rows === 0 || !src) return;
    const own = this.tallies.get(dataset);
    if (!own) {
      this.tallies.set(dataset, { ...src, insts: new Set(src.insts), ids: new Set(src.ids), rows });
      return;
    }
    own.rows += rows;
    for (const i of src.insts) own.insts.add(i);
    for (const i of src.ids) own.ids.add(i);
    if (src.dated) {
      own.dated = true;
      own.from = Math.min(own.from, src.from);
      own.to = Math.max(own.to, src.to);
    }
  }

  /** The changes, by dataset name, instruments by id (read in `s`, which knows the ones just created). */
  async changes(s: BulkSession): Promise<DataChange[]> {
    const all = [...this.tallies.values()].some((t) => t.insts.size > 0);
    const ids = all ? await idsByInst(s) : new Map<number, string>();
    return [...this.tallies.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([dataset, t]) => {
        const list = t.ids.size > 0 ? [...t.ids] : t.insts.size > 0 ? [...t.insts].map((i) => ids.get(i) ?? String(i)) : null;
        return {
          dataset,
          rows: t.rows,
          instruments: list === null ? null : list.sort(),
          from: t.dated ? t.from : null,
          to: t.dated ? t.to : null,
        };
      });
  }
}
