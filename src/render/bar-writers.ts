import { PRICE_SCALE } from '../lib/decimal.js';
import { daysToDate, formatDate, MARKET_OFFSET_SECONDS } from '../lib/time.js';
import type { Bar, IntervalId } from '../market/types.js';
import { INTERVALS } from '../market/intervals.js';
import { KINDS, type InstrumentKind } from '../market/kinds.js';
import type { JsonBytes } from './json-bytes.js';
import { money2 } from './money.js';
import { amount, amountNull, asciiJson, close, closeTradeDate, end, high, latin1, low, open, volume } from './text.js';
import type { WriterCache } from './writer-cache.js';

/** A stored price (1/1000 CNY) rounded half away from zero to `digits` decimals (2 or 3). */
const writePrice = (w: JsonBytes, v: number, digits: number) => w.scaled(v, PRICE_SCALE, digits);

/**
 * Writes the JSON of a Bar record (the Bar schema's fields, in its order): prices at the
 * kind's tick (2 decimals, funds 3), money at 2 (null when unknown), volume an integer.
 */
export function barWriter(
  cache: WriterCache,
  instrumentId: string,
  kind: InstrumentKind,
  interval: IntervalId,
  adjustment: string,
): (w: JsonBytes, b: Bar) => void {
  return cache.memo(`b|${instrumentId}|${kind}|${interval}|${adjustment}`, () => {
    const write = barFieldsWriter(cache, instrumentId, kind, interval, adjustment);
    return (w: JsonBytes, b: Bar) => write(w, b.ts, b.date, b.open, b.high, b.low, b.close, b.volume, b.amountExact ?? b.amount);
  });
}

/** Writes a bar given as its fields (a packed record needs no Bar made of it); amount null: unknown. */
export type BarFieldsWriter = (
  w: JsonBytes,
  ts: number,
  date: number,
  open: number,
  high: number,
  low: number,
  close: number,
  volume: number,
  amount: number | bigint | null,
) => void;

/** As barWriter, for a bar given as its fields. */
export function barFieldsWriter(
  cache: WriterCache,
  instrumentId: string,
  kind: InstrumentKind,
  interval: IntervalId,
  adjustment: string,
): BarFieldsWriter {
  return cache.memo(`f|${instrumentId}|${kind}|${interval}|${adjustment}`, () => makeBarWriter(instrumentId, kind, interval, adjustment));
}

function makeBarWriter(instrumentId: string, kind: InstrumentKind, interval: IntervalId, adjustment: string): BarFieldsWriter {
  const headText = `{"instrument_id":${asciiJson(instrumentId)},"interval":${asciiJson(interval)},"adjustment":${asciiJson(adjustment)},"timestamp":"`;
  const head = latin1(headText);
  const digits = KINDS[kind].digits;
  const rest = (w: JsonBytes, o: number, h: number, l: number, c: number, v: number, a: number | bigint | null) => {
    writePrice(w, o, digits);
    w.bytes(high);
    writePrice(w, h, digits);
    w.bytes(low);
    writePrice(w, l, digits);
    w.bytes(close);
    writePrice(w, c, digits);
    w.bytes(volume);
    w.uint(v);
    if (a === null) {
      w.bytes(amountNull);
      return;
    }
    w.bytes(amount);
    if (typeof a === 'bigint') w.ascii(money2(a));
    else w.decimal(a, 2);
    w.bytes(end);
  };
  if (INTERVALS[interval].daily) {
    // The text up to the open, with room for the date twice: one copy a bar.
    const dateText = '0000-00-00';
    const tpl = latin1(`${headText}${dateText}${closeTradeDate.toString('latin1')}${dateText}${open.toString('latin1')}`);
    const at = [head.length, head.length + dateText.length + closeTradeDate.length];
    return (w, _ts, date, o, h, l, c, v, a) => {
      w.dated(tpl, at, date);
      if (typeof a === 'bigint') rest(w, o, h, l, c, v, a);
      else w.barTail(o, h, l, c, v, a, digits);
    };
  }
  // Intraday: the text before a bar's time of day and the text from it to its open are the
  // same for every bar of a day, so each is one run, made when the day changes.
  let day = NaN,
    tradeDate = NaN,
    before = head,
    after = head;
  return (w, ts, date, o, h, l, c, v, a) => {
    const local = ts + MARKET_OFFSET_SECONDS,
      days = Math.floor(local / 86_400);
    if (days !== day || date !== tradeDate) {
      day = days;
      tradeDate = date;
      before = latin1(`${headText}${formatDate(daysToDate(days))}T`);
      after = latin1(`+08:00","trade_date":"${formatDate(date)}","open":"`);
    }
    w.bytes(before);
    w.clock(local - days * 86_400);
    w.bytes(after);
    rest(w, o, h, l, c, v, a);
  };
}
