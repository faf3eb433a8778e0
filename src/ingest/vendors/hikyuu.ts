/**
 * Hikyuu (fasiondog/hikyuu): daily bars decoded from its HDF5 files and its 权息 table
 * (`stkWeight`), as in shared/data/ohlcv/README.md and shared/data/adjustments/README.md.
 *
 * - Daily bars `date,open,high,low,close,amount_10k_cny,volume_lots`: amount in 10,000 CNY,
 *   volume in lots of 100 shares. Hikyuu keeps suspended days as zero-volume rows (O=H=L=C=the
 *   previous close) and has quotes from before the listing date: neither is a bar, both are
 *   skipped and counted.
 * - Events `ts_code,date,bonus_shares_per10,rights_shares_per10,rights_price_cny,
 *   cash_dividend_per10_cny,transfer_shares_per10,…,has_price_event`: per-10 figures ÷ 10. Rows
 *   with has_price_event 0 (a share-capital change) or distributing nothing (a rights price
 *   without rights shares: a secondary offering) are skipped. The table has no record or
 *   announcement dates: both are set to the trading day before the ex-date (the A-share record
 *   date rule).
 */
import {
  bar,
  Bad,
  dateInt,
  dec,
  fileInstrument,
  formatDate,
  lotsToShares,
  normalId,
  per10,
  previousTradingDay,
  prices,
  PRICES,
  vendorCsv,
  type Layout,
} from './vendor.js';

export const hikyuuDaily: Layout = {
  format: 'hikyuu',
  dataset: 'bars_1d',
  async *read(input) {
    const id = fileInstrument(input);
    const listDate = input.ctx.known(id)?.listDate ?? null;
    const before = listDate === null ? '' : `before the list_date ${formatDate(listDate)} (pre-listing quotes)`;
    yield* vendorCsv(input, ['date', ...PRICES, 'amount_10k_cny', 'volume_lots'], (get) => {
      const date = get('date');
      if (listDate !== null && dateInt(date) < listDate) {
        input.report.skip(before);
        return null;
      }
      const volume = lotsToShares(get, 'volume_lots');
      if (volume === '0') {
        input.report.skip('zero volume (a suspended day: O=H=L=C=the previous close)');
        return null;
      }
      const p = prices(get);
      return bar(
        input.report,
        date,
        { instrument_id: id, trade_date: date },
        { ...p, volume, amount: dec(get, 'amount_10k_cny', 2, 4, 'CNY') },
      );
    });
  },
};

const PER10 = ['bonus_shares_per10', 'rights_shares_per10', 'cash_dividend_per10_cny', 'transfer_shares_per10'];

export const hikyuuEvents: Layout = {
  format: 'hikyuu',
  dataset: 'corporate_actions',
  async *read(input) {
    yield* vendorCsv(input, ['ts_code', 'date', ...PER10, 'rights_price_cny', 'has_price_event'], (get) => {
      if (get('has_price_event') === '0') {
        input.report.skip('has_price_event 0 (a share-capital change, no ex-rights event)');
        return null;
      }
      const id = normalId(get('ts_code'));
      if (id === null) throw new Bad('ts_code', `expected an id like 600000.SH, got ${JSON.stringify(get('ts_code'))}`);
      const [bonus, rights, cash, transfer] = [
        per10(get, PER10[0], 6),
        per10(get, PER10[1], 6),
        per10(get, PER10[2], 5),
        per10(get, PER10[3], 6),
      ];
      if ([bonus, rights, cash, transfer].every((v) => v === '0')) {
        input.report.skip('distributes nothing (e.g. a rights price without rights shares: a secondary offering)');
        return null;
      }
      const ex = get('date');
      const prev = previousTradingDay(input.ctx, id.slice(7), dateInt(ex));
      if (prev === null)
        throw new Bad('date', `no trading day of ${id.slice(7)} before the ex-date ${ex} in the calendar (load trading_days first)`);
      const record = formatDate(prev);
      return {
        instrument_id: id,
        ex_date: ex,
        record_date: record,
        announce_date: record,
        cash_per_share: cash,
        bonus_per_share: bonus,
        transfer_per_share: transfer,
        rights_per_share: rights,
        rights_price: rights === '0' ? '0' : dec(get, 'rights_price_cny', 3),
      };
    });
  },
};

/**
 * The same 权息 table as share capital: each row's counts after the event (`total_shares_10k`,
 * `float_shares_10k`, in 10,000 shares) where they differ from the code's previous row (a row
 * that changes neither, a cash dividend, is skipped and counted). Reason from the event: bonus,
 * transfer or rights shares; else a listing (the first row, on the instrument's list date), an
 * unlock (float up, total unchanged), a buyback (total down), or other. The table does not split
 * what is not float: restricted_shares is total − float. No announcement dates.
 */
export const hikyuuShareCapital: Layout = {
  format: 'hikyuu',
  dataset: 'share_capital',
  async *read(input) {
    const last = new Map<string, [total: number, float: number]>();
    yield* vendorCsv(input, ['ts_code', 'date', ...PER10, 'total_shares_10k', 'float_shares_10k'], (get) => {
      const id = normalId(get('ts_code'));
      if (id === null) throw new Bad('ts_code', `expected an id like 600000.SH, got ${JSON.stringify(get('ts_code'))}`);
      const total = Number(dec(get, 'total_shares_10k', 0, 4, 'shares')),
        float = Number(dec(get, 'float_shares_10k', 0, 4, 'shares'));
      const before = last.get(id);
      last.set(id, [total, float]);
      if (before && before[0] === total && before[1] === float) {
        input.report.skip('share capital unchanged (an event without new shares)');
        return null;
      }
      const date = get('date');
      const [bonus, rights, , transfer] = PER10.map((c) => Number(get(c) || '0'));
      const listed = input.ctx.known(id)?.listDate;
      const reason =
        bonus > 0
          ? 'bonus'
          : transfer > 0
            ? 'transfer'
            : rights > 0
              ? 'rights'
              : !before && listed !== undefined && listed !== null && formatDate(listed) === date
                ? 'ipo'
                : before && total === before[0] && float > before[1]
                  ? 'unlock'
                  : before && total < before[0]
                    ? 'buyback'
                    : 'other';
      return {
        instrument_id: id,
        change_date: date,
        reason,
        total_shares: String(total),
        float_shares: String(float),
        restricted_shares: String(total - float),
      };
    });
  },
};
