/**
 * The files of each Tushare API in test/tushare-exports.ts's folder, made from a demo store
 * (Source): the shapes, units and order of the vendor's exports.
 */
import { readFileSync } from 'node:fs';
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

export type Row = Record<string, string>;

/** The rows of a dataset of `store`, as `mds export` writes them. */
export async function exported(h: Harness, name: string): Promise<Row[]> {
  const dir = tmp('mds-tushare-src-');
  await exportDatasets(h.store, [dataset(name)!], { dir });
  const recs: CsvRecord[] = [];
  const p = new CsvParser();
  p.push(readFileSync(join(dir, `${name}.csv`), 'utf8'), recs);
  p.end(recs);
  const [head, ...rest] = recs.map((r) => r.fields);
  return rest.map((f) => Object.fromEntries(head.map((c, i) => [c, f[i]])));
}

export const ymd = (d: string) => d.replace(/-/g, '');
/** Exact decimal text × 10^shift (the tests' numbers are all exact). */
export const shift = (v: string, by: number) => shifted(v, by, 12)!;
const field = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
export const csv = (columns: readonly string[], rows: Row[]) =>
  [columns.join(','), ...rows.map((r) => columns.map((c) => field(r[c] ?? '')).join(','))].join('\n') + '\n';
/** Rows newest first, then by ts_code (the vendor's order). */
export const newestFirst = (rows: Row[], date = 'trade_date') =>
  rows.sort((a, b) => (a[date] !== b[date] ? (a[date] < b[date] ? 1 : -1) : a.ts_code < b.ts_code ? -1 : 1));

const BOARD_LABEL: Record<string, string> = { main: '主板', chinext: '创业板', star: '科创板', bse: '北交所' };
const EXCHANGE: Record<string, string> = { SH: 'SSE', SZ: 'SZSE', BJ: 'BSE' };

/** The changed stk_limit row: the exchange's up limit one fen above the service's. */
export const DIFFERENCE = { id: '600519.SH', date: '2025-11-20', by: '0.01' };
/** The suspension written into suspend_d (and taken out of daily and stk_limit). */
export const SUSPENDED = { id: '688111.SH', days: ['2025-11-17', '2025-11-18'], resumed: '2025-11-19' };

/** What the folder is made of: the source's equities, their bars (but the suspended days'), its trading days and price limits. */
export interface Source {
  h: Harness;
  equities: Row[];
  ids: string[];
  bars: Row[];
  days: string[];
  /** GET /price-limits of each equity, from 2025-07-01. */
  limits: Map<string, Row[]>;
}
/** File name → contents. */
export type Files = Record<string, string | Buffer>;

export const byPeriod = (rows: Row[], key: (r: Row) => string) => {
  const m = new Map<string, Row[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return m;
};

export function tradeCal({ days }: Source): Files {
  const open = new Set(days);
  const cal: Row[] = [];
  for (const ex of Object.values(EXCHANGE)) {
    let prev = '';
    for (let d = Number(ymd(days[0])); d <= 20251130; d = addDays(d, 1)) {
      const date = `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`;
      const isOpen = open.has(date) || (date > days[days.length - 1] && ![0, 6].includes(new Date(date).getUTCDay()));
      cal.push({ exchange: ex, cal_date: String(d), is_open: isOpen ? '1' : '0', pretrade_date: prev });
      if (isOpen) prev = String(d);
    }
  }
  return { 'trade_cal.csv': csv(['exchange', 'cal_date', 'is_open', 'pretrade_date'], newestFirst(cal, 'cal_date')) };
}

/** stock_basic, in GBK. */
export function stockBasic({ equities }: Source): Files {
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
  return { 'stock_basic.csv': gbkBytes(csv(STOCK_BASIC_COLUMNS, basic)) };
}

/** daily: per month to October, per date in November, the last gzipped; pre_close the ex-rights reference of the day. */
export function daily({ bars, days, limits }: Source): Files {
  const preClose = new Map([...limits].flatMap(([id, ls]) => ls.map((l) => [`${id}|${l.trade_date}`, l.pre_close as string | null])));
  const rows = bars.map((b) => {
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
  const last = ymd(days[days.length - 1]);
  const files: Files = {};
  for (const [period, part] of byPeriod(rows, (r) => (r.trade_date >= '20251101' ? r.trade_date : r.trade_date.slice(0, 6)))) {
    const text = csv(DAILY, newestFirst(part));
    if (period === last) files[`daily_${period}.csv.gz`] = gzipSync(text);
    else files[`daily_${period}.csv`] = text;
  }
  return files;
}

/** adj_factor: each trading day's backward factor (the source's, from its corporate actions; 1 before the first). */
export async function adjFactor({ h, ids, bars }: Source): Promise<Files> {
  const adj: Row[] = [];
  for (const id of ids) {
    const factors = await walk(h, `/api/v1/equities/${id}/adjustment-factors`, 500);
    for (const b of bars.filter((x) => x.instrument_id === id)) {
      const f = factors.filter((x) => x.trade_date <= b.trade_date).pop();
      adj.push({ ts_code: id, trade_date: ymd(b.trade_date), adj_factor: f ? f.backward_factor : '1' });
    }
  }
  return { 'adj_factor.csv': csv(['ts_code', 'trade_date', 'adj_factor'], newestFirst(adj)) };
}

/** dividend: the corporate actions as implemented (实施), and a plan (预案) of the next year. */
export async function dividend({ h }: Source): Promise<Files> {
  const rows: Row[] = (await exported(h, 'corporate_actions')).map((a) => ({
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
    imp_ann_date: ymd(a.announce_date),
  }));
  rows.push({
    ts_code: '600519.SH',
    end_date: '20251231',
    ann_date: '20251115',
    div_proc: '预案',
    stk_div: '0',
    cash_div: '21.5',
    cash_div_tax: '23.9',
  });
  const DIVIDEND = ['ts_code', 'end_date', 'ann_date', 'div_proc', 'stk_div', 'stk_bo_rate', 'stk_co_rate', 'cash_div', 'cash_div_tax'];
  return { 'dividend.csv': csv([...DIVIDEND, 'record_date', 'ex_date', 'pay_date', 'div_listdate', 'imp_ann_date'], rows) };
}

/** margin_detail, its name column in UTF-8. */
export async function marginDetail({ h, equities }: Source): Promise<Files> {
  const names = new Map(equities.map((e) => [e.instrument_id, e.name]));
  const rows = (await exported(h, 'margin_trading')).map((m) => ({
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
  const MARGIN = ['trade_date', 'ts_code', 'name', 'rzye', 'rqye', 'rzmre', 'rqyl', 'rzche', 'rqchl', 'rqmcl', 'rzrqye'];
  return { 'margin_detail.csv': csv(MARGIN, newestFirst(rows)) };
}

/** daily_basic of October and November, a file a month: the counts in force each trading day, in 万股. */
export async function dailyBasic({ h, bars }: Source): Promise<Files> {
  const capital = await exported(h, 'share_capital');
  const rows = bars
    .filter((b) => b.trade_date >= '2025-10-01')
    .map((b) => {
      const c = capital.filter((x) => x.instrument_id === b.instrument_id && x.change_date <= b.trade_date).pop();
      if (!c) throw new Error(`no share capital of ${b.instrument_id} on ${b.trade_date} in the source`);
      const [total, float] = [shift(c.total_shares, -4), shift(c.float_shares, -4)];
      return {
        ts_code: b.instrument_id,
        trade_date: ymd(b.trade_date),
        close: b.close,
        total_share: total,
        float_share: float,
        free_share: float,
      };
    });
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
  const files: Files = {};
  for (const [month, part] of byPeriod(rows, (r) => r.trade_date.slice(0, 6)))
    files[`daily_basic_${month}.csv`] = csv(BASIC, newestFirst(part));
  return files;
}

/** suspend_d, a file per date in a folder named by the API: the source's intraday halts and SUSPENDED. */
export async function suspendD({ h }: Source): Promise<Files> {
  const halts = (await exported(h, 'suspensions')).filter((s) => s.halt_from);
  const rows: Row[] = [
    ...halts.map((s) => ({
      ts_code: s.instrument_id,
      trade_date: ymd(s.start_date),
      suspend_timing: `${s.halt_from}-${s.halt_to}`,
      suspend_type: 'S',
    })),
    ...SUSPENDED.days.map((d) => ({ ts_code: SUSPENDED.id, trade_date: ymd(d), suspend_timing: '', suspend_type: 'S' })),
    { ts_code: SUSPENDED.id, trade_date: ymd(SUSPENDED.resumed), suspend_timing: '', suspend_type: 'R' },
  ];
  const files: Files = {};
  for (const [date, part] of byPeriod(rows, (r) => r.trade_date))
    files[`suspend_d/${date}.csv`] = csv(['ts_code', 'trade_date', 'suspend_timing', 'suspend_type'], part);
  return files;
}
