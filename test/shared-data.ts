/**
 * Loads the whole of ../shared/data into a store exactly as docs/ingest.md's commands do
 * ("Vendor formats": one `mds ingest` command, one transaction, per line), through ingest().
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../src/store/types.js';
import { ingest, type IngestResult } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import { layoutOf } from '../src/ingest/vendors/index.js';
import { SHARED } from './helpers.js';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;

/** The TDX `.day` binaries of ../shared/data (ohlcv/README.md, "Added 2026-11-25"). */
export const TDX_DAY_FILES = ['ohlcv/tdx_day/sh600519.day', 'ohlcv/tdx_day/sh000300.day', 'ohlcv/tdx_day/sz000001.day'] as const;

/** A `.day` file's records as the layout documents them (32-byte LE records), decoded here independently of src/. */
export function tdxDayRecords(
  file: string,
): { date: string; open: number; high: number; low: number; close: number; amount: number; volume: number }[] {
  const b = readFileSync(join(SHARED, file));
  if (b.length % 32 !== 0) throw new Error(`${file}: ${b.length} bytes is not whole 32-byte records`);
  const out = [];
  for (let at = 0; at < b.length; at += 32) {
    const d = String(b.readUInt32LE(at));
    out.push({
      date: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`,
      open: b.readUInt32LE(at + 4),
      high: b.readUInt32LE(at + 8),
      low: b.readUInt32LE(at + 12),
      close: b.readUInt32LE(at + 16),
      amount: b.readFloatLE(at + 20),
      volume: b.readUInt32LE(at + 24),
    });
  }
  return out;
}

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
  [
    'bars_1d',
    'tdx-csv',
    [
      'ohlcv/tdx_sh000001_index_daily.csv',
      'ohlcv/tdx_sh600000_daily_raw.csv',
      'ohlcv/tdx_sz000001_daily_raw.csv',
      'ohlcv/tdx_sh600519_daily_raw_2015_2023.csv',
      'ohlcv/tdx_sh000300_index_daily_2015_2023.csv',
    ],
  ],
  // The vendor's own binaries: the first two are the 2015–2023 CSVs above decoded (their load
  // changes nothing); sz000001.day equals the mootdx CSV to 2021-05-14 and goes on to 2023-02-24.
  ['bars_1d', 'tdx-day', [...TDX_DAY_FILES]],
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
    const r = await ingest(
      store,
      paths.map((p) => ({
        path: p.startsWith('/') ? p : join(SHARED, p),
        dataset: d,
        ...(layout ? { vendor: { layout } } : {}),
      })),
    );
    if (!r.ok) throw new Error(`${name} ${format}: ${r.errors.join('\n')}`);
    out.push(r);
  }
  return out;
}
