/**
 * `mds ingest --tushare DIR` (docs/ingest.md, "A folder of Tushare exports"): what the command
 * says besides the ingest's own summary: the APIs found and the datasets they load, the files
 * skipped, and, when DIR has stk_limit, its comparison with the service's limits once the load
 * is committed (a difference is a finding: the exit code stays 0).
 */
import { basename } from 'node:path';
import { formatScaled, PRICE_SCALE } from '../lib/decimal.js';
import { formatDate } from '../lib/time.js';
import { orderOf } from '../datasets/registry.js';
import type { Store } from '../store/types.js';
import type { IngestResult } from '../ingest/load.js';
import type { Encoding } from '../ingest/source.js';
import { tushareDir, type TushareDir } from '../ingest/tushare-dir.js';
import { readStkLimits, type StkLimits } from '../ingest/vendors/tushare-limits.js';
import { openSnapshot, QueryCaches } from '../query/snapshot.js';
import { compareLimits, type LimitComparison, type LimitFigures } from '../query/limit-compare.js';

export interface TusharePlan {
  dir: TushareDir;
  /** stk_limit's rows, read before the load; null without stk_limit files. */
  limits: StkLimits | null;
}

/** Plans DIR and reads its stk_limit files (before the store is opened: a file that cannot be read is a usage error, exit 1). */
export async function planTushare(path: string, encoding: Encoding | undefined, maxListed: number): Promise<TusharePlan> {
  const dir = await tushareDir(path, encoding);
  const limits = dir.limits.length ? await readStkLimits(dir.limits, maxListed) : null;
  return { dir, limits };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line per API in load order (stk_limit last), then what was skipped. */
export function tushareLines(plan: TusharePlan): string[] {
  const apis = [...plan.dir.apis].sort((a, b) => (a.dataset ? orderOf(a.dataset) : Infinity) - (b.dataset ? orderOf(b.dataset) : Infinity));
  const lines = apis.map((a) => {
    const what = a.dataset ? `→ ${a.dataset.name}` : `compared with the service's price limits after the load, not stored`;
    const sniffed = a.sniffed.length ? ` (read as ${a.sniffed.join(', ')})` : '';
    return `tushare ${a.api}: ${plural(a.parts.length, 'file')} ${what}${sniffed}`;
  });
  return [...lines, ...plan.dir.skipped.map((s) => `tushare: skipped ${s}`)];
}

/** A price for the comparison: 2 decimals, 3 when the thousandth is not 0 (funds); `-` for none. */
const px = (v: number | null) => (v === null ? '-' : formatScaled(v, PRICE_SCALE, v % 10 === 0 ? 2 : 3));
const figures = (f: LimitFigures) => `pre_close ${px(f.pre)} up ${px(f.up)} down ${px(f.down)}`;

/** The comparison's lines: counts, differences by board, rule and what differs, the first examples, rows not compared. */
export function comparisonLines(limits: StkLimits, c: LimitComparison): string[] {
  const lines = [
    `stk_limit: ${plural(limits.rows, 'row')} of ${plural(limits.files.length, 'file')}; ${c.compared} compared with the service's ` +
      `limits (GET /equities/{id}/price-limits): ${c.equal} equal, ${plural(c.differences, 'difference')}`,
  ];
  for (const [key, n] of c.groups) lines.push(`stk_limit: ${n} × ${key}`);
  for (const d of c.examples) {
    const rule = d.rule === '-' ? '' : ` ${d.rule}${d.ratioPct === null ? '' : ` ${d.ratioPct}%`}`;
    const service = d.service ? figures(d.service) : 'no day';
    lines.push(
      `stk_limit: ${d.id} ${formatDate(d.date)} (${d.board}${rule}): ${d.what}: exchange ${figures(d.exchange)}; ` +
        `service ${service} (${basename(d.file)}:${d.line})`,
    );
  }
  if (c.differences > c.examples.length) lines.push(`stk_limit: … and ${c.differences - c.examples.length} more differences`);
  for (const [why, n] of c.notCompared)
    lines.push(
      `stk_limit: not compared: ${plural(n.rows, 'row')} of ${why} (${plural(n.instruments, 'instrument')}: ${n.ids.join(', ')}${n.instruments > n.ids.length ? ', …' : ''})`,
    );
  const more = limits.problemCount - limits.problems.length;
  for (const p of limits.problems) lines.push(`stk_limit: not read: ${p}`);
  if (more > 0) lines.push(`stk_limit: not read: … and ${more} more rows`);
  return lines;
}

/** After the ingest: the comparison of stk_limit with the limits of the store as committed (none after a failed or dry run). */
export async function compareAfterLoad(store: Store, plan: TusharePlan, r: IngestResult, examples: number): Promise<string[]> {
  const limits = plan.limits;
  if (limits === null) return [];
  if (!r.ok || r.dryRun)
    return [
      `stk_limit: ${plural(limits.rows, 'row')} read, not compared (${r.dryRun ? 'a dry run' : 'the load failed'}: nothing was loaded)`,
    ];
  const snap = await openSnapshot(store, new QueryCaches());
  try {
    return comparisonLines(limits, await compareLimits(snap, limits, examples));
  } finally {
    snap.release();
  }
}
