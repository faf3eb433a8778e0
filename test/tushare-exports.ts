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
 * - `index_weight_000300.csv` (no dataset yet: skipped) and a `README.txt` (not an export).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { walk, type Harness } from './helpers.js';
import { tmp } from './ingest-helpers.js';
import { gbkBytes, STOCK_BASIC_COLUMNS } from './tushare-fixtures.js';
import { exportDatasets } from '../src/ingest/export.js';
import { dataset } from '../src/datasets/registry.js';
import { CsvParser, type CsvRecord } from '../src/ingest/csv.js';
import { shifted } from '../src/ingest/vendors/vendor.js';
import { addDays } from '../src/lib/time.js';

type Row = Record<string, string>;

/** The rows of a dataset of `store`, as `mds export` writes them. */
async function exported(h: Harness, name: string): Promise<Row[]> {
  const dir = tmp('mds-tushare-src-');
  await exportDatasets(h.store, [dataset(name)!], { dir });
  const recs: CsvRecord[] = [];
  const p = new CsvParser();
  p.push(readFileSync(join(dir, `${name}.csv`), 'utf8'), recs);
  p.end(recs);
  const [head, ...rest] = recs.map((r) => r.fields);
  return rest.map((f) => Object.fromEntries(head.map((c, i) => [c, f[i]])));
}

const ymd = (d: string) => d.replace(/-/g, '');
/** Exact decimal text × 10^shift (the tests' numbers are all exact). */
const shift = (v: string, by: number) => shifted(v, by, 12)!;
const field = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const csv = (columns: readonly string[], rows: Row[]) =>
  [columns.join(','), ...rows.map((r) => columns.map((c) => field(r[c] ?? '')).join(','))].join('\n') + '\n';
/** Rows newest first, then by ts_code (the vendor's order). */
const newestFirst = (rows: Row[], date = 'trade_date') =>
  rows.sort((a, b) => (a[date] !== b[date] ? (a[date] < b[date] ? 1 : -1) : a.ts_code < b.ts_code ? -1 : 1));

const BOARD_LABEL: Record<string, string> = { main: '主板', chinext: '创业板', star: '科创板', bse: '北交所' };
const EXCHANGE: Record<string, string> = { SH: 'SSE', SZ: 'SZSE', BJ: 'BSE' };

/** The changed stk_limit row: the exchange's up limit one fen above the service's. */
export const DIFFERENCE = { id: '600519.SH', date: '2025-11-20', by: '0.01' };
/** The suspension written into suspend_d (and taken out of daily and stk_limit). */
export const SUSPENDED = { id: '688111.SH', days: ['2025-11-17', '2025-11-18'], resumed: '2025-11-19' };

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

/** Writes the folder of `source`'s equities into a new directory. */
export async function writeTushareFolder(source: Harness): Promise<TushareFolder> {
  const dir = tmp('mds-tushare-');
  const put = (name: string, text: string | Buffer) => {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  const equities = (await exported(source, 'instruments')).filter((r) => r.kind === 'equity');
  const ids = equities.map((e) => e.instrument_id);
  const suspended = (id: string, d: string) => id === SUSPENDED.id && d >= SUSPENDED.days[0] && d <= SUSPENDED.resumed;
  const bars = (await exported(source, 'bars_1d')).filter(
    (b) => ids.includes(b.instrument_id) && !(b.instrument_id === SUSPENDED.id && SUSPENDED.days.includes(b.trade_date)),
  );
  const days = [...new Set(bars.map((b) => b.trade_date))].sort();

  // trade_cal: every calendar day from the first trading day to November's end, open on the source's trading days (and weekdays after its last).
  const open = new Set(days);
  const cal: Row[] = [];
  for (const [market, ex] of Object.entries(EXCHANGE)) {
    let prev = '';
    for (let d = Number(ymd(days[0])); d <= 20251130; d = addDays(d, 1)) {
      const date = `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`;
      const isOpen = open.has(date) || (date > days[days.length - 1] && ![0, 6].includes(new Date(date).getUTCDay()));
      cal.push({ exchange: ex, cal_date: String(d), is_open: isOpen ? '1' : '0', pretrade_date: prev, market });
      if (isOpen) prev = String(d);
    }
  }
  put('trade_cal.csv', csv(['exchange', 'cal_date', 'is_open', 'pretrade_date'], newestFirst(cal, 'cal_date')));

  // stock_basic, in GBK.
  const basic = equities.map((e) => ({
    ts_code: e.instrument_id,
    symbol: e.instrument_id.slice(0, 6),
    name: e.name,
    fullname: `${e.name.replace(/^\*?ST/, '')}股份有限公司`,
    enname: e.name_en,
    market: BOARD_LABEL[e.board],
    exchange: EXCHANGE[e.instrument_id.slice(7)],
    curr_type: 'CNY',
    list_status: 'L',
    list_date: ymd(e.list_date),
    is_hs: 'N',
  }));
  put('stock_basic.csv', gbkBytes(csv(STOCK_BASIC_COLUMNS, basic)));

  // daily: per month to October, per date in November (the last gzipped).
  const limits = new Map<string, Row[]>();
  for (const id of ids) limits.set(id, await walk(source, `/api/v1/equities/${id}/price-limits?from=2025-07-01`, 500));
  const preClose = new Map(ids.flatMap((id) => limits.get(id)!.map((l) => [`${id}|${l.trade_date}`, l.pre_close as string | null])));
  const daily = bars.map((b) => {
    const pre = preClose.get(`${b.instrument_id}|${b.trade_date}`) ?? b.open;
    const change = shift(String(Math.round(Number(shift(b.close, 2)) - Number(shift(pre, 2)))), -2);
    return {
      ts_code: b.instrument_id,
      trade_date: ymd(b.trade_date),
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      pre_close: pre,
      change,
      pct_chg: ((Number(change) / Number(pre)) * 100).toFixed(4),
      vol: shift(b.volume, -2),
      amount: shift(b.amount, -3),
    };
  });
  const DAILY = ['ts_code', 'trade_date', 'open', 'high', 'low', 'close', 'pre_close', 'change', 'pct_chg', 'vol', 'amount'];
  const byPeriod = (rows: Row[], key: (r: Row) => string) => {
    const m = new Map<string, Row[]>();
    for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return m;
  };
  const last = ymd(days[days.length - 1]);
  for (const [period, rows] of byPeriod(daily, (r) => (r.trade_date >= '20251101' ? r.trade_date : r.trade_date.slice(0, 6)))) {
    const text = csv(DAILY, newestFirst(rows));
    if (period === last) put(`daily_${period}.csv.gz`, gzipSync(text));
    else put(`daily_${period}.csv`, text);
  }

  // adj_factor: each trading day's backward factor (the source's, from its corporate actions).
  const adj: Row[] = [];
  for (const id of ids) {
    const factors = await walk(source, `/api/v1/equities/${id}/adjustment-factors`, 500);
    for (const b of bars.filter((x) => x.instrument_id === id)) {
      const f = factors.filter((x) => x.trade_date <= b.trade_date).pop();
      adj.push({ ts_code: id, trade_date: ymd(b.trade_date), adj_factor: f ? f.backward_factor : '1' });
    }
  }
  put('adj_factor.csv', csv(['ts_code', 'trade_date', 'adj_factor'], newestFirst(adj)));

  // dividend: the corporate actions as implemented (实施), and a plan (预案) of the next year.
  const DIVIDEND = ['ts_code', 'end_date', 'ann_date', 'div_proc', 'stk_div', 'stk_bo_rate', 'stk_co_rate', 'cash_div', 'cash_div_tax'];
  const dividends: Row[] = (await exported(source, 'corporate_actions')).map((a) => ({
    ts_code: a.instrument_id,
    end_date: `${Number(a.ex_date.slice(0, 4)) - 1}1231`,
    ann_date: ymd(a.announce_date),
    div_proc: '实施',
    stk_div: shift(String(Number(shift(a.bonus_per_share, 6)) + Number(shift(a.transfer_per_share, 6))), -6),
    stk_bo_rate: a.bonus_per_share,
    stk_co_rate: a.transfer_per_share,
    cash_div: shift(String(Math.floor(Number(shift(a.cash_per_share, 5)) * 0.9)), -5),
    cash_div_tax: a.cash_per_share,
    record_date: ymd(a.record_date),
    ex_date: ymd(a.ex_date),
    pay_date: ymd(a.pay_date),
    div_listdate: '',
    imp_ann_date: ymd(a.announce_date),
  }));
  dividends.push({
    ts_code: '600519.SH',
    end_date: '20251231',
    ann_date: '20251115',
    div_proc: '预案',
    stk_div: '0',
    cash_div: '21.5',
    cash_div_tax: '23.9',
  });
  const DIVIDEND_ALL = [...DIVIDEND, 'record_date', 'ex_date', 'pay_date', 'div_listdate', 'imp_ann_date'];
  put('dividend.csv', csv(DIVIDEND_ALL, dividends));

  // margin_detail.
  const MARGIN = ['trade_date', 'ts_code', 'name', 'rzye', 'rqye', 'rzmre', 'rqyl', 'rzche', 'rqchl', 'rqmcl', 'rzrqye'];
  const names = new Map(equities.map((e) => [e.instrument_id, e.name]));
  const margin = (await exported(source, 'margin_trading')).map((m) => ({
    trade_date: ymd(m.trade_date),
    ts_code: m.instrument_id,
    name: names.get(m.instrument_id)!,
    rzye: m.financing_balance,
    rqye: m.short_balance,
    rzmre: m.financing_bought,
    rqyl: m.short_shares,
    rzche: m.financing_repaid,
    rqchl: m.short_repaid,
    rqmcl: m.short_sold,
    rzrqye: m.total_balance,
  }));
  put('margin_detail.csv', csv(MARGIN, newestFirst(margin)));

  // daily_basic of October and November: the counts in force each trading day, in 万股.
  const capital = await exported(source, 'share_capital');
  const BASIC = [
    'ts_code',
    'trade_date',
    'close',
    'turnover_rate',
    'pe',
    'pb',
    'total_share',
    'float_share',
    'free_share',
    'total_mv',
    'circ_mv',
  ];
  const basicDays = bars
    .filter((b) => b.trade_date >= '2025-10-01')
    .map((b) => {
      const c = capital.filter((x) => x.instrument_id === b.instrument_id && x.change_date <= b.trade_date).pop();
      if (!c) throw new Error(`no share capital of ${b.instrument_id} on ${b.trade_date} in the source`);
      return {
        ts_code: b.instrument_id,
        trade_date: ymd(b.trade_date),
        close: b.close,
        total_share: shift(c.total_shares, -4),
        float_share: shift(c.float_shares, -4),
        free_share: shift(c.float_shares, -4),
      };
    });
  for (const [month, rows] of byPeriod(basicDays, (r) => r.trade_date.slice(0, 6)))
    put(`daily_basic_${month}.csv`, csv(BASIC, newestFirst(rows)));

  // suspend_d, a file per date in a folder named by the API.
  const SUSPEND = ['ts_code', 'trade_date', 'suspend_timing', 'suspend_type'];
  const halts = (await exported(source, 'suspensions')).filter((s) => s.halt_from);
  const suspensions: Row[] = [
    ...halts.map((s) => ({
      ts_code: s.instrument_id,
      trade_date: ymd(s.start_date),
      suspend_timing: `${s.halt_from}-${s.halt_to}`,
      suspend_type: 'S',
    })),
    ...SUSPENDED.days.map((d) => ({ ts_code: SUSPENDED.id, trade_date: ymd(d), suspend_timing: '', suspend_type: 'S' })),
    { ts_code: SUSPENDED.id, trade_date: ymd(SUSPENDED.resumed), suspend_timing: '', suspend_type: 'R' },
  ];
  for (const [date, rows] of byPeriod(suspensions, (r) => r.trade_date)) put(`suspend_d/${date}.csv`, csv(SUSPEND, rows));

  // stk_limit per month: the source's limits, one changed; a B share and an ETF beside them.
  const LIMIT = ['trade_date', 'ts_code', 'pre_close', 'up_limit', 'down_limit'];
  const stk: Row[] = [];
  let difference: TushareFolder['difference'] | null = null;
  for (const id of ids)
    for (const l of limits.get(id)!) {
      if (l.limit_up === null || suspended(id, l.trade_date)) continue;
      let up = l.limit_up as string;
      if (id === DIFFERENCE.id && l.trade_date === DIFFERENCE.date) {
        up = shift(String(Number(shift(up, 2)) + Number(shift(DIFFERENCE.by, 2))), -2);
        difference = { pre: l.pre_close, exchangeUp: up, serviceUp: l.limit_up, down: l.limit_down, file: '', line: 0 };
      }
      stk.push({ trade_date: ymd(l.trade_date), ts_code: id, pre_close: l.pre_close, up_limit: up, down_limit: l.limit_down });
    }
  const compared = stk.length;
  stk.push(
    { trade_date: '20251120', ts_code: '900901.SH', pre_close: '0.352', up_limit: '0.387', down_limit: '0.317' },
    { trade_date: '20251120', ts_code: '510300.SH', pre_close: '4.567', up_limit: '5.024', down_limit: '4.110' },
  );
  for (const [month, rows] of byPeriod(stk, (r) => r.trade_date.slice(0, 6))) {
    const sorted = newestFirst(rows);
    const name = `stk_limit_${month}.csv`;
    put(name, csv(LIMIT, sorted));
    const i = sorted.findIndex((r) => r.ts_code === DIFFERENCE.id && r.trade_date === ymd(DIFFERENCE.date));
    if (i >= 0) Object.assign(difference!, { file: name, line: i + 2 });
  }

  put(
    'index_weight_000300.csv',
    csv(
      ['index_code', 'con_code', 'trade_date', 'weight'],
      [
        { index_code: '399300.SZ', con_code: '600519.SH', trade_date: '20251031', weight: '4.5132' },
        { index_code: '399300.SZ', con_code: '300750.SZ', trade_date: '20251031', weight: '3.2147' },
      ],
    ),
  );
  put('README.txt', 'Exported with tushare 1.4.21, pro_api, one call per API and day.\n');
  return { dir, equities: ids, limitRows: compared, difference: difference!, days };
}
