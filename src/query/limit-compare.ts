/**
 * An exchange's daily price limits (Tushare's stk_limit, read by `mds ingest --tushare`) against
 * the service's own: the limits GET /equities/{id}/price-limits serves (EquityDays.limits, from
 * the snapshot given). A difference is a finding, never an error: the exchange's figure is the
 * one that was in force, so a difference says where the store or the service's rules differ
 * (a missing corporate action or ST period, a listing date, a rule).
 */
import type { Snapshot } from './snapshot.js';
import type { DayLimit } from '../market/day-limits.js';
import { securityOf } from '../market/codes.js';
import type { ExchangeLimitRows, MarketId } from '../market/types.js';

export interface ExchangeLimits {
  files: string[];
  byId: ReadonlyMap<string, ExchangeLimitRows>;
}

/** Pre-close and limits, 1/1000 CNY (null: none). */
export interface LimitFigures {
  pre: number | null;
  up: number | null;
  down: number | null;
}

export interface LimitDifference {
  id: string;
  date: number;
  board: string;
  /** The service's rule of the day (market/limits.ts reasons: main_board, st_main_board, new_listing_no_limit, …); '-' without a day. */
  rule: string;
  ratioPct: number | null;
  /** What differs: `pre_close`, `up_limit`, `down_limit` (joined by +), `no service limit`, `no exchange limit` or `no service day`. */
  what: string;
  exchange: LimitFigures;
  /** Null when the service has no day there (not a trading day of its calendar, before its first stored close, after its last bar). */
  service: LimitFigures | null;
  file: string;
  line: number;
}

export interface LimitComparison {
  /** Rows compared (of equities of the store). */
  compared: number;
  equal: number;
  differences: number;
  /** Differences by `board rule what`, in the order first met. */
  groups: Map<string, number>;
  /** The first differences, by instrument (in the files' order) and date. */
  examples: LimitDifference[];
  /** Rows not compared, by why (not an equity of the store): how many, of how many instruments, the first few ids. */
  notCompared: Map<string, { rows: number; instruments: number; ids: string[] }>;
}

const given = (v: number) => (v < 0 ? null : v);

/** Why the rows of `id` are not compared: it is no equity of the store. */
function notAnEquity(snap: Snapshot, id: string): string {
  const inst = snap.catalog.get(id);
  if (inst) return `${inst.kind === 'index' ? 'indices' : `${inst.kind}s`} of the store (the service computes the limits of equities only)`;
  const sec = securityOf(id.slice(0, 6), id.slice(7) as MarketId);
  if (sec.kind === 'equity') return 'equities the store does not hold';
  if (sec.kind === null) return `${sec.skip}, which the service does not serve`;
  return `${sec.kind === 'index' ? 'indices' : `${sec.kind}s`} the store does not hold (the service computes the limits of equities only)`;
}

/** What differs between the exchange's row and the service's day (null: nothing). */
function difference(ex: LimitFigures, d: DayLimit | undefined): string | null {
  if (!d) return 'no service day';
  if (ex.up === null && ex.down === null) return d.up === null ? null : 'no exchange limit';
  if (d.up === null) return 'no service limit';
  const what = [
    ex.pre !== null && ex.pre !== d.preClose ? 'pre_close' : '',
    ex.up !== null && ex.up !== d.up ? 'up_limit' : '',
    ex.down !== null && ex.down !== d.down ? 'down_limit' : '',
  ].filter(Boolean);
  return what.length ? what.join('+') : null;
}

/** Compares every row of `ex` with the service's limits as `snap` reads them; `examples`: differences kept. */
export async function compareLimits(snap: Snapshot, ex: ExchangeLimits, examples = 20): Promise<LimitComparison> {
  const out: LimitComparison = { compared: 0, equal: 0, differences: 0, groups: new Map(), examples: [], notCompared: new Map() };
  for (const [id, rows] of ex.byId) {
    const inst = snap.catalog.get(id);
    if (!inst || inst.kind !== 'equity') {
      const why = notAnEquity(snap, id);
      const n = out.notCompared.get(why) ?? { rows: 0, instruments: 0, ids: [] };
      n.rows += rows.date.length;
      n.instruments++;
      if (n.ids.length < 5) n.ids.push(id);
      out.notCompared.set(why, n);
      continue;
    }
    const order = rows.date.map((_, i) => i).sort((a, b) => rows.date[a] - rows.date[b]);
    const lo = rows.date[order[0]],
      hi = rows.date[order[order.length - 1]];
    const days = new Map((await snap.equityDays.limits(inst, lo, hi, null, Number.MAX_SAFE_INTEGER)).map((d) => [d.date, d]));
    for (const i of order) {
      out.compared++;
      const exchange = { pre: given(rows.pre[i]), up: given(rows.up[i]), down: given(rows.down[i]) };
      const d = days.get(rows.date[i]);
      const what = difference(exchange, d);
      if (what === null) {
        out.equal++;
        continue;
      }
      out.differences++;
      const rule = d?.reason ?? '-';
      const key = `${inst.board ?? '-'} ${rule} ${what}`;
      out.groups.set(key, (out.groups.get(key) ?? 0) + 1);
      if (out.examples.length < examples)
        out.examples.push({
          id,
          date: rows.date[i],
          board: inst.board ?? '-',
          rule,
          ratioPct: d?.ratioPct ?? null,
          what,
          exchange,
          service: d ? { pre: d.preClose, up: d.up, down: d.down } : null,
          file: ex.files[rows.file[i]],
          line: rows.line[i],
        });
    }
  }
  return out;
}
