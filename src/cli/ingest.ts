/**
 * `mds ingest` and `mds export` (docs/ingest.md). Exit codes: 0 success; 1 usage or I/O error
 * (bad arguments, unknown dataset, missing or unreadable file, corrupt gzip); 2 validation
 * errors (nothing was changed); 3 store error (database unreachable or refusing the load;
 * nothing was changed).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Store } from '../store/types.js';
import { intAtLeast, type CliExit, type CliIO } from './io.js';
import { StoreOpenError } from './store.js';
import { DATASETS, dataset } from '../datasets/registry.js';
import { fileDataset, type Format } from '../ingest/registry.js';
import { ingest, IngestIOError, type IngestFile } from '../ingest/load.js';
import { errorLines, folderProgress, progressBar, summaryLines, warningLines } from '../ingest/report.js';
import { tdxFolder, tdxSummaryLines, type TdxFolder } from '../ingest/tdx-folder.js';
import { tdxUpdate } from '../ingest/tdx-update.js';
import { watchInstall } from './tdx-watch.js';
import { recordStates } from '../store/tables/tdx-files.js';
import { exportDatasets } from '../ingest/export.js';
import { ENCODINGS, formatOfName } from '../ingest/source.js';
import { layoutOf, VENDOR_FORMATS } from '../ingest/vendors/index.js';
import { compareAfterLoad, planTushare, tushareLines, type TusharePlan } from './tushare.js';

export const EXIT = { ok: 0, usage: 1, invalid: 2, store: 3 } as const;

type WithStore = <T>(url: string | undefined, fn: (s: Store) => Promise<T>) => Promise<T>;

class UsageError extends Error {}

const names = () => DATASETS.map((d) => d.name).join(', ');
const named = (name: string) => {
  const d = dataset(name);
  if (!d) throw new UsageError(`unknown dataset ${name}; datasets: ${names()}`);
  return d;
};
const int = intAtLeast(1);
const positiveSeconds = (v: string): number => {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v.trim()) || !(n > 0) || n > 3600)
    throw new InvalidArgumentError('expected seconds, more than 0 and at most 3600');
  return n;
};

/** Every dataset file in `dir` (`<dataset>.csv|ndjson|jsonl[.gz]`); other files are reported and skipped, folders ignored. */
function filesOfDir(dir: string, stderr: NodeJS.WritableStream): IngestFile[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (e) {
    throw new IngestIOError(`${dir}: ${(e as Error).message}`);
  }
  const files: IngestFile[] = [];
  for (const name of entries) {
    if (statSync(join(dir, name)).isDirectory()) continue;
    const m = fileDataset(name);
    if (m) files.push({ path: join(dir, name), dataset: m.dataset, format: m.format });
    else stderr.write(`mds ingest: skipping ${join(dir, name)} (not <dataset>.csv|ndjson|jsonl[.gz])\n`);
  }
  if (!files.length) throw new UsageError(`no dataset files in ${dir}; expected names like bars_1d.csv or quotes.ndjson.gz`);
  return files;
}

export function registerIngest(program: Command, withStore: WithStore, db: () => string | undefined, io: CliIO, exit: CliExit): void {
  /** Runs a command, mapping failures to the documented exit codes. */
  const guarded = async (fn: () => Promise<number>): Promise<void> => {
    try {
      exit.code = await fn();
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const usage = e instanceof UsageError || e instanceof IngestIOError;
      // A store that cannot be opened reads as from every command; a load it refused says so.
      const prefix = usage || e instanceof StoreOpenError ? '' : 'store error: ';
      io.stderr.write(`mds: ${prefix}${msg}${usage ? '' : ' (nothing was changed)'}\n`);
      exit.code = usage ? EXIT.usage : EXIT.store;
    }
  };

  program
    .command('ingest')
    .description('load dataset files (CSV or NDJSON, optionally gzip) in one transaction; see docs/ingest.md')
    .argument('[dataset]', `dataset name: ${names()}`)
    .argument('[files...]', 'files of that dataset')
    .option('--dir <dir>', 'load every <dataset>.csv|ndjson|jsonl[.gz] file of DIR, in dependency order')
    .option(
      '--tdx <path>',
      'load a Tongdaxin install (PATH holding vipdoc/ and T0002/) or its vipdoc folder: {sh,sz,bj}/lday/*.day and minline/*.lc1, ' +
        'creating the instruments the store does not know, named by T0002/hq_cache/*.tnf; T0002/hq_cache/gbbq as corporate actions ' +
        'and share capital; fzline/*.lc5 checked against the .lc1 bars (docs/ingest.md, "Whole market: a Tongdaxin install")',
    )
    .option(
      '--tushare <dir>',
      'load a folder of Tushare Pro exports named by their API (stock_basic, trade_cal, daily, adj_factor, daily_basic, ' +
        "suspend_d, dividend, margin_detail; stk_limit compared with the service's price limits) in dependency order " +
        '(docs/ingest.md, "A folder of Tushare exports")',
    )
    .option('--full', '--tdx: read every file whole, not only what is new since the last run (a correction the sizes do not show)')
    .option(
      '--watch',
      '--tdx: keep running, loading what the client writes to the install once it has settled (one transaction and data version a batch; ' +
        'one line a batch) until SIGINT or SIGTERM',
    )
    .option('--settle <seconds>', '--watch: seconds without a write to the install before a batch', positiveSeconds, 5)
    .option('--dry-run', 'validate only; write nothing')
    .addOption(
      new Option(
        '--format <format>',
        'file format (default: by extension, else by content), or a vendor layout (docs/ingest.md, "Vendor formats")',
      ).choices(['csv', 'ndjson', ...VENDOR_FORMATS]),
    )
    .addOption(
      new Option(
        '--encoding <encoding>',
        'text encoding of the files (GBK and GB18030 are usual for Chinese vendor files); ' +
          'a file not valid in it is refused at its first bad line (--tushare without it: each file its own, UTF-8 or GBK)',
      )
        .choices(ENCODINGS)
        .default('utf8'),
    )
    .option('--instrument <id>', 'vendor files: the instrument (CODE.MARKET) of files that do not name it (default: from the file name)')
    .option('--market <ids>', 'vendor calendars: the markets the days are for (default SH,SZ)', (v: string) =>
      v.split(',').map((m) => m.trim()),
    )
    .option('--max-errors <n>', 'errors listed before counting the rest', int, 20)
    .option('--no-progress', 'no progress bar even on a terminal')
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 usage or I/O error, 2 validation errors, 3 store error (nothing is changed unless 0).',
    )
    .action((name: string | undefined, paths: string[], o, cmd: Command) =>
      guarded(async () => {
        let files: IngestFile[];
        let folder: TdxFolder | null = null;
        let tushare: TusharePlan | null = null;
        if (o.tushare) {
          if (name || o.dir || o.tdx || o.format || o.instrument || o.market)
            throw new UsageError(
              '--tushare DIR loads the folder alone: no DATASET, FILE, --dir, --tdx, --format, --instrument or --market',
            );
          // --encoding, when given, is every file's; else each file's own (ingest/encoding-sniff.ts).
          tushare = await planTushare(o.tushare, cmd.getOptionValueSource('encoding') === 'cli' ? o.encoding : undefined, o.maxErrors);
          if (!tushare.dir.apis.length)
            throw new UsageError(
              `no Tushare exports in ${o.tushare}; expected files named by their API, like daily.csv or stock_basic.csv.gz`,
            );
          files = tushare.dir.files;
        } else if (o.tdx) {
          if (name || o.dir || o.format || o.instrument || o.market)
            throw new UsageError('--tdx PATH loads the install alone: no DATASET, FILE, --dir, --format, --instrument or --market');
          if (o.watch && o.dryRun) throw new UsageError('--watch loads what the client writes: not with --dry-run');
          folder = tdxFolder(o.tdx);
          files = folder.files;
        } else if (o.dir) {
          if (name) throw new UsageError('give either --dir DIR or DATASET FILE..., not both');
          if (o.instrument || o.market || VENDOR_FORMATS.includes(o.format))
            throw new UsageError('vendor files are loaded as DATASET FILE... --format VENDOR, not with --dir');
          files = filesOfDir(o.dir, io.stderr).map((f) => ({ ...f, encoding: o.encoding }));
        } else {
          if (!name || !paths.length)
            throw new UsageError(
              'usage: mds ingest DATASET FILE... | mds ingest --dir DIR | mds ingest --tdx PATH | mds ingest --tushare DIR',
            );
          const d = named(name);
          if (o.format && VENDOR_FORMATS.includes(o.format)) {
            const layout = layoutOf(o.format, d);
            if (Array.isArray(layout)) throw new UsageError(`--format ${o.format} loads ${layout.join(', ')}, not ${d.name}`);
            files = paths.map((path) => ({
              path,
              dataset: d,
              encoding: o.encoding,
              vendor: { layout, instrument: o.instrument, markets: o.market },
            }));
          } else {
            if (o.instrument || o.market) throw new UsageError('--instrument and --market go with a vendor --format');
            files = paths.map((path) => ({
              path,
              dataset: d,
              encoding: o.encoding,
              format: (o.format as Format | undefined) ?? formatOfName(path),
            }));
          }
        }
        if (o.watch && !folder) throw new UsageError('--watch goes with --tdx PATH');
        if (o.watch)
          return withStore(db(), async (store) => {
            await watchInstall(store, { path: o.tdx, full: !!o.full, settle: o.settle, maxErrors: o.maxErrors }, io);
            return EXIT.ok;
          });
        const tty = o.progress && io.stderr.isTTY;
        return withStore(db(), async (store) => {
          // Again: only what is new of each file (ingest/tdx-update.ts).
          const update = folder ? await tdxUpdate(store, folder, !!o.full) : null;
          if (update) files = update.files;
          const progress = !tty
            ? undefined
            : folder
              ? folderProgress(io.stderr as NodeJS.WriteStream, files.length, folder.bytes)
              : progressBar(io.stderr as NodeJS.WriteStream);
          const r = await ingest(store, files, {
            dryRun: o.dryRun,
            maxErrors: o.maxErrors,
            progress,
            beforeCommit: update ? (s) => recordStates(s, update.plan.states) : undefined,
            origin: update?.origin,
          });
          if (!r.ok)
            io.stderr.write(
              errorLines(r)
                .map((l) => l + '\n')
                .join(''),
            );
          // Parts of the install not read (an unknown layout) are warnings, not failures.
          io.stderr.write((folder?.warnings ?? []).map((w) => `warning: ${w}\n`).join(''));
          io.stderr.write(
            warningLines(r, o.maxErrors)
              .map((l) => l + '\n')
              .join(''),
          );
          // A folder's thousands of files are summed up by reason, not listed one by one.
          const vendor = folder
            ? [...update!.lines, ...tdxSummaryLines(folder, r)]
            : [
                ...(tushare ? tushareLines(tushare) : []),
                ...r.files.flatMap((f) => (f.vendor ?? []).map((l) => `${basename(f.path)}: ${l}`)),
              ];
          io.stdout.write([...vendor, ...summaryLines(r)].map((l) => l + '\n').join(''));
          // After the commit: stk_limit against the limits the service now serves.
          if (tushare) io.stdout.write((await compareAfterLoad(store, tushare, r, o.maxErrors)).map((l) => l + '\n').join(''));
          return r.ok ? EXIT.ok : EXIT.invalid;
        });
      }),
    );

  program
    .command('export')
    .description('write datasets in the format ingest reads (CSV by default); see docs/ingest.md')
    .argument('[dataset]', `dataset name: ${names()}`)
    .option('--out <file>', 'output file (default: stdout); .gz compresses, .ndjson selects NDJSON')
    .option('--all', 'every dataset, into --dir')
    .option('--dir <dir>', 'directory for --all (files <dataset>.csv, or .ndjson, plus .gz)')
    .addOption(new Option('--format <format>', 'csv (default) or ndjson').choices(['csv', 'ndjson']))
    .option('--gzip', 'gzip-compress')
    .action((name: string | undefined, o) =>
      guarded(async () => {
        if (o.all ? name || !o.dir || o.out : !name || o.dir) {
          throw new UsageError('usage: mds export DATASET [--out FILE] [--format csv|ndjson] [--gzip] | mds export --all --dir DIR');
        }
        const format: Format = o.format ?? (o.out ? formatOfName(o.out) : null) ?? 'csv';
        const gzip = !!o.gzip || (typeof o.out === 'string' && o.out.endsWith('.gz'));
        const list = o.all ? DATASETS : [named(name!)];
        // `mds export bars_1d | head`: a closed pipe ends the export quietly.
        if (io.stdout === process.stdout)
          process.stdout.on('error', (e: NodeJS.ErrnoException) => {
            if (e.code === 'EPIPE') process.exit(EXIT.ok);
          });
        return withStore(db(), async (store) => {
          const out = await exportDatasets(store, list, o.all ? { dir: o.dir } : { path: o.out ?? null, stdout: io.stdout }, {
            format,
            gzip,
          });
          if (o.out || o.all) for (const x of out) io.stderr.write(`${x.dataset}: ${x.rows} rows → ${x.path}\n`);
          return EXIT.ok;
        });
      }),
    );
}
