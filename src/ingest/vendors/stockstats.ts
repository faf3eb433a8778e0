/**
 * stockstats (jealous/stockstats) test data: `date,amount,close,high,low,open,volume` with date
 * YYYYMMDD, amount in CNY, volume in shares, prices unadjusted (shared/data/ohlcv/README.md).
 * Amounts are float32 values printed in full (1446880.625): those finer than the fen are rounded
 * half-up to it, counted in the report. The file does not name its market: `--instrument`, or
 * the file name's code when exactly one known instrument has it.
 */
import { bar, dec, decRounded, fileInstrument, vendorCsv, ymd, type Layout } from './vendor.js';

export const stockstatsDaily: Layout = {
  format: 'stockstats',
  dataset: 'bars_1d',
  async *read(input) {
    const id = fileInstrument(input);
    yield* vendorCsv(input, ['date', 'amount', 'close', 'high', 'low', 'open', 'volume'], (get) => {
      const date = ymd(get, 'date');
      return bar(
        input.report,
        date,
        { instrument_id: id, trade_date: date },
        {
          open: dec(get, 'open', 3),
          high: dec(get, 'high', 3),
          low: dec(get, 'low', 3),
          close: dec(get, 'close', 3),
          volume: dec(get, 'volume', 0),
          amount: decRounded(get, 'amount', 2, input.report, date),
        },
      );
    });
  },
};
