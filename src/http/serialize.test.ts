import { describe, expect, it } from 'vitest';
import { asciiJson, barJson, barRecord, indicatorJson, money2, price2 } from './serialize.js';
import { formatValue, type Values } from '../indicators/registry.js';
import { epochToMarketDate, formatTimestamp, marketEpoch } from '../lib/time.js';

/** The record the route schema describes, for JSON.stringify to render as the reference. */
function indicatorRecord(instrumentId: string, indicator: string, interval: string, adjustment: string) {
  return (ts: number, values: Values) => {
    const v: Record<string, string> = {};
    for (const k in values) v[k] = formatValue(values[k]);
    return { instrument_id: instrumentId, indicator, interval, adjustment, timestamp: formatTimestamp(ts), values: v };
  };
}
import { formatScaled } from '../lib/decimal.js';

describe('hand-compiled serialisers', () => {
  it('render prices and money exactly like the general formatter', () => {
    for (const v of [0, 10, 990, 1000, 1010, 123450, 99999990, 5, 1234567, -10, -1235]) {
      expect(price2(v)).toBe(formatScaled(v, 3, 2));
    }
    for (const v of [0, 1, 99, 100, 123456789012, -5, -12345]) expect(money2(v)).toBe(formatScaled(v, 2, 2));
    expect(money2(12345678901234567891n)).toBe('123456789012345678.91');
    expect(money2(5n)).toBe('0.05');
    expect(money2(-120n)).toBe('-1.20');
  });

  it('render a bar as JSON.stringify of its record would', () => {
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    for (const [kind, interval] of [['equity', '1d'], ['equity', '5m'], ['fund', '1m'], ['index', '1w']]) {
      const json = barJson('600000.SH', kind, interval, 'forward');
      const rec = barRecord('600000.SH', kind, interval, 'forward');
      for (let i = 0; i < 500; i++) {
        const base = kind === 'fund' ? 1 : 10;
        const b = {
          ts: 1700000000 + rnd(10_000_000) * 60, date: 20240101 + rnd(28),
          open: rnd(500_000) * base, high: rnd(500_000) * base, low: rnd(500_000) * base, close: rnd(500_000) * base,
          volume: rnd(1e9), amount: rnd(2 ** 31) * 1000 + rnd(100),
        };
        if (interval === '1d' || interval === '1w') b.ts = 0; // period bars carry their 15:00 close
        const expected = JSON.stringify({ ...rec(b), ...(b.ts === 0 ? { timestamp: rec({ ...b, ts: 0 }).trade_date + 'T15:00:00+08:00' } : {}) });
        expect(JSON.parse(json(b))).toEqual(JSON.parse(expected));
        expect(json(b)).toBe(expected);
      }
    }
  });

  it('render an indicator point as JSON.stringify of its record would', () => {
    let seed = 3;
    const rnd = () => { seed = (seed * 48271) % 2147483647; return seed / 2147483647; };
    for (const interval of ['5m', '1d']) {
      const json = indicatorJson('000001.SH', 'macd', interval, 'none');
      const rec = indicatorRecord('000001.SH', 'macd', interval, 'none');
      for (let i = 0; i < 2000; i++) {
        const ts = interval === '1d' ? marketEpoch(20200102 + Math.floor(rnd() * 6) * 10000 + Math.floor(rnd() * 12) * 100 + Math.floor(rnd() * 28), 900)
          : 1700000000 + Math.floor(rnd() * 1e7) * 60;
        const values: Record<string, number> = {};
        for (const k of ['dif', 'dea', 'macd']) if (rnd() > 0.2) values[k] = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 8 - 3);
        expect(json({ ts, date: epochToMarketDate(ts) }, values)).toBe(JSON.stringify(rec(ts, values)));
      }
    }
  });

  it('write the JSON of bars and points in ASCII, whatever the instrument id holds', () => {
    const id = 'Ünïcode 指数.SH';
    const bar = { ts: marketEpoch(20250102, 900), date: 20250102, open: 1000, high: 1100, low: 900, close: 1050, volume: 100, amount: 10500 };
    const b = barJson(id, 'index', '1d', 'none')(bar), p = indicatorJson(id, 'ma', '1d', 'none')(bar, { ma5: 1.5 });
    for (const s of [b, p]) expect(/^[\x20-\x7e]*$/.test(s)).toBe(true);
    expect(JSON.parse(b).instrument_id).toBe(id);
    expect(JSON.parse(p).instrument_id).toBe(id);
    expect(asciiJson('a"\\é')).toBe('"a\\"\\\\\\u00e9"');
  });
});
