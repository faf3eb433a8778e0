/**
 * `mds export`: writes datasets in exactly the format `mds ingest` reads (CSV with a header row,
 * or NDJSON; optionally gzip), from one consistent read snapshot, streamed in key order
 * (keyset pages, never a whole table in memory). Files are written aside and renamed into place.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { BulkSession, Store } from '../store/types.js';
import { rowsAfter, type KeyOrder } from '../store/tables/keyed-rows.js';
import { IngestContext } from './context.js';
import type { Dataset } from '../datasets/dataset.js';
import type { Format } from './registry.js';
import { csvField } from './csv.js';
import { IngestIOError } from './source.js';

export interface ExportOptions {
  format?: Format;
  gzip?: boolean;
  pageSize?: number;
}
export interface ExportSummary {
  dataset: string;
  rows: number;
  path: string | null;
}

const PAGE = 10_000;

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** Streams one dataset to `out`; returns the row count. */
export async function writeDataset(
  s: BulkSession,
  ctx: IngestContext,
  ds: Dataset,
  out: Writable,
  opts: ExportOptions = {},
): Promise<number> {
  const format = opts.format ?? 'csv';
  const cols = ds.columns;
  const select = ds.selectColumns;
  const keyIdx = ds.orderColumns.map((c) => select.indexOf(c));
  const source: KeyOrder = { table: ds.table, columns: select, order: ds.orderColumns, loadedOnly: true };
  if (format === 'csv') await write(out, cols.map((c) => c.name).join(',') + '\n');
  let rows = 0;
  let last: unknown[] | null = null;
  for (;;) {
    const page = await rowsAfter(s, source, last, opts.pageSize ?? PAGE);
    if (page.length === 0) break;
    let text = '';
    for (const r of page) {
      // A column's in-band empty value (a bar's unknown amount) is an empty field, as ingest reads it.
      const vals = select.map((c, i) => (r[c] === cols[i].empty ? null : r[c]));
      if (format === 'csv') {
        text +=
          vals
            .map((v, i) =>
              v === null ? '' : cols[i].type === 'text' ? csvField(cols[i].format(v as string, ctx)) : cols[i].format(v as number, ctx),
            )
            .join(',') + '\n';
      } else {
        const o: Record<string, unknown> = {};
        vals.forEach((v, i) => {
          o[cols[i].name] = v === null ? null : cols[i].json === 'number' ? v : cols[i].format(v as number, ctx);
        });
        text += JSON.stringify(o) + '\n';
      }
      last = keyIdx.map((i) => vals[i]);
    }
    rows += page.length;
    await write(out, text);
  }
  return rows;
}

/** Writes one dataset to a file (renamed into place when complete) or, with path null, to `stdout`. */
async function toFile(
  s: BulkSession,
  ctx: IngestContext,
  ds: Dataset,
  path: string | null,
  opts: ExportOptions,
  stdout: NodeJS.WritableStream,
): Promise<number> {
  if (path === null) {
    if (!opts.gzip) return writeDataset(s, ctx, ds, stdout as Writable, opts);
    const gz = createGzip();
    gz.pipe(stdout);
    const n = await writeDataset(s, ctx, ds, gz, opts);
    gz.end();
    await once(gz, 'end');
    return n;
  }
  const tmp = `${path}.tmp-${process.pid}`;
  const file = createWriteStream(tmp);
  const out: Writable = opts.gzip ? createGzip() : file;
  if (opts.gzip) out.pipe(file);
  const failed = new Promise<never>((_, reject) => file.on('error', (e) => reject(new IngestIOError(`${path}: ${e.message}`))));
  failed.catch(() => {});
  try {
    const n = await Promise.race([writeDataset(s, ctx, ds, out, opts), failed]);
    out.end();
    await Promise.race([once(file, 'close'), failed]);
    await rename(tmp, path);
    return n;
  } catch (e) {
    file.destroy();
    await rm(tmp, { force: true });
    throw e;
  }
}

/** The file name a dataset is exported to (and that `ingest --dir` recognises). */
export const exportFileName = (ds: Dataset, opts: ExportOptions) => `${ds.name}.${opts.format ?? 'csv'}${opts.gzip ? '.gz' : ''}`;

/**
 * Exports `datasets` from one read snapshot: to `path` (or `stdout`, default the process's) for
 * one, into `dir` for several.
 */
export async function exportDatasets(
  store: Store,
  datasets: readonly Dataset[],
  dest: { path?: string | null; dir?: string; stdout?: NodeJS.WritableStream },
  opts: ExportOptions = {},
): Promise<ExportSummary[]> {
  if (dest.dir) {
    try {
      await mkdir(dest.dir, { recursive: true });
    } catch (e) {
      throw new IngestIOError(`${dest.dir}: ${(e as Error).message}`);
    }
  }
  return store.bulkTransaction(
    async (s) => {
      const ctx = await IngestContext.load(s);
      const out: ExportSummary[] = [];
      for (const ds of datasets) {
        const path = dest.dir ? join(dest.dir, exportFileName(ds, opts)) : (dest.path ?? null);
        out.push({ dataset: ds.name, rows: await toFile(s, ctx, ds, path, opts, dest.stdout ?? process.stdout), path });
      }
      return out;
    },
    { readOnly: true },
  );
}
