/** What `mds ingest` tells the operator: a progress bar on a terminal, one line per dataset, errors. */
import cliProgress from 'cli-progress';
import { basename } from 'node:path';
import type { IngestResult, Progress } from './load.js';

const rate = (rows: number, seconds: number) => (seconds > 0 ? Math.round(rows / seconds) : rows);

/** A cli-progress bar per file on `stream` (bytes read as the measure; rows and rows/s shown). */
export function progressBar(stream: NodeJS.WriteStream): Progress {
  let bar: cliProgress.SingleBar | null = null;
  let started = 0;
  return {
    start(file, dataset, bytes) {
      started = Date.now();
      bar = new cliProgress.SingleBar(
        {
          stream,
          hideCursor: true,
          clearOnComplete: false,
          etaBuffer: 50,
          format: '{label} [{bar}] {percentage}% | {rows} rows | {speed} rows/s | ETA {eta_formatted}',
        },
        cliProgress.Presets.shades_classic,
      );
      const name = basename(file);
      bar.start(Math.max(bytes, 1), 0, { label: name.startsWith(`${dataset}.`) ? name : `${dataset} ${name}`, rows: 0, speed: 0 });
    },
    update(rows, bytes) {
      bar?.update(bytes, { rows, speed: rate(rows, (Date.now() - started) / 1000) });
    },
    finish(s) {
      bar?.update(bar.getTotal(), { rows: s.rows, speed: rate(s.rows, s.seconds) });
      bar?.stop();
      bar = null;
    },
  };
}

/**
 * One cli-progress bar for a whole folder of `files` files of `bytes` bytes (`mds ingest --tdx`):
 * files done of total, rows, rows/s and the time left (by bytes read).
 */
export function folderProgress(stream: NodeJS.WriteStream, files: number, bytes: number): Progress {
  const started = Date.now();
  let doneFiles = 0,
    doneRows = 0,
    doneBytes = 0,
    fileBytes = 0;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 200,
      format: '[{bar}] {percentage}% | {done}/{files} files | {rows} rows | {speed} rows/s | ETA {eta_formatted}',
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(bytes, 1), 0, { done: 0, files, rows: 0, speed: 0 });
  const show = (rows: number, read: number) => {
    bar.update(Math.min(doneBytes + read, bytes), {
      done: doneFiles,
      files,
      rows: doneRows + rows,
      speed: rate(doneRows + rows, (Date.now() - started) / 1000),
    });
  };
  return {
    start(_file, _dataset, size) {
      fileBytes = size;
    },
    update(rows, read) {
      show(rows, read);
    },
    finish(s) {
      doneFiles++;
      doneRows += s.rows;
      doneBytes += fileBytes;
      fileBytes = 0;
      show(0, 0);
      if (doneFiles >= files) bar.stop();
    },
  };
}

/** One line per dataset, then the outcome. */
export function summaryLines(r: IngestResult): string[] {
  const lines = r.datasets.map(
    (d) =>
      `${d.dataset}: ${d.rows} rows from ${d.files} file${d.files === 1 ? '' : 's'}` +
      (r.dryRun || !r.ok ? (r.ok ? ', valid' : '') : `: ${d.inserted} inserted, ${d.updated} updated, ${d.unchanged} unchanged`),
  );
  const d = r.derived;
  if (r.ok && !r.dryRun && d.inserted + d.updated + d.unchanged > 0) {
    lines.push(`bars_1d derived from bars_1m: ${d.inserted} inserted, ${d.updated} updated, ${d.unchanged} unchanged`);
  }
  if (r.warnings.length) {
    lines.push(
      `${r.warnings.length} daily bar${r.warnings.length === 1 ? '' : 's'} outside their day's price limits, loaded all the same (warnings on stderr)`,
    );
  }
  const rows = r.datasets.reduce((n, d) => n + d.rows, 0);
  const speed = `${rows} rows in ${r.seconds.toFixed(1)} s (${rate(rows, r.seconds)} rows/s)`;
  if (!r.ok) lines.push(`failed: ${r.errorCount} error${r.errorCount === 1 ? '' : 's'}; nothing was changed`);
  else if (r.dryRun) lines.push(`dry run: ${speed} validated; nothing was written`);
  else if (r.dataVersion === null) lines.push(`no changes: ${speed}`);
  else lines.push(`committed: ${speed}; data version ${r.dataVersion}`);
  return lines;
}

/** The listed errors, and how many more there were. */
export function errorLines(r: IngestResult): string[] {
  const more = r.errorCount - r.errors.length;
  return [...r.errors, ...(more > 0 ? [`… and ${more} more error${more === 1 ? '' : 's'}`] : [])];
}

/** The first `max` warnings, prefixed `warning: `, and how many more there were. */
export function warningLines(r: IngestResult, max: number): string[] {
  const more = r.warnings.length - max;
  return [
    ...r.warnings.slice(0, max).map((w) => `warning: ${w}`),
    ...(more > 0 ? [`warning: … and ${more} more bar${more === 1 ? '' : 's'} outside their price limits`] : []),
  ];
}
