/**
 * Tongdaxin (通达信, TDX): the binary `.day` and `.lc1` files of `vipdoc/{sh,sz}/{lday,minline}`
 * and their decoded CSV copies (`tdx_*_daily*.csv`, `tdx_*_1min.csv`, shared/data/ohlcv/README.md).
 *
 * - `.day`: 32-byte little-endian records <u32 YYYYMMDD, u32 open, u32 high, u32 low, u32 close,
 *   f32 amount (CNY), u32 volume, u32 reserved>. Prices are ×100 (fen) for stocks and indices,
 *   ×1000 for funds (ETF, LOF: 3 decimals, sh510300 close 3372 = 3.372 CNY). Volume is in shares
 *   for stocks and funds, in lots of 100 for indices. The instrument's kind decides both.
 *   Bars dated before the market opened (BJ: NEEQ trading before the Beijing Stock Exchange
 *   opened on 2021-11-15) are skipped and counted.
 * - `.lc1`: 32-byte records <u16 date = (year−2004)×2048 + month×100 + day, u16 minutes since
 *   midnight (the bar's end), f32 open, high, low, close, f32 amount, u32 volume (shares), u32 reserved>.
 *   Float32 prices and amounts are rounded half-up to 2 decimals at once.
 * - 5-minute files (`.lc5`, `tdx_*_5min.csv`) are refused: there is no 5m dataset (5m bars are
 *   aggregated from bars_1m on read).
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { formatScaled } from '../../lib/decimal.js';
import { IngestIOError, type SourceRecord } from '../source.js';
import { EXCHANGES } from '../../market/markets.js';
import { formatDate, isDate } from '../../lib/time.js';
import { bar, Bad, dec, fileInstrument, lotsToShares, prices, PRICES, vendorCsv, type Layout, type VendorInput } from './vendor.js';

export const RECORD = 32;

const cents = (v: number) => formatScaled(v, 2, 2);
/** A float32 (CNY) rounded half-up to 2 decimals; a NaN or infinity as its name (a field the row then refuses). */
const f32 = (v: number) => (Number.isFinite(v) ? cents(Math.round(v * 100)) : String(v));

export interface DecodedBar {
  date: string;
  minute: number | null;
  open: string;
  high: string;
  low: string;
  close: string;
  amount: string;
  volume: number;
  /** Open and close within low..high (compared on the record's integers): the bar needs no widening (vendor.ts bar). */
  ordered?: boolean;
}

/** The `.day` record at `o`; prices have `digits` decimals (2, funds 3). */
export function decodeDay(b: Buffer, o: number, digits = 2): DecodedBar {
  const d = b.readUInt32LE(o);
  const date = `${Math.floor(d / 10000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}-${String(d % 100).padStart(2, '0')}`;
  const px = (v: number) => formatScaled(v, digits, digits);
  const open = b.readUInt32LE(o + 4),
    high = b.readUInt32LE(o + 8),
    low = b.readUInt32LE(o + 12),
    close = b.readUInt32LE(o + 16);
  return {
    date,
    minute: null,
    open: px(open),
    high: px(high),
    low: px(low),
    close: px(close),
    amount: f32(b.readFloatLE(o + 20)),
    volume: b.readUInt32LE(o + 24),
    ordered: low <= open && open <= high && low <= close && close <= high,
  };
}

/** The `.lc1`/`.lc5` record at `o`. */
export function decodeMinute(b: Buffer, o: number): DecodedBar {
  const d = b.readUInt16LE(o);
  const year = Math.floor(d / 2048) + 2004,
    md = d % 2048;
  const date = `${year}-${String(Math.floor(md / 100)).padStart(2, '0')}-${String(md % 100).padStart(2, '0')}`;
  return {
    date,
    minute: b.readUInt16LE(o + 2),
    open: f32(b.readFloatLE(o + 4)),
    high: f32(b.readFloatLE(o + 8)),
    low: f32(b.readFloatLE(o + 12)),
    close: f32(b.readFloatLE(o + 16)),
    amount: f32(b.readFloatLE(o + 20)),
    volume: b.readUInt32LE(o + 24),
  };
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * Refuses 5-minute bars: the second bar of a day ending 5 minutes after the first. Returns the
 * error for the record, or null; `state` remembers the previous bar.
 */
function fiveMinute(state: { date: string; minute: number }, date: string, minute: number): string | null {
  const step = state.date === date ? minute - state.minute : 0;
  state.date = date;
  state.minute = minute;
  return step === 5
    ? `time: bars 5 minutes apart (${hhmm(minute - 5)}, ${hhmm(minute)}): a 5-minute file; there is no 5m dataset ` +
        '(5m bars are aggregated from bars_1m on read), load the 1-minute file'
    : null;
}

/**
 * The `.day` record at `o` as bars_1d column values (inst, date, open … close in 1/1000 CNY,
 * volume in shares, amount in fen), with prices ×`scale` and volume ×`lot`: what parsing
 * decodeDay's text gives, when that text is a valid bar needing no widening (prices >= 0.001,
 * open and close within low..high, an amount); null otherwise (the text path then reports it).
 */
export function dayValues(b: Buffer, o: number, inst: number, scale: number, lot: number): number[] | null {
  const open = b.readUInt32LE(o + 4),
    high = b.readUInt32LE(o + 8),
    low = b.readUInt32LE(o + 12),
    close = b.readUInt32LE(o + 16);
  const amount = Math.round(b.readFloatLE(o + 20) * 100);
  if (!(low >= 1 && low <= open && open <= high && low <= close && close <= high) || !(amount >= 0 && Number.isSafeInteger(amount)))
    return null;
  return [inst, b.readUInt32LE(o), open * scale, high * scale, low * scale, close * scale, b.readUInt32LE(o + 24) * lot, amount];
}

/** Files up to this size are read whole, at once (a daily file of 30 years is 240 KB); larger ones are streamed. */
const READ_WHOLE = 8 << 20;

/**
 * 32-byte records of a binary file, streamed; a trailing partial record is an error. With
 * `input.range` only the bytes [from, to) are read (`mds ingest --tdx` again: the records after
 * those it loaded), numbered as in the whole file.
 */
async function* records<T>(input: VendorInput, decode: (b: Buffer, o: number) => T): AsyncGenerator<[number, T][] | SourceRecord> {
  let rest: Buffer = Buffer.alloc(0);
  const from = input.range?.from ?? 0;
  let n = Math.floor(from / RECORD);
  let chunks: AsyncIterable<Buffer> | Buffer[];
  let read = () => 0;
  try {
    const to = input.range?.to ?? statSync(input.path).size;
    if (to - from <= READ_WHOLE) {
      // One synchronous read: a whole market is thousands of small files, and a stream's turns cost more than the read.
      const whole = from === 0 && !input.range ? readFileSync(input.path) : readRange(input.path, from, to);
      chunks = [whole];
      read = () => whole.length;
    } else {
      const file = createReadStream(input.path, { highWaterMark: 1 << 20, start: from, end: input.range ? to - 1 : undefined });
      chunks = file as AsyncIterable<Buffer>;
      read = () => file.bytesRead;
    }
  } catch (e) {
    throw new IngestIOError(`${input.path}: ${(e as Error).message}`);
  }
  try {
    for await (const chunk of chunks) {
      input.onBytes(read());
      const b = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      const whole = b.length - (b.length % RECORD);
      const out: [number, T][] = [];
      for (let o = 0; o < whole; o += RECORD) out.push([++n, decode(b, o)]);
      rest = b.subarray(whole);
      if (out.length) yield out;
    }
  } catch (e) {
    throw new IngestIOError(`${input.path}: ${(e as Error).message}`);
  }
  if (rest.length) yield { line: n + 1, error: `a partial record of ${rest.length} bytes at the end (records are ${RECORD} bytes)` };
}

/** Bytes [from, to) of a file (fewer when it is shorter). */
export function readRange(path: string, from: number, to: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(Math.max(0, to - from));
    const got = readSync(fd, b, 0, b.length, from);
    return got === b.length ? b : b.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

export const tdxDay: Layout = {
  format: 'tdx-day',
  dataset: 'bars_1d',
  binary: true,
  async *read(input) {
    const id = fileInstrument(input);
    const kind = input.ctx.known(id)?.kind;
    const index = kind === 'index',
      fund = kind === 'fund';
    if (index) input.report.note(`volume read as lots of 100 shares (${id} is an index)`);
    if (fund) input.report.note(`prices read as thousandths of CNY (${id} is a fund)`);
    const market = id.slice(7);
    const opened = EXCHANGES.find((m) => m.id === market)?.opened ?? 0;
    const before = `bars before the ${id.slice(7)} market opened on ${formatDate(opened)}${id.endsWith('.BJ') ? ' (NEEQ trading)' : ''}`;
    const decode = fund ? (b: Buffer, o: number) => decodeDay(b, o, 3) : decodeDay;
    // Stored prices are 1/1000 CNY: a stock's or index's fen ×10, a fund's thousandths as they are.
    const inst = input.ctx.inst(id, ['equity', 'index', 'fund']);
    const [scale, lot] = [fund ? 1 : 10, index ? 100 : 1];
    for await (const batch of records(input, (b, o) => [b, o] as const)) {
      if (!Array.isArray(batch)) {
        yield [batch];
        continue;
      }
      const out: SourceRecord[] = [];
      for (const [n, [b, o]] of batch) {
        const day = b.readUInt32LE(o);
        if (!isDate(day)) {
          out.push({ line: n, error: `trade_date: expected a date YYYYMMDD, got ${day}` });
          continue;
        }
        if (day < opened) {
          input.report.skip(before);
          continue;
        }
        if (input.skipClosedDays && !input.ctx.isTradingDay(market, day)) {
          input.report.skip(`bars on days the ${market} market was closed`);
          continue;
        }
        const values = inst === undefined ? null : dayValues(b, o, inst, scale, lot);
        if (values) {
          out.push({ line: n, values });
          continue;
        }
        const r = decode(b, o);
        const volume = String(index ? r.volume * 100 : r.volume);
        out.push({
          line: n,
          object: r.ordered
            ? { instrument_id: id, trade_date: r.date, open: r.open, high: r.high, low: r.low, close: r.close, volume, amount: r.amount }
            : bar(input.report, r.date, { instrument_id: id, trade_date: r.date }, { ...r, volume }),
        });
      }
      yield out;
    }
  },
};

export const tdxLc1: Layout = {
  format: 'tdx-lc1',
  dataset: 'bars_1m',
  binary: true,
  async *read(input) {
    const id = fileInstrument(input);
    const state = { date: '', minute: 0 };
    for await (const batch of records(input, decodeMinute)) {
      if (!Array.isArray(batch)) {
        yield [batch];
        continue;
      }
      const out: SourceRecord[] = [];
      for (const [n, r] of batch) {
        const five = fiveMinute(state, r.date, r.minute!);
        if (five) {
          yield [...out, { line: n, error: five }];
          return;
        }
        out.push({
          line: n,
          object: bar(
            input.report,
            `${r.date} ${hhmm(r.minute!)}`,
            { instrument_id: id, timestamp: `${r.date}T${hhmm(r.minute!)}:00+08:00` },
            { ...r, volume: String(r.volume) },
          ),
        });
      }
      yield out;
    }
  },
};

export const tdxCsvDaily: Layout = {
  format: 'tdx-csv',
  dataset: 'bars_1d',
  async *read(input) {
    const id = fileInstrument(input);
    let lots: boolean | null = null;
    yield* vendorCsv(input, ['date', ...PRICES, 'amount_cny'], (get) => {
      if (lots === null) {
        lots = get('volume_lots') !== '';
        if (!lots && get('volume_shares') === '') throw new Bad('volume_shares', 'expected a volume_shares or volume_lots column');
        if (lots) input.report.note('volume_lots read as lots of 100 shares');
      }
      const date = get('date');
      return bar(
        input.report,
        date,
        { instrument_id: id, trade_date: date },
        {
          ...prices(get),
          volume: lots ? lotsToShares(get, 'volume_lots') : dec(get, 'volume_shares', 0),
          amount: dec(get, 'amount_cny', 2),
        },
      );
    });
  },
};

export const tdxCsvMinute: Layout = {
  format: 'tdx-csv',
  dataset: 'bars_1m',
  async *read(input) {
    const id = fileInstrument(input);
    const state = { date: '', minute: 0 };
    for await (const batch of vendorCsv(input, ['date', 'time', ...PRICES, 'amount_cny', 'volume_shares'], (get) => {
      const date = get('date'),
        time = get('time');
      const m = /^(\d{2}):(\d{2})$/.exec(time);
      if (!m) throw new Bad('time', `expected the bar's end HH:MM, got ${JSON.stringify(time)}`);
      const five = fiveMinute(state, date, Number(m[1]) * 60 + Number(m[2]));
      if (five) throw new Bad('time', five.slice('time: '.length));
      return bar(
        input.report,
        `${date} ${time}`,
        { instrument_id: id, timestamp: `${date}T${time}:00+08:00` },
        { ...prices(get), volume: dec(get, 'volume_shares', 0), amount: dec(get, 'amount_cny', 2) },
      );
    })) {
      // One error for a 5-minute file, not one per bar.
      const cut = batch.findIndex((r) => r.error?.includes('a 5-minute file'));
      yield cut < 0 ? batch : batch.slice(0, cut + 1);
      if (cut >= 0) return;
    }
  },
};
