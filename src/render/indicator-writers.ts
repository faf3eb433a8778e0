import { formatValue, scaledValue } from '../indicators/format.js';
import { INDICATORS, type IndicatorId } from '../indicators/registry.js';
import type { Values } from '../indicators/types.js';
import type { IntervalId } from '../market/types.js';
import { INTERVALS } from '../market/intervals.js';
import { decimalAt } from './digits.js';
import type { JsonBytes, PointBody } from './json-bytes.js';
import { asciiJson, emptyEnd, latin1, next, pointEnd, tradeDateKey, values } from './text.js';
import type { WriterCache } from './writer-cache.js';

/**
 * Writes the JSON of a technical-indicator point of a bar (the TechnicalIndicatorPoint schema's
 * fields, in its order), values at 4 decimals as formatValue gives them.
 */
export function indicatorWriter(
  cache: WriterCache,
  instrumentId: string,
  indicator: string,
  interval: IntervalId,
  adjustment: string,
): (w: JsonBytes, b: { ts: number; date: number }, v: Values) => void {
  return cache.memo(`i|${instrumentId}|${indicator}|${interval}|${adjustment}`, () =>
    makeIndicatorWriter(cache, instrumentId, indicator, interval, adjustment),
  );
}

function makeIndicatorWriter(cache: WriterCache, instrumentId: string, indicator: string, interval: IntervalId, adjustment: string) {
  const head = latin1(
    `{"instrument_id":${asciiJson(instrumentId)},"indicator":${asciiJson(indicator)},"interval":${asciiJson(interval)},"adjustment":${asciiJson(adjustment)},"timestamp":"`,
  );
  const daily = INTERVALS[interval].daily;
  // The keys in their documented order (values list theirs in it, registry.test.ts).
  const keys = INDICATORS[indicator as IndicatorId]?.keys ?? [];
  const n = keys.length;
  const runs = pointRuns(keys);
  const body = n > 0 ? pointBody(cache, keys, runs) : null;
  // `"key":"` of each value key, for points that lack some.
  const keyText = keys.map((k) => latin1(asciiJson(k) + ':"'));
  const writeValue = (w: JsonBytes, x: number) => {
    const scaled = scaledValue(x);
    if (scaled === null) w.ascii(formatValue(x));
    else w.decimal(scaled, 4);
  };
  // The head, a date-time and a trade date, the runs and a value of up to 24 bytes each.
  const max = head.length + 25 + tradeDateKey.length + 10 + runs.reduce((a, r) => a + r.length + 24, 0);
  return (w: JsonBytes, b: { ts: number; date: number }, v: Values): void => {
    // A point that has all its keys is written in one pass.
    if (body !== null && w.indicatorPoint(head, daily, b.ts, b.date, body, v, max)) return;
    w.bytes(head);
    w.pointTime(daily, b.ts, b.date);
    w.bytes(values);
    let first = true;
    for (let i = 0; i < n; i++) {
      const x = v[keys[i]];
      if (x === undefined) continue;
      if (!first) w.bytes(next);
      w.bytes(keyText[i]);
      writeValue(w, x);
      first = false;
    }
    w.bytes(first ? emptyEnd : pointEnd);
  };
}

/** A value at 4 decimals at `p` (room made): the position after it, or -1 when only formatValue's exact path decides it. */
function value4(b: Uint8Array, p: number, x: number): number {
  const k = scaledValue(x);
  return k === null ? -1 : decimalAt(b, p, k, 4);
}

/**
 * The constant text of a point with all of `keys` after its trade date: before each
 * value (the key, and the text before it), then after the last.
 */
function pointRuns(keys: readonly string[]): Buffer[] {
  return [...keys.map((k, i) => latin1(`${i ? '",' : '","values":{'}${asciiJson(k)}:"`)), pointEnd];
}

/**
 * The PointBody of an indicator's keys, compiled once per key list, the way
 * fast-json-stringify compiles Fastify's serialisers: the text between values is constant, and
 * written as immediate byte stores it costs a third of copying it from a buffer byte by byte (a
 * short TypedArray.set costs a call more). The generated code holds only numbers and the keys
 * as string literals (JSON.stringify), and reads each key once.
 */
function pointBody(cache: WriterCache, keys: readonly string[], runs: readonly Uint8Array[]): PointBody {
  const id = keys.join('\u0000');
  let body = cache.bodies.get(id);
  if (body !== undefined) return body;
  const stores = (bytes: Uint8Array) => `${Array.from(bytes, (c) => `b[p++] = ${c};`).join(' ')}`;
  const lines = keys.map((k, i) =>
    [
      `x = v[${JSON.stringify(k)}];`,
      'if (x === undefined) return -1;',
      stores(runs[i]),
      'p = value4(b, p, x);',
      'if (p < 0) return -1;',
    ].join('\n'),
  );
  const src = `return function pointBody(b, p, v) {\nlet x;\n${lines.join('\n')}\n${stores(runs[keys.length])}\nreturn p;\n};`;
  body = new Function('value4', src)(value4) as PointBody;
  cache.bodies.set(id, body);
  return body;
}
