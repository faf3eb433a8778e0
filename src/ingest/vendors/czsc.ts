/**
 * czsc (waditu/czsc) test data: `symbol,dt,open,close,high,low,vol`, daily (`vol` in lots) and
 * 1-minute (`dt` the bar's end, `vol` in shares). Neither has an amount (turnover) column, and
 * bars_1d and bars_1m require one: inventing it (e.g. volume × close) would serve a number no
 * vendor published. So both are refused with one error naming the missing column; what storing
 * bars without an amount would take is written down in docs/ingest.md ("Vendor formats").
 */
import { Bad, vendorCsv, type Layout } from './vendor.js';

const COLUMNS = ['symbol', 'dt', 'open', 'close', 'high', 'low', 'vol'];

function layout(dataset: string): Layout {
  const why = `the file has no amount column (${COLUMNS.join(',')}) and ${dataset} requires the turnover in CNY; `
    + 'nothing of it is loaded (an amount is never invented)';
  return {
    format: 'czsc', dataset,
    async* read(input) {
      // The header is checked (another layout gets its own message); the first row then fails.
      for await (const batch of vendorCsv(input, COLUMNS, () => { throw new Bad('amount', why); })) {
        yield batch.slice(0, 1);
        return;
      }
    },
  };
}

export const czscDaily = layout('bars_1d');
export const czscMinute = layout('bars_1m');
