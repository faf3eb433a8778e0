/**
 * `mds ingest`: loads files of datasets into the store as ONE transaction. Every row of every
 * file is validated; rows are upserted by natural key in batches as they stream in. Any
 * invalid row makes the whole command roll back (nothing changes), but validation goes on to
 * report every problem (the first `maxErrors` listed, the rest counted). When anything changed,
 * a new data version is recorded in the same transaction with what it changed (store/versions.ts):
 * requests that start after the commit read it whole, and running servers drop what they cached
 * of the old one.
 */
import { recordVersion } from '../store/versions.js';
import { ChangeTracker } from './changes.js';
import type { BulkSession, Store, UpsertCounts } from '../store/types.js';
import { IngestContext } from './context.js';
import type { Dataset } from '../datasets/dataset.js';
import { DerivedDaily } from '../derived/derived-daily.js';
import { LimitCheck } from './limit-check.js';
import { recordIngest } from '../store/ingest-totals.js';
import { holdsBars } from '../store/tables/bars.js';
import { dataset, orderOf } from '../datasets/registry.js';
import { type Format } from './registry.js';
import { formatError, RowReader } from './rows.js';
import { keepStored } from './keep.js';
import { formatOfName, IngestIOError, readRecords, sourceInfo, type Encoding } from './source.js';
import { VendorReport, type Layout, type VendorOptions } from './vendors/vendor.js';

export { IngestIOError };

export interface IngestFile {
  path: string;
  dataset: Dataset;
  format?: Format | null;
  /** The file's text encoding (default UTF-8); bytes not valid in it are an error at their line. */
  encoding?: Encoding;
  /** A vendor file (ingest/vendors): its layout converts its records into the dataset's. */
  vendor?: { layout: Layout } & VendorOptions;
  /**
   * Not one file: records the vendor layout makes itself (no file is read), or several files it
   * reads as one (`vendor.parts`, whose records name their own file); `path` only names them.
   */
  virtual?: boolean;
}

export interface FileSummary extends UpsertCounts {
  dataset: string;
  path: string;
  rows: number;
  seconds: number;
  /** The files read as this one (VendorOptions.parts), when more than one. */
  files?: number;
  /** A vendor file's notes and skipped-row counts (VendorReport.lines). */
  vendor?: string[];
}
export interface DatasetSummary extends UpsertCounts {
  dataset: string;
  files: number;
  rows: number;
}

export interface IngestResult {
  ok: boolean;
  dryRun: boolean;
  datasets: DatasetSummary[];
  files: FileSummary[];
  /** The first `maxErrors` problems, `file:line:column: …`. */
  errors: string[];
  errorCount: number;
  /** Daily bars derived from the 1m bars written (derived/derived-daily.ts). */
  derived: UpsertCounts;
  /** Loaded daily bars outside their day's price limits (ingest/limit-check.ts): `file:line: id date: …`, loaded all the same. */
  warnings: string[];
  /** The new data version, when the command changed anything. */
  dataVersion: number | null;
  seconds: number;
}

export interface Progress {
  start(file: string, dataset: string, bytes: number): void;
  update(rows: number, bytes: number): void;
  finish(summary: FileSummary): void;
}

export interface IngestOptions {
  dryRun?: boolean;
  maxErrors?: number;
  batchSize?: number;
  progress?: Progress;
  /** Daily bars are derived from the 1m rows kept every this many rows, and at the end (default 250,000). */
  deriveEvery?: number;
  /**
   * Run in the load's transaction once every row is written and valid (not on a dry run), before
   * its data version: `mds ingest --tdx` records what it loaded of each file (ingest/tdx-update.ts).
   */
  beforeCommit?: (s: BulkSession) => Promise<void>;
  /** The data version's origin (default `ingest of N files`). */
  origin?: string;
}

class Invalid extends Error {}

export async function ingest(store: Store, input: IngestFile[], opts: IngestOptions = {}): Promise<IngestResult> {
  const started = Date.now();
  const maxErrors = opts.maxErrors ?? 20;
  const batchSize = opts.batchSize ?? (store.dialect === 'sqlite' ? 4096 : 20_000);
  const files = input
    .map((f, i) => ({ f, i }))
    .sort((a, b) => orderOf(a.f.dataset) - orderOf(b.f.dataset) || a.i - b.i)
    .map((x) => x.f);
  for (const f of files) {
    // A range of a file was planned from the file as it is (`mds ingest --tdx` again): looked at already.
    if (f.vendor?.range) continue;
    for (const path of f.vendor?.parts?.map((p) => p.path) ?? (f.virtual ? [] : [f.path])) {
      try {
        await sourceInfo(path);
      } catch (e) {
        throw new IngestIOError(`${path}: ${(e as Error).message}`);
      }
    }
  }
  const errors: string[] = [];
  let errorCount = 0;
  const addError = (msg: string) => {
    if (errors.length < maxErrors) errors.push(msg);
    errorCount++;
  };
  const summaries: FileSummary[] = [];
  let dataVersion: number | null = null;
  const changes = new ChangeTracker();
  let derived: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  let warnings: string[] = [];
  const check = new LimitCheck();

  const run = async (s: BulkSession) => {
    const ctx = await IngestContext.load(s);
    const days = await DerivedDaily.load(s, dataset('bars_1d')!.target, opts.deriveEvery);
    for (const f of files) {
      summaries.push(
        await loadFile(s, ctx, f, {
          write: () => errorCount === 0 && !opts.dryRun,
          addError,
          batchSize,
          progress: opts.progress,
          days,
          check,
          changes,
        }),
      );
    }
    if (errorCount > 0) throw new Invalid();
    if (opts.dryRun) return;
    await days.derive(s);
    derived = days.counts;
    warnings = await check.warnings(s, ctx);
    changes.derived('bars_1d', 'bars_1m', derived.inserted + derived.updated);
    await opts.beforeCommit?.(s);
    if (summaries.some((x) => x.inserted + x.updated > 0) || derived.inserted + derived.updated > 0) {
      // Files read, a several-file export counted by its files.
      const n = [...new Map(summaries.map((x) => [x.path, x.files ?? 1])).values()].reduce((a, b) => a + b, 0);
      dataVersion = await recordVersion(s, opts.origin ?? `ingest of ${n} file${n === 1 ? '' : 's'}`, await changes.changes(s));
    }
    await recordIngest(s, [
      ...summaries,
      ...(derived.inserted + derived.updated + derived.unchanged > 0 ? [{ dataset: 'bars_1d_derived', ...derived }] : []),
    ]);
  };
  try {
    // Into a SQLite store without bars, the load is written in place (BulkOptions.firstLoad).
    const firstLoad = store.dialect === 'sqlite' && !opts.dryRun && !(await holdsBars(store));
    await store.bulkTransaction(run, { readOnly: opts.dryRun, firstLoad });
  } catch (e) {
    if (!(e instanceof Invalid)) throw e;
    // Rolled back: nothing was inserted or updated after all.
    dataVersion = null;
    derived = { inserted: 0, updated: 0, unchanged: 0 };
    warnings = [];
    for (const x of summaries) {
      x.inserted = 0;
      x.updated = 0;
      x.unchanged = 0;
    }
  }
  const datasets = new Map<string, DatasetSummary>();
  for (const x of summaries) {
    const d = datasets.get(x.dataset) ?? { dataset: x.dataset, files: 0, rows: 0, inserted: 0, updated: 0, unchanged: 0 };
    d.files += x.files ?? 1;
    d.rows += x.rows;
    d.inserted += x.inserted;
    d.updated += x.updated;
    d.unchanged += x.unchanged;
    datasets.set(x.dataset, d);
  }
  return {
    ok: errorCount === 0,
    dryRun: !!opts.dryRun,
    datasets: [...datasets.values()],
    files: summaries,
    errors,
    errorCount,
    derived,
    warnings,
    dataVersion,
    seconds: (Date.now() - started) / 1000,
  };
}

interface FileOptions {
  write: () => boolean;
  addError: (m: string) => void;
  batchSize: number;
  progress?: Progress;
  days: DerivedDaily;
  check: LimitCheck;
  changes: ChangeTracker;
}

async function loadFile(s: BulkSession, ctx: IngestContext, f: IngestFile, o: FileOptions): Promise<FileSummary> {
  const started = Date.now();
  const name = f.path;
  // Several files read as one: their bytes together (progress).
  let size = 0;
  for (const p of f.vendor?.parts ?? []) size += (await sourceInfo(p.path)).size;
  const range = f.vendor?.range;
  const info = f.vendor?.parts ? { size } : f.virtual ? { size: 0 } : range ? { size: range.to - range.from } : await sourceInfo(f.path);
  const sum: FileSummary = { dataset: f.dataset.name, path: f.path, rows: 0, inserted: 0, updated: 0, unchanged: 0, seconds: 0 };
  if ((f.vendor?.parts?.length ?? 0) > 1) sum.files = f.vendor!.parts!.length;
  o.progress?.start(f.path, f.dataset.name, info.size);
  let bytes = 0;
  let reader: RowReader | null = null;
  let batch: unknown[][] = [];
  /** Rows of the batch (by index) with absent columns, which keep their stored values. */
  let absent = new Map<number, number[]>();
  let badHeader = false;
  const flush = async () => {
    if (batch.length && o.write()) {
      await keepStored(s, f.dataset, batch, absent);
      // Rows other than bars tell which of them changed: the change log lists their instruments and dates alone.
      const c = await s.upsert(f.dataset.target, batch, bars ? undefined : { changed: true });
      await o.days.written(s, f.dataset.target, batch);
      sum.inserted += c.inserted;
      sum.updated += c.updated;
      sum.unchanged += c.unchanged;
      o.changes.note(f.dataset, c.changed ? c.changed.map((i) => batch[i]) : batch, c.inserted + c.updated);
    }
    batch = [];
    absent = new Map();
  };
  const format = f.format ?? formatOfName(f.path);
  const bars = f.dataset.name === 'bars_1d' || f.dataset.name === 'bars_1m';
  const dailyBars = f.dataset.name === 'bars_1d' && o.write();
  const ix = f.dataset.ix;
  const report = f.vendor ? new VendorReport() : null;
  const onBytes = (n: number) => {
    bytes = n;
  };
  const source = f.vendor
    ? f.vendor.layout.read({ ...f.vendor, path: f.path, dataset: f.dataset, ctx, report: report!, onBytes, encoding: f.encoding })
    : readRecords(f.path, format, onBytes, f.encoding);
  const unit = f.vendor?.layout.binary ? 'record ' : '';
  for await (const records of source) {
    for (const rec of records) {
      reader ??= new RowReader(f.dataset, ctx, !f.vendor && rec.fields !== undefined);
      if (rec.error) {
        o.addError(formatError(rec.file ?? name, { line: rec.line, message: rec.error }, unit));
        continue;
      }
      if (reader.needsHeader) {
        const errs = reader.header(rec);
        for (const e of errs) o.addError(formatError(name, e));
        badHeader = errs.length > 0;
        continue;
      }
      if (badHeader) continue;
      sum.rows++;
      const r = reader.row(rec);
      if ('errors' in r) {
        for (const e of r.errors) o.addError(formatError(rec.file ?? name, e, unit));
        continue;
      }
      if (r.absent) absent.set(batch.length, r.absent);
      batch.push(r.row);
      if (dailyBars)
        o.check.note(`${rec.file ?? name}:${unit}`, r.row[ix.instrument_id] as number, r.row[ix.trade_date] as number, rec.line);
      if (batch.length >= o.batchSize) await flush();
    }
    o.progress?.update(sum.rows, bytes);
  }
  if (report) sum.vendor = report.lines();
  if (reader === null && format !== 'ndjson' && !f.vendor) {
    o.addError(
      formatError(name, { line: 1, message: `empty file: expected a header row (${f.dataset.columns.map((c) => c.name).join(',')})` }),
    );
  }
  await flush();
  sum.seconds = (Date.now() - started) / 1000;
  o.progress?.finish(sum);
  return sum;
}
