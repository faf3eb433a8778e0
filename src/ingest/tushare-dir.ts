/**
 * `mds ingest --tushare DIR` (docs/ingest.md, "A folder of Tushare exports"): the Tushare Pro
 * exports of DIR, each API's files loaded as the dataset its vendor layout makes (vendors/
 * tushare.ts), all in one ingest: one transaction, in the datasets' dependency order whatever
 * the files are called or listed. A file belongs to the API its name begins with (`daily.csv`,
 * `daily_20250403.csv`, `daily.csv.gz`; the longest name wins: `daily_basic_2025.csv` is
 * daily_basic), or to the API a subfolder is named after (`daily/20250403.csv`). An API's files
 * are read as one export, in name order (VendorOptions.parts), so daily_basic and suspend_d
 * compare days across them. Each file's encoding is its own (encoding-sniff.ts) unless the
 * command names one. stk_limit is read for the comparison with the service's limits, never
 * stored.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { dataset } from '../datasets/registry.js';
import type { Dataset } from '../datasets/dataset.js';
import type { IngestFile } from './load.js';
import { IngestIOError, type Encoding } from './source.js';
import { sniffEncoding } from './encoding-sniff.js';
import { layoutOf } from './vendors/index.js';
import type { FilePart } from './vendors/vendor.js';

/** The APIs loaded, and the dataset each loads (its tushare layout). */
export const TUSHARE_APIS: Readonly<Record<string, string>> = {
  trade_cal: 'trading_days',
  stock_basic: 'instruments',
  dividend: 'corporate_actions',
  adj_factor: 'adj_factors',
  daily: 'bars_1d',
  margin_detail: 'margin_trading',
  suspend_d: 'suspensions',
  daily_basic: 'share_capital',
  index_weight: 'index_weights',
};
/** Read and compared with the service's limits, not stored. */
export const STK_LIMIT = 'stk_limit';
/** APIs recognised but not loaded, and why. */
export const NOT_LOADED: Readonly<Record<string, string>> = {};

const NAMES = [...Object.keys(TUSHARE_APIS), STK_LIMIT, ...Object.keys(NOT_LOADED)].sort((a, b) => b.length - a.length);
const NAMED = new RegExp(`^(${NAMES.join('|')})(?:[._-][^/]*)?\\.csv(\\.gz)?$`);
const CSV = /\.csv(\.gz)?$/;

/** One API's files. */
export interface TushareApi {
  api: string;
  /** The dataset it loads; null for stk_limit and the APIs not loaded. */
  dataset: Dataset | null;
  parts: FilePart[];
  /** Files read in an encoding other than UTF-8 when the command named none (sniffed). */
  sniffed: string[];
}

/** A folder of Tushare exports planned as one ingest. */
export interface TushareDir {
  dir: string;
  /** One ingest file per API loaded (its files as parts). */
  files: IngestFile[];
  apis: TushareApi[];
  /** stk_limit's files (none: no comparison). */
  limits: FilePart[];
  /** What was found and not read, one line each. */
  skipped: string[];
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw new IngestIOError(`${dir}: ${(e as Error).message}`);
  }
}

/** The API of each export file of `dir` (and of its subfolders named by an API), in name order; what is not one goes to `skipped`. */
function exportsOf(dir: string, skipped: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (api: string, path: string) => found.set(api, [...(found.get(api) ?? []), path]);
  for (const name of list(dir)) {
    const p = join(dir, name);
    if (isDir(p)) {
      if (!NAMES.includes(name)) {
        skipped.push(`${p}/: a folder not named by an API this command reads`);
        continue;
      }
      for (const inner of list(p)) {
        const q = join(p, inner);
        if (!isDir(q) && CSV.test(inner)) add(name, q);
        else skipped.push(`${q}: not a .csv or .csv.gz file`);
      }
      continue;
    }
    const m = NAMED.exec(name);
    if (m) add(m[1], p);
    else skipped.push(`${p}: not named by an API this command reads (${NAMES.slice().sort().join(', ')})`);
  }
  return found;
}

/** Plans the load of the Tushare exports of `dir`; `encoding`: every file's, when the command names one (else each file's own). */
export async function tushareDir(dir: string, encoding?: Encoding): Promise<TushareDir> {
  if (!isDir(dir)) throw new IngestIOError(`${dir}: not a folder`);
  const skipped: string[] = [];
  const found = exportsOf(dir, skipped);
  const apis: TushareApi[] = [];
  const files: IngestFile[] = [];
  let limits: FilePart[] = [];
  for (const [api, paths] of found) {
    const why = NOT_LOADED[api];
    if (why !== undefined) {
      const n = paths.length;
      skipped.push(`${api}: ${n} file${n === 1 ? '' : 's'} found and skipped (${paths.map((p) => basename(p)).join(', ')}): ${why}`);
      continue;
    }
    const parts: FilePart[] = [];
    const sniffed: string[] = [];
    for (const path of paths) {
      const e = encoding ?? (await sniffEncoding(path));
      if (!encoding && e !== 'utf8') sniffed.push(`${basename(path)} ${e.toUpperCase()}`);
      parts.push({ path, encoding: e });
    }
    const name = TUSHARE_APIS[api];
    const d = name === undefined ? null : dataset(name)!;
    apis.push({ api, dataset: d, parts, sniffed });
    if (d === null) {
      limits = parts;
      continue;
    }
    const layout = layoutOf('tushare', d);
    if (Array.isArray(layout)) throw new Error(`no tushare layout for ${d.name}`);
    const one = parts.length === 1;
    files.push({
      path: one ? parts[0].path : join(dir, `${api} (${parts.length} files)`),
      dataset: d,
      encoding: parts[0].encoding,
      virtual: !one,
      vendor: { layout, parts },
    });
  }
  return { dir, files, apis, limits, skipped };
}
