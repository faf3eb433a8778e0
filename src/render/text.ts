import { formatTimestamp, marketEpoch } from '../lib/time.js';
import { AFTERNOON_CLOSE } from '../market/sessions.js';

/** Constant text of the API's JSON records, as bytes, and how text becomes JSON in ASCII. */

export const latin1 = (s: string) => Buffer.from(s, 'latin1');
export const OFFSET = latin1('+08:00');

/** A JSON string literal in ASCII: anything past U+007E written as a \u escape. */
export const asciiJson = (s: string) =>
  JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The time of day of a daily record's timestamp, its close: "T15:00:00+08:00". */
export const CLOSE_TIME = formatTimestamp(marketEpoch(19700101, AFTERNOON_CLOSE)).slice(10);
export const [closeTradeDate, open, high, low, close, volume, amount, end, amountNull] = [
  `${CLOSE_TIME}","trade_date":"`,
  '","open":"',
  '","high":"',
  '","low":"',
  '","close":"',
  '","volume":',
  ',"amount":"',
  '"}',
  ',"amount":null}',
].map(latin1);
export const [values, next, pointEnd, emptyEnd, tradeDateKey] = ['","values":{', '",', '"}}', '}}', '","trade_date":"'].map(latin1);
