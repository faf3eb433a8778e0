/**
 * Trading calendars → trading_days of the markets given (`--market`, default SH and SZ: the two
 * exchanges share their holidays):
 * - akshare `calendar.json`: a JSON array of `YYYYMMDD` strings, one per SSE/SZSE trading day
 *   (read whole: about 9,000 short strings);
 * - exchange_calendars' session answers (`xshg.csv`): the first column (no name) is the session
 *   date `YYYY-MM-DDT00:00:00Z`; the library starts XSHG on 1990-12-03, the exchange opened on
 *   1990-12-19, so earlier sessions are skipped.
 */
import { readFile } from 'node:fs/promises';
import { encodingError, IngestIOError, strictDecoder, type SourceRecord } from '../source.js';
import { Bad, vendorCsv, type Layout, type VendorInput } from './vendor.js';

const SSE_OPENED = '1990-12-19';

const marketsOf = (input: VendorInput) => input.markets ?? ['SH', 'SZ'];
const days = (input: VendorInput, date: string) => marketsOf(input).map((market) => ({ market, date }));

export const akshareCalendar: Layout = {
  format: 'akshare',
  dataset: 'trading_days',
  async *read(input) {
    let bytes: Buffer;
    try {
      bytes = await readFile(input.path);
    } catch (e) {
      throw new IngestIOError(`${input.path}: ${(e as Error).message}`);
    }
    input.onBytes(bytes.length);
    let text: string;
    try {
      text = strictDecoder(input.encoding ?? 'utf8').decode(bytes);
    } catch {
      yield [await encodingError(input.path, false, input.encoding ?? 'utf8')];
      return;
    }
    if (!/^\uFEFF?\s*\[/.test(text)) {
      yield [{ line: 1, error: 'expected a JSON array of dates YYYYMMDD' }];
      return;
    }
    const out: SourceRecord[] = [];
    let line = 1,
      at = 0;
    for (const m of text.matchAll(/"([^"]*)"|([^\s[\],"]+)/g)) {
      for (; at < m.index!; at++) if (text.charCodeAt(at) === 10) line++;
      const v = m[1] ?? m[2];
      if (m[1] === undefined || !/^\d{8}$/.test(v)) {
        out.push({ line, error: `expected a date string "YYYYMMDD", got ${v}` });
        continue;
      }
      for (const o of days(input, `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6)}`)) out.push({ line, object: o });
    }
    yield out;
  },
};

export const exchangeCalendars: Layout = {
  format: 'exchange-calendars',
  dataset: 'trading_days',
  async *read(input) {
    yield* vendorCsv(input, [''], (get) => {
      const v = get('');
      if (!/^\d{4}-\d{2}-\d{2}T00:00:00Z$/.test(v))
        throw new Bad('session', `expected a session date YYYY-MM-DDT00:00:00Z in the first column, got ${JSON.stringify(v)}`);
      const date = v.slice(0, 10);
      if (date < SSE_OPENED) {
        input.report.skip(`sessions before ${SSE_OPENED} (the exchange had not opened)`);
        return null;
      }
      return days(input, date);
    });
  },
};
