/**
 * Tushare Pro `stk_limit` (每日涨跌停价格, https://tushare.pro/document/2?doc_id=183): trade_date,
 * ts_code, up_limit, down_limit and, when exported, pre_close: the exchanges' daily price limits
 * of every A share, B share and fund. Not a dataset: `mds ingest --tushare` reads it to compare
 * with the service's own limits after the load (query/limit-compare.ts) and stores none of it.
 * A row it cannot read is listed with the comparison, not an error of the load.
 */
import { dateInt, Bad, csvFile, shifted, ymd, type FilePart, type Get } from './vendor.js';
import { tsCode } from './tushare.js';
import type { ExchangeLimitRows } from '../../market/types.js';

/** The rows of a set of stk_limit files, by ts_code (columns: a whole market's year is about 50 bytes a row). */
export interface StkLimits {
  files: string[];
  byId: Map<string, ExchangeLimitRows>;
  rows: number;
  /** Rows not read, `file:line: why` (the first `max`), and how many. */
  problems: string[];
  problemCount: number;
}

/** A price of the file in 1/1000 CNY, exactly; -1 when empty. */
function price(get: Get, column: string): number {
  const v = get(column);
  if (v === '') return -1;
  const t = shifted(v, 3, 0);
  if (t === null || t.startsWith('-')) throw new Bad(column, `expected a price exact to 3 decimals, got ${JSON.stringify(v)}`);
  return Number(t);
}

/** Reads `parts` (stk_limit files, in order); `max`: rows not read listed. */
export async function readStkLimits(parts: FilePart[], max: number): Promise<StkLimits> {
  const out: StkLimits = { files: parts.map((p) => p.path), byId: new Map(), rows: 0, problems: [], problemCount: 0 };
  for (let f = 0; f < parts.length; f++) {
    const convert = (get: Get, line: number) => {
      const id = tsCode(get);
      const date = dateInt(ymd(get, 'trade_date'));
      const pre = price(get, 'pre_close'),
        up = price(get, 'up_limit'),
        down = price(get, 'down_limit');
      let r = out.byId.get(id);
      if (!r) out.byId.set(id, (r = { date: [], pre: [], up: [], down: [], file: [], line: [] }));
      r.date.push(date);
      r.pre.push(pre);
      r.up.push(up);
      r.down.push(down);
      r.file.push(f);
      r.line.push(line);
      out.rows++;
      return null;
    };
    for await (const batch of csvFile(parts[f], ['ts_code', 'trade_date', 'up_limit', 'down_limit'], convert)) {
      for (const rec of batch) {
        if (!rec.error) continue;
        if (out.problems.length < max) out.problems.push(`${parts[f].path}:${rec.line}: ${rec.error}`);
        out.problemCount++;
      }
    }
  }
  return out;
}
