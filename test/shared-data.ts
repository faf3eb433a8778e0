/**
 * Loads the whole of ../shared/data into a store exactly as docs/ingest.md's commands do
 * ("Vendor formats": one `mds ingest` command, one transaction, per line), through ingest().
 */
import { join } from 'node:path';
import type { Store } from '../src/store/types.js';
import { ingest, type IngestResult } from '../src/ingest/load.js';
import { dataset } from '../src/ingest/registry.js';
import { layoutOf } from '../src/ingest/vendors/index.js';
import { SHARED } from './helpers.js';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;

/** The documented commands: [dataset, format (null: canonical), files]. */
export const SHARED_COMMANDS: [string, string | null, string[]][] = [
  ['markets', null, [join(EXAMPLES, 'markets.csv')]],
  ['trading_days', 'akshare', ['calendar/akshare_trade_calendar.json']],
  ['trading_days', 'exchange-calendars', ['calendar/xshg_exchange_calendars.csv']],
  ['instruments', null, [join(EXAMPLES, 'shared-data/instruments.csv')]],
  ['corporate_actions', 'hikyuu', ['adjustments/hikyuu_stkweight_events_to_2011.csv']],
  ['bars_1d', 'hikyuu', ['ohlcv/hikyuu_sz000001_daily_raw_1991_2011.csv', 'ohlcv/hikyuu_sz000002_daily_raw_1991_2011.csv']],
  // Before TDX's index file: on the days both hold (all of czsc's), TDX's bars, with amounts, win.
  ['bars_1d', 'czsc', ['ohlcv/czsc_000001.SH_D.csv']],
  ['bars_1d', 'tdx-csv', ['ohlcv/tdx_sh000001_index_daily.csv', 'ohlcv/tdx_sh600000_daily_raw.csv', 'ohlcv/tdx_sz000001_daily_raw.csv']],
  ['bars_1d', 'stockstats', ['ohlcv/stockstats_002032_daily.csv']],
  ['bars_1m', 'tdx-csv', ['ohlcv/tdx_sh688001_1min.csv']],
  ['bars_1m', 'czsc', ['ohlcv/czsc_000001.XSHG_1MIN.csv']],
  ['adj_factors', 'sina', ['adjustments/sina_000002SZ_qfq_factor.csv']],
  ['adj_factors', 'sina', ['adjustments/sina_000002SZ_hfq_factor.csv']],
];

/** One ingest() per command (default: all of SHARED_COMMANDS), like the CLI; throws on the first command that fails. */
export async function loadSharedData(store: Store, commands = SHARED_COMMANDS): Promise<IngestResult[]> {
  const out: IngestResult[] = [];
  for (const [name, format, paths] of commands) {
    const d = dataset(name)!;
    const layout = format === null ? null : layoutOf(format, d);
    if (Array.isArray(layout)) throw new Error(`${format} does not load ${name}`);
    const r = await ingest(store, paths.map((p) => ({
      path: p.startsWith('/') ? p : join(SHARED, p), dataset: d, ...(layout ? { vendor: { layout } } : {}),
    })));
    if (!r.ok) throw new Error(`${name} ${format}: ${r.errors.join('\n')}`);
    out.push(r);
  }
  return out;
}
