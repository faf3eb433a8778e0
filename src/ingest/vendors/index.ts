/** The vendor layouts `mds ingest --format` reads, by format name and dataset (docs/ingest.md, "Vendor formats"). */
import type { Dataset } from '../../datasets/dataset.js';
import { akshareCalendar, exchangeCalendars } from './calendars.js';
import { czscDaily, czscMinute } from './czsc.js';
import { hikyuuDaily, hikyuuEvents, hikyuuShareCapital } from './hikyuu.js';
import { sinaHfq } from './sina.js';
import { stockstatsDaily } from './stockstats.js';
import { tdxCsvDaily, tdxCsvMinute, tdxDay, tdxLc1 } from './tdx.js';
import { tdxGbbqActions, tdxGbbqShareCapital } from './tdx-gbbq-datasets.js';
import {
  tushareAdjFactor,
  tushareDaily,
  tushareDailyBasic,
  tushareDividend,
  tushareMarginDetail,
  tushareSuspendD,
  tushareTradeCal,
} from './tushare.js';
import { tushareStockBasic } from './tushare-basic.js';
import { tushareIndexWeight } from './tushare-index.js';
import type { Layout } from './vendor.js';

export { VendorReport, type Layout, type VendorOptions } from './vendor.js';

export const LAYOUTS: readonly Layout[] = [
  tdxCsvDaily,
  tdxCsvMinute,
  tdxDay,
  tdxLc1,
  tdxGbbqActions,
  tdxGbbqShareCapital,
  hikyuuDaily,
  hikyuuEvents,
  hikyuuShareCapital,
  czscDaily,
  czscMinute,
  stockstatsDaily,
  sinaHfq,
  akshareCalendar,
  exchangeCalendars,
  tushareDaily,
  tushareAdjFactor,
  tushareTradeCal,
  tushareStockBasic,
  tushareDividend,
  tushareMarginDetail,
  tushareDailyBasic,
  tushareSuspendD,
  tushareIndexWeight,
];

/** Every vendor format name, in the order above. */
export const VENDOR_FORMATS: readonly string[] = [...new Set(LAYOUTS.map((l) => l.format))];

/** The layout of `format` for `dataset`, or the datasets the format loads (for the usage error). */
export function layoutOf(format: string, dataset: Dataset): Layout | string[] {
  const all = LAYOUTS.filter((l) => l.format === format);
  return all.find((l) => l.dataset === dataset.name) ?? all.map((l) => l.dataset);
}
