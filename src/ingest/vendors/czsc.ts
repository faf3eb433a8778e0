/**
 * czsc (waditu/czsc) test data: `symbol,dt,open,close,high,low,vol` (note the O, C, H, L order),
 * daily (`dt` the date + ` 15:00:00`, `vol` in lots) and 1-minute (`dt` the bar's end,
 * `vol` in shares). `symbol` names the instrument (`000001.SH`, `000001.XSHG`). Neither file has
 * an amount (turnover) column: the bars load with their amount unknown (an empty amount, stored
 * as UNKNOWN_AMOUNT and served as null; store/schema.ts), never an invented one.
 */
import { Bad, bar, dec, lotsToShares, normalId, prices, vendorCsv, type Get, type Layout } from './vendor.js';

const COLUMNS = ['symbol', 'dt', 'open', 'close', 'high', 'low', 'vol'];

/** The instrument of a row's `symbol`. */
function symbol(get: Get): string {
  const id = normalId(get('symbol'));
  if (id === null) throw new Bad('symbol', `expected an instrument such as 000001.SH or 000001.XSHG, got ${JSON.stringify(get('symbol'))}`);
  return id;
}

export const czscDaily: Layout = {
  format: 'czsc',
  dataset: 'bars_1d',
  async *read(input) {
    yield* vendorCsv(input, COLUMNS, (get) => {
      const m = /^(\d{4}-\d{2}-\d{2})(?: 15:00:00)?$/.exec(get('dt'));
      if (!m) throw new Bad('dt', `expected a date YYYY-MM-DD 15:00:00, got ${JSON.stringify(get('dt'))}`);
      return bar(
        input.report,
        m[1],
        { instrument_id: symbol(get), trade_date: m[1] },
        { ...prices(get), volume: lotsToShares(get, 'vol'), amount: '' },
      );
    });
  },
};

export const czscMinute: Layout = {
  format: 'czsc',
  dataset: 'bars_1m',
  async *read(input) {
    yield* vendorCsv(input, COLUMNS, (get) => {
      const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}):00$/.exec(get('dt'));
      if (!m) throw new Bad('dt', `expected the bar's end YYYY-MM-DD HH:MM:00, got ${JSON.stringify(get('dt'))}`);
      return bar(
        input.report,
        `${m[1]} ${m[2]}`,
        { instrument_id: symbol(get), timestamp: `${m[1]}T${m[2]}:00+08:00` },
        { ...prices(get), volume: dec(get, 'vol', 0), amount: '' },
      );
    });
  },
};
