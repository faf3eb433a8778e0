/**
 * Tushare Pro CSV exports (a DataFrame's `to_csv(index=False)`), by the dataset they load:
 * - `daily` → bars_1d: ts_code, trade_date YYYYMMDD, open, high, low, close, vol (lots of 100
 *   shares → shares), amount (thousands of CNY → CNY, by moving the decimal point: exact, or an
 *   error when finer than the fen); pre_close, change and pct_chg are not stored.
 *   https://tushare.pro/document/2?doc_id=27
 * - `adj_factor` → adj_factors: ts_code, trade_date, adj_factor (a backward ratio factor, as is).
 *   https://tushare.pro/document/2?doc_id=28
 * - `trade_cal` → trading_days: exchange (SSE, SZSE, BSE → SH, SZ, BJ), cal_date, is_open
 *   (0: closed, loaded as a closure when the dataset has is_open). Rows of other exchanges
 *   (futures) are skipped. https://tushare.pro/document/2?doc_id=26
 * - `stock_basic` → instruments: tushare-basic.ts.
 * - `dividend` → corporate_actions: only implemented rows (div_proc 实施; others are plans,
 *   skipped per div_proc); cash = cash_div_tax (pre-tax), bonus = stk_bo_rate, transfer =
 *   stk_co_rate, all per share; announce_date = imp_ann_date, else ann_date. Tushare's dividend
 *   data has no rights issues (配股). https://tushare.pro/document/2?doc_id=103
 * - `margin_detail` → margin_trading: ts_code, trade_date, rzye (financing balance), rzmre
 *   (bought), rzche (repaid), rqye (short balance), rqyl (short shares outstanding), rqmcl (sold
 *   short), rqchl (returned), rzrqye (total); money in CNY (a float's artifacts past the fen are
 *   rounded half-up and counted), shares whole. https://tushare.pro/document/2?doc_id=59
 */
import type { MarketId } from '../../market/types.js';
import { bar, Bad, dateInt, dec, decRounded, formatDate, lotsToShares, shifted, vendorCsv, ymd, type Get, type Layout } from './vendor.js';
import type { SourceRecord } from '../source.js';

/** The row's `ts_code` (`600000.SH`), or that of another code column, or a Bad naming the column. */
export function tsCode(get: Get, column = 'ts_code'): string {
  const v = get(column);
  const id = /^\d{6}\.(SH|SZ|BJ)$/.test(v) ? v : null;
  if (id === null) throw new Bad(column, `expected a Tushare code like 600000.SH, got ${JSON.stringify(v)}`);
  return id;
}

export const tushareDaily: Layout = {
  format: 'tushare',
  dataset: 'bars_1d',
  async *read(input) {
    yield* vendorCsv(input, ['ts_code', 'trade_date', 'open', 'high', 'low', 'close', 'vol', 'amount'], (get) => {
      const date = ymd(get, 'trade_date');
      return bar(
        input.report,
        date,
        { instrument_id: tsCode(get), trade_date: date },
        {
          open: dec(get, 'open', 3),
          high: dec(get, 'high', 3),
          low: dec(get, 'low', 3),
          close: dec(get, 'close', 3),
          volume: lotsToShares(get, 'vol'),
          amount: dec(get, 'amount', 2, 3, 'CNY'),
        },
      );
    });
  },
};

export const tushareAdjFactor: Layout = {
  format: 'tushare',
  dataset: 'adj_factors',
  async *read(input) {
    yield* vendorCsv(input, ['ts_code', 'trade_date', 'adj_factor'], (get) => ({
      instrument_id: tsCode(get),
      trade_date: ymd(get, 'trade_date'),
      adj_factor: dec(get, 'adj_factor', 16),
    }));
  },
};

const EXCHANGES: Record<string, string> = { SSE: 'SH', SZSE: 'SZ', BSE: 'BJ' };

export const tushareTradeCal: Layout = {
  format: 'tushare',
  dataset: 'trading_days',
  async *read(input) {
    const closures = 'is_open' in input.dataset.ix;
    if (!closures) input.report.note('trading_days has no is_open column: closed days (is_open 0) are skipped');
    yield* vendorCsv(input, ['exchange', 'cal_date', 'is_open'], (get): Record<string, string> | null => {
      const market = EXCHANGES[get('exchange')];
      if (market === undefined) {
        input.report.skip(`exchange ${get('exchange')} (not SSE, SZSE or BSE)`);
        return null;
      }
      if (input.markets && !input.markets.includes(market)) {
        input.report.skip(`market ${market} not in --market`);
        return null;
      }
      const open = get('is_open');
      if (open !== '0' && open !== '1') throw new Bad('is_open', `expected 0 or 1, got ${JSON.stringify(open)}`);
      const date = ymd(get, 'cal_date');
      if (open === '1') return closures ? { market, date, is_open: '1' } : { market, date };
      if (!closures) {
        input.report.skip('closed days (is_open 0)');
        return null;
      }
      return { market, date, is_open: '0' };
    });
  },
};

/** A per-share figure of the dividend export (empty: none). */
const perShare = (get: Get, column: string, scale: number) => (get(column) === '' ? '0' : dec(get, column, scale));

export const tushareDividend: Layout = {
  format: 'tushare',
  dataset: 'corporate_actions',
  async *read(input) {
    yield* vendorCsv(
      input,
      ['ts_code', 'ann_date', 'div_proc', 'stk_bo_rate', 'stk_co_rate', 'cash_div_tax', 'record_date', 'ex_date'],
      (get) => {
        const proc = get('div_proc');
        if (proc !== '实施') {
          input.report.skip(`div_proc ${proc || '(empty)'} (not implemented)`);
          return null;
        }
        const bonus = perShare(get, 'stk_bo_rate', 6),
          transfer = perShare(get, 'stk_co_rate', 6);
        const total = get('stk_div');
        if (total !== '' && shifted(total, 6, 0) !== String(Number(shifted(bonus, 6, 0)) + Number(shifted(transfer, 6, 0)))) {
          throw new Bad('stk_div', `expected stk_bo_rate + stk_co_rate (${bonus} + ${transfer}), got ${JSON.stringify(total)}`);
        }
        const announce = get('imp_ann_date') !== '' ? 'imp_ann_date' : 'ann_date';
        const out: Record<string, string> = {
          instrument_id: tsCode(get),
          ex_date: ymd(get, 'ex_date'),
          record_date: ymd(get, 'record_date'),
          announce_date: ymd(get, announce),
          cash_per_share: perShare(get, 'cash_div_tax', 5),
          bonus_per_share: bonus,
          transfer_per_share: transfer,
          rights_per_share: '0',
          rights_price: '0',
        };
        const pay = ymd(get, 'pay_date', true);
        if (pay) out.pay_date = pay;
        return out;
      },
    );
  },
};

export const tushareMarginDetail: Layout = {
  format: 'tushare',
  dataset: 'margin_trading',
  async *read(input) {
    const money: [string, string][] = [
      ['financing_balance', 'rzye'],
      ['financing_bought', 'rzmre'],
      ['financing_repaid', 'rzche'],
      ['short_balance', 'rqye'],
      ['total_balance', 'rzrqye'],
    ];
    const shares: [string, string][] = [
      ['short_shares', 'rqyl'],
      ['short_sold', 'rqmcl'],
      ['short_repaid', 'rqchl'],
    ];
    const need = ['ts_code', 'trade_date', ...money.map(([, c]) => c), ...shares.map(([, c]) => c)];
    yield* vendorCsv(input, need, (get) => {
      const date = ymd(get, 'trade_date');
      return {
        instrument_id: tsCode(get),
        trade_date: date,
        ...Object.fromEntries(money.map(([f, c]) => [f, decRounded(get, c, 2, input.report, date)])),
        ...Object.fromEntries(shares.map(([f, c]) => [f, dec(get, c, 0, 0, 'shares')])),
      };
    });
  },
};

/**
 * `daily_basic` → share_capital: ts_code, trade_date, total_share and float_share (10,000
 * shares, 万股): a change on each day a code's counts differ from its previous day in the file
 * (read whole, with all of an export's files when VendorOptions.parts, and ordered by date:
 * exports come newest first), the first day of each code included; reason other (the file says
 * what, not why); restricted = total − float; no announcement dates. Other columns (valuations: the service computes its own) are not stored.
 * https://tushare.pro/document/2?doc_id=32
 */
export const tushareDailyBasic: Layout = {
  format: 'tushare',
  dataset: 'share_capital',
  async *read(input) {
    const days: { line: number; file?: string; id: string; date: string; total: number; float: number }[] = [];
    for await (const batch of vendorCsv(input, ['ts_code', 'trade_date', 'total_share', 'float_share'], (get, line, file) => {
      days.push({
        line,
        file,
        id: tsCode(get),
        date: ymd(get, 'trade_date'),
        total: Number(dec(get, 'total_share', 0, 4, 'shares')),
        float: Number(dec(get, 'float_share', 0, 4, 'shares')),
      });
      return null;
    }))
      yield batch;
    days.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const out: SourceRecord[] = [];
    days.forEach((d, i) => {
      const p = days[i - 1];
      if (p && p.id === d.id && p.total === d.total && p.float === d.float) {
        input.report.skip('share capital unchanged since the previous day');
        return;
      }
      out.push({
        line: d.line,
        ...(d.file === undefined ? {} : { file: d.file }),
        object: {
          instrument_id: d.id,
          change_date: d.date,
          reason: 'other',
          total_shares: String(d.total),
          float_shares: String(d.float),
          restricted_shares: String(d.total - d.float),
        },
      });
    });
    if (out.length) yield out;
  },
};

/**
 * `suspend_d` → suspensions: ts_code, trade_date, suspend_timing, suspend_type (S a suspended
 * day, R the day trading resumed). The file (with all of an export's files when
 * VendorOptions.parts) is read whole: a code's S days without a timing that follow one another on
 * its market's calendar are one interval, ended by its last S day and resumed on the R day after
 * it (a run at the files' last day without one is still open); an S
 * day with a timing (`09:30-10:30`) is an intraday halt. An R day after no run is skipped.
 * https://tushare.pro/document/2?doc_id=214
 */
export const tushareSuspendD: Layout = {
  format: 'tushare',
  dataset: 'suspensions',
  async *read(input) {
    const days: { line: number; file?: string; id: string; date: string; timing: string; type: string }[] = [];
    for await (const batch of vendorCsv(input, ['ts_code', 'trade_date', 'suspend_timing', 'suspend_type'], (get, line, file) => {
      const type = get('suspend_type');
      if (type !== 'S' && type !== 'R') throw new Bad('suspend_type', `expected S (suspended) or R (resumed), got ${JSON.stringify(type)}`);
      const timing = get('suspend_timing');
      if (timing !== '' && !/^\d\d:\d\d-\d\d:\d\d$/.test(timing))
        throw new Bad('suspend_timing', `expected empty (the whole day) or HH:MM-HH:MM, got ${JSON.stringify(timing)}`);
      days.push({ line, file, id: tsCode(get), date: ymd(get, 'trade_date'), timing, type });
      return null;
    }))
      yield batch;
    days.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const last = days.reduce((m, d) => (d.date > m ? d.date : m), '');
    const out: SourceRecord[] = [];
    const row = (d: { line: number; file?: string }, o: Record<string, string>) =>
      out.push({ line: d.line, ...(d.file === undefined ? {} : { file: d.file }), object: o });
    for (let i = 0; i < days.length; i++) {
      const d = days[i];
      if (d.type === 'R') {
        input.report.skip('R (resumed) without a suspension before it in the file');
        continue;
      }
      if (d.timing) {
        const [from, to] = d.timing.split('-');
        row(d, { instrument_id: d.id, start_date: d.date, end_date: d.date, halt_from: from, halt_to: to });
        continue;
      }
      const market = d.id.slice(7);
      let j = i;
      const nextDay = (date: string) => {
        const n = input.ctx.calendar(market as MarketId).next(dateInt(date));
        return n === null ? null : formatDate(n);
      };
      while (
        j + 1 < days.length &&
        days[j + 1].id === d.id &&
        days[j + 1].type === 'S' &&
        !days[j + 1].timing &&
        days[j + 1].date === nextDay(days[j].date)
      )
        j++;
      const after = days[j + 1];
      const resumed = after && after.id === d.id && after.type === 'R' ? after : null;
      const open = resumed === null && days[j].date === last;
      row(d, {
        instrument_id: d.id,
        start_date: d.date,
        ...(open ? {} : { end_date: days[j].date }),
        ...(resumed ? { resume_date: resumed.date } : {}),
      });
      i = resumed ? j + 1 : j;
    }
    if (out.length) yield out;
  },
};
