/**
 * A folder of Tushare Pro exports made by the tests from a demo store, shaped as the vendor's APIs
 * write them (`to_csv(index=False)` of each API's DataFrame, columns in the documented order,
 * codes YYYYMMDD dates, `vol` in lots, `amount` in thousands of CNY, share counts in 万股), for
 * `mds ingest --tushare`: what a Tushare user's export script leaves, several files per API.
 *
 * - `trade_cal.csv` (SSE, SZSE, BSE; newest first), `stock_basic.csv` **in GBK**, `dividend.csv`
 *   (implemented rows and one plan), `adj_factor.csv` (a factor per trading day), `margin_detail.csv`;
 * - `daily_2025MM.csv` per month to October, then `daily_202511DD.csv` per date, the last
 *   **gzipped** (`daily_20251120.csv.gz`);
 * - `daily_basic_202510.csv`, `daily_basic_202511.csv` (counts per trading day);
 * - `suspend_d/YYYYMMDD.csv` (a folder named by the API, a file per date): the demo's intraday
 *   halt, and a suspension of 688111.SH on 2025-11-17 and 11-18, resumed on 11-19, over three
 *   files (its bars of those two days are left out of `daily`, as a suspended stock has none);
 * - `stk_limit_2025MM.csv` per month: the source store's own price limits (GET /price-limits)
 *   of every equity and day with a limit, **one changed** (DIFFERENCE), a B share and an ETF
 *   (which the service does not compare), and none of 688111.SH on the days of its suspension
 *   (the exchange's base for them is the close before the suspension, which the demo, whose bar
 *   those days exist, does not have);
 * - a `README.txt` (not an export).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walk, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';
import {
  adjFactor,
  byPeriod,
  csv,
  daily,
  dailyBasic,
  DIFFERENCE,
  dividend,
  exported,
  marginDetail,
  newestFirst,
  shift,
  stockBasic,
  suspendD,
  SUSPENDED,
  tradeCal,
  ymd,
  type Files,
  type Row,
  type Source,
} from './tushare-export-files.js';

export { DIFFERENCE, SUSPENDED };

export interface TushareFolder {
  dir: string;
  equities: string[];
  /** stk_limit rows written: of the store's equities, and the two it does not compare. */
  limitRows: number;
  /** The changed row as written and as the service has it, and its file and line. */
  difference: { pre: string; exchangeUp: string; serviceUp: string; down: string; file: string; line: number };
  /** Trading days written (the source's, every market). */
  days: string[];
}

async function readSource(h: Harness): Promise<Source> {
  const equities = (await exported(h, 'instruments')).filter((r) => r.kind === 'equity');
  const ids = equities.map((e) => e.instrument_id);
  const bars = (await exported(h, 'bars_1d')).filter(
    (b) => ids.includes(b.instrument_id) && !(b.instrument_id === SUSPENDED.id && SUSPENDED.days.includes(b.trade_date)),
  );
  const limits = new Map<string, Row[]>();
  for (const id of ids) limits.set(id, await walk(h, `/api/v1/equities/${id}/price-limits?from=2025-07-01`, 500));
  return { h, equities, ids, bars, days: [...new Set(bars.map((b) => b.trade_date))].sort(), limits };
}

/** trade_cal: every calendar day from the first trading day to November's end, open on the source's trading days (and weekdays after its last). */
/** stk_limit per month: the source's limits (but SUSPENDED's days), DIFFERENCE changed; a B share and an ETF beside them. */
function stkLimit({ ids, limits }: Source): { files: Files; compared: number; difference: TushareFolder['difference'] } {
  const rows: Row[] = [];
  let difference: TushareFolder['difference'] | null = null;
  for (const id of ids)
    for (const l of limits.get(id)!) {
      if (l.limit_up === null || (id === SUSPENDED.id && l.trade_date >= SUSPENDED.days[0] && l.trade_date <= SUSPENDED.resumed)) continue;
      let up = l.limit_up as string;
      if (id === DIFFERENCE.id && l.trade_date === DIFFERENCE.date) {
        up = shift(String(Number(shift(up, 2)) + Number(shift(DIFFERENCE.by, 2))), -2);
        difference = { pre: l.pre_close, exchangeUp: up, serviceUp: l.limit_up, down: l.limit_down, file: '', line: 0 };
      }
      rows.push({ trade_date: ymd(l.trade_date), ts_code: id, pre_close: l.pre_close, up_limit: up, down_limit: l.limit_down });
    }
  const compared = rows.length;
  rows.push(
    { trade_date: '20251120', ts_code: '900901.SH', pre_close: '0.352', up_limit: '0.387', down_limit: '0.317' },
    { trade_date: '20251120', ts_code: '510300.SH', pre_close: '4.567', up_limit: '5.024', down_limit: '4.110' },
  );
  const files: Files = {};
  for (const [month, part] of byPeriod(rows, (r) => r.trade_date.slice(0, 6))) {
    const sorted = newestFirst(part);
    const name = `stk_limit_${month}.csv`;
    files[name] = csv(['trade_date', 'ts_code', 'pre_close', 'up_limit', 'down_limit'], sorted);
    const i = sorted.findIndex((r) => r.ts_code === DIFFERENCE.id && r.trade_date === ymd(DIFFERENCE.date));
    if (i >= 0) Object.assign(difference!, { file: name, line: i + 2 });
  }
  return { files, compared, difference: difference! };
}

/** Writes the folder of `source`'s equities into a new directory. */
export async function writeTushareFolder(source: Harness): Promise<TushareFolder> {
  const dir = tmp('mds-tushare-');
  const s = await readSource(source);
  const limits = stkLimit(s);
  const files: Files = {
    ...tradeCal(s),
    ...stockBasic(s),
    ...daily(s),
    ...(await adjFactor(s)),
    ...(await dividend(s)),
    ...(await marginDetail(s)),
    ...(await dailyBasic(s)),
    ...(await suspendD(s)),
    ...limits.files,
    'README.txt': 'Exported with tushare 1.4.21, pro_api, one call per API and day.\n',
  };
  for (const [name, contents] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), contents);
  }
  return { dir, equities: s.ids, limitRows: limits.compared, difference: limits.difference, days: s.days };
}
