/**
 * Tushare Pro `index_weight` → index_weights: index_code, con_code (the member), trade_date
 * (the weight date, YYYYMMDD), weight (percent of the index, as published: 2 to 5 decimals).
 * Tushare names an index by its own code (the CSI 300 is 399300.SZ there, 000300.SH at the
 * exchange): the index must be known to the store under the code the file uses.
 * https://tushare.pro/document/2?doc_id=96
 */
import { dec, vendorCsv, ymd, type Layout } from './vendor.js';
import { tsCode } from './tushare.js';

export const tushareIndexWeight: Layout = {
  format: 'tushare',
  dataset: 'index_weights',
  async *read(input) {
    yield* vendorCsv(input, ['index_code', 'con_code', 'trade_date', 'weight'], (get) => ({
      index_id: tsCode(get, 'index_code'),
      instrument_id: tsCode(get, 'con_code'),
      trade_date: ymd(get, 'trade_date'),
      weight: dec(get, 'weight', 6),
    }));
  },
};
