import { describe, expect, it } from 'vitest';
import { barRecord } from './serialize.js';
import { money2 } from '../render/money.js';
import { Renderer, type JsonBytes } from '../render/json-bytes.js';
import { asciiJson } from '../render/text.js';
import { barWriter as barWriterIn } from '../render/bar-writers.js';
import { indicatorWriter as indicatorWriterIn } from '../render/indicator-writers.js';
import { recordWriter } from '../render/record-writer.js';
import { WriterCache } from '../render/writer-cache.js';

const writers = new WriterCache();
const barWriter = (...a: Parameters<typeof barWriterIn> extends [unknown, ...infer R] ? R : never) => barWriterIn(writers, ...a);
const indicatorWriter = (...a: Parameters<typeof indicatorWriterIn> extends [unknown, ...infer R] ? R : never) =>
  indicatorWriterIn(writers, ...a);
import { declaredItem, declaredWriter } from './routes/fundamentals/declared.js';
import { FUNDAMENTALS, financialIndicators, incomeStatements } from '../datasets/fundamentals.js';
import type { RecordDataset } from './schemas/declared.js';
import type { DatasetDef } from '../datasets/dataset.js';
import { formatValue, INDICATOR_IDS, INDICATORS, type Values } from '../indicators/registry.js';
import { epochToMarketDate, formatDate, formatTimestamp, marketEpoch } from '../lib/time.js';
import type { IntervalId } from '../market/types.js';
import type { InstrumentKind } from '../market/kinds.js';

/** The record the route schema describes, for JSON.stringify to render as the reference. */
function indicatorRecord(instrumentId: string, indicator: string, interval: string, adjustment: string) {
  return (ts: number, values: Values) => {
    const v: Record<string, string> = {};
    for (const k in values) v[k] = formatValue(values[k]);
    return {
      instrument_id: instrumentId,
      indicator,
      interval,
      adjustment,
      timestamp: formatTimestamp(ts),
      trade_date: formatDate(epochToMarketDate(ts)),
      values: v,
    };
  };
}
import { formatScaled } from '../lib/decimal.js';

const renderer = new Renderer();

/** What a writer writes, as text. */
function text<A extends unknown[]>(write: (w: JsonBytes, ...args: A) => void, ...args: A): string {
  const w = renderer.start();
  write(w, ...args);
  return w.take().toString('latin1');
}

describe('hand-compiled serialisers', () => {
  it('write integers, decimals, dates and timestamps as the general formatters do', () => {
    let seed = 11;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const ints = [0, 1, 9, 10, 99, 100, 101, 1000, 123456789012, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i < 2000; i++) ints.push(Math.floor(rnd() * 10 ** Math.floor(rnd() * 16)));
    for (const v of ints) {
      expect(text((w, x: number) => w.uint(x), v)).toBe(String(v));
      for (const d of [2, 3, 4]) for (const x of [v, -v]) expect(text((w, y: number) => w.decimal(y, d), x)).toBe(formatScaled(x, d, d));
    }
    // One writer (it remembers the last day) over timestamps in random order, and dates.
    const w = renderer.start();
    const expected: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const ts = 946684800 + Math.floor(rnd() * 1e9);
      w.timestamp(ts);
      w.byte(32);
      expected.push(formatTimestamp(ts));
      if (rnd() < 0.5) {
        const d = epochToMarketDate(ts);
        w.date(d);
        w.byte(32);
        expected.push(formatDate(d));
      }
    }
    expect(w.take().toString('latin1')).toBe(expected.join(' ') + ' ');
  });

  it('render money past 2^53 exactly', () => {
    for (const v of [0, 1, 99, 100, 123456789012, -5, -12345]) expect(money2(v)).toBe(formatScaled(v, 2, 2));
    expect(money2(12345678901234567891n)).toBe('123456789012345678.91');
    expect(money2(5n)).toBe('0.05');
    expect(money2(-120n)).toBe('-1.20');
  });

  it('render a bar as JSON.stringify of its record would', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const [kind, interval] of [
      ['equity', '1d'],
      ['fund', '1d'],
      ['index', '1d'],
      ['equity', '5m'],
      ['fund', '1m'],
      ['index', '1w'],
    ] as [InstrumentKind, IntervalId][]) {
      const write = barWriter('600000.SH', kind, interval, 'forward');
      const rec = barRecord('600000.SH', kind, interval, 'forward');
      for (let i = 0; i < 500; i++) {
        // Prices off the tick too (rounded half away from zero to it).
        const base = kind === 'fund' || rnd(4) === 0 ? 1 : 10;
        const b = {
          ts: 1700000000 + rnd(10_000_000) * 60,
          date: 20240101 + rnd(28),
          open: rnd(500_000) * base,
          high: rnd(500_000) * base,
          low: rnd(500_000) * base,
          close: rnd(500_000) * base,
          volume: rnd(1e9),
          amount: rnd(2 ** 31) * 1000 + rnd(100),
        };
        if (interval === '1d' || interval === '1w') b.ts = 0; // period bars carry their 15:00 close
        const expected = JSON.stringify({
          ...rec(b),
          ...(b.ts === 0 ? { timestamp: rec({ ...b, ts: 0 }).trade_date + 'T15:00:00+08:00' } : {}),
        });
        expect(JSON.parse(text(write, b))).toEqual(JSON.parse(expected));
        expect(text(write, b)).toBe(expected);
      }
    }
  });

  it('render a bar of unknown amount with "amount":null, daily and intraday, as JSON.stringify of its record would', () => {
    for (const interval of ['1d', '5m'] as const) {
      const b = {
        ts: interval === '1d' ? 0 : 1700000040,
        date: 20231115,
        open: 3_000_120,
        high: 3_001_000,
        low: 2_999_000,
        close: 3_000_500,
        volume: 720_858_300,
        amount: null,
      };
      const rec = barRecord('000001.SH', 'index', interval, 'none')(b);
      if (interval === '1d') rec.timestamp = '2023-11-15T15:00:00+08:00';
      const out = text(barWriter('000001.SH', 'index', interval, 'none'), b);
      expect(out).toBe(JSON.stringify(rec));
      expect(out.endsWith('"volume":720858300,"amount":null}')).toBe(true);
    }
  });

  it('render an indicator point as JSON.stringify of its record would', () => {
    let seed = 3;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (const interval of ['5m', '1d'] as const) {
      const write = indicatorWriter('000001.SH', 'macd', interval, 'none');
      const rec = indicatorRecord('000001.SH', 'macd', interval, 'none');
      for (let i = 0; i < 2000; i++) {
        const ts =
          interval === '1d'
            ? marketEpoch(20200102 + Math.floor(rnd() * 6) * 10000 + Math.floor(rnd() * 12) * 100 + Math.floor(rnd() * 28), 900)
            : 1700000000 + Math.floor(rnd() * 1e7) * 60;
        const values: Record<string, number> = {};
        for (const k of ['dif', 'dea', 'macd']) if (rnd() > 0.2) values[k] = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 8 - 3);
        expect(text(write, { ts, date: epochToMarketDate(ts) }, values)).toBe(JSON.stringify(rec(ts, values)));
      }
    }
  });

  it('render indicator values at every magnitude and rounding edge as formatValue does', () => {
    const edges = [
      0, 1e-7, -1e-7, 0.00005, -0.00005, 0.00004999, 1.00005, 9.99995, 99.99995, 100, -100.00005, 999.9999, 1234.56785, -9999.99995, 10000,
      12345.6789, -54321.12345, 99999.99994, 99999.99995, 100000.5, 123456789.123, 1e20,
    ];
    for (const interval of ['1d', '1m'] as const) {
      const write = indicatorWriter('000001.SZ', 'macd', interval, 'none');
      const rec = indicatorRecord('000001.SZ', 'macd', interval, 'none');
      const ts = marketEpoch(20240301, interval === '1d' ? 900 : 630);
      for (const a of edges) {
        for (const b of [edges[3], -a]) {
          const values = { dif: a, dea: b, macd: a - b };
          const out = text(write, { ts, date: epochToMarketDate(ts) }, values);
          expect(out).toBe(JSON.stringify(rec(ts, values)));
          expect(JSON.parse(out).values.dif).toBe(formatValue(a));
        }
      }
    }
  });

  it('render the points of every indicator, with all its keys or some, daily and intraday', () => {
    let seed = 11;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (const id of INDICATOR_IDS) {
      for (const interval of ['1d', '15m'] as const) {
        const write = indicatorWriter('600000.SH', id, interval, 'forward');
        const rec = indicatorRecord('600000.SH', id, interval, 'forward');
        for (let i = 0; i < 50; i++) {
          const ts = marketEpoch(20250102 + Math.floor(rnd() * 11) * 100, interval === '1d' ? 900 : 600 + Math.floor(rnd() * 300));
          const values: Record<string, number> = {};
          for (const k of INDICATORS[id].keys) if (i % 2 === 0 || rnd() > 0.3) values[k] = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 6 - 2);
          expect(text(write, { ts, date: epochToMarketDate(ts) }, values), `${id} ${interval}`).toBe(JSON.stringify(rec(ts, values)));
        }
      }
    }
  });

  it('write the JSON of bars and points in ASCII, whatever the instrument id holds', () => {
    const id = 'Ünïcode 指数.SH';
    const bar = {
      ts: marketEpoch(20250102, 900),
      date: 20250102,
      open: 1000,
      high: 1100,
      low: 900,
      close: 1050,
      volume: 100,
      amount: 10500,
    };
    const b = text(barWriter(id, 'index', '1d', 'none'), bar),
      p = text(indicatorWriter(id, 'ma', '1d', 'none'), bar, { ma5: 1.5 });
    for (const s of [b, p]) expect(/^[\x20-\x7e]*$/.test(s)).toBe(true);
    expect(JSON.parse(b).instrument_id).toBe(id);
    expect(JSON.parse(p).instrument_id).toBe(id);
    expect(asciiJson('a"\\é')).toBe('"a\\"\\\\\\u00e9"');
  });
});

describe('record writers', () => {
  let seed = 5;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pick = <T>(a: T[]) => a[rnd(a.length)];

  it("write every kind of field as JSON.stringify of the record, in the fields' order, in ASCII", () => {
    interface R {
      s: string | null;
      d: number | null;
      b: boolean;
      i: number | null;
      p: number | null;
      m: number | null;
    }
    const write = recordWriter<R, string>([
      { key: 'id', json: asciiJson('600000.SH') },
      { key: 'context', string: (_r, c) => c },
      { key: 'text', string: (r) => r.s },
      { key: 'day', date: (r) => r.d },
      { key: 'flag', boolean: (r) => r.b },
      { key: 'n', integer: (r) => r.i },
      { key: 'price', scaled: (r) => r.p, scale: 3, digits: 2 },
      { key: 'money', scaled: (r) => r.m, scale: 2, digits: 2 },
      { key: 'zero "const"', json: '0' },
    ]);
    const strings = ['', 'main_board', 'say "hi"', 'back\\slash', 'tab\there', '浦发银行', 'line\nbreak', '\u007f', 'é'];
    for (let i = 0; i < 3000; i++) {
      const r: R = {
        s: rnd(5) === 0 ? null : pick(strings),
        d: rnd(5) === 0 ? null : 19900101 + rnd(36) * 10000 + rnd(12) * 100 + rnd(28),
        b: rnd(2) === 0,
        i: rnd(5) === 0 ? null : rnd(2 ** 31) - 2 ** 30,
        p: rnd(5) === 0 ? null : (rnd(2) ? 1 : -1) * rnd(10 ** (1 + rnd(9))),
        m: rnd(5) === 0 ? null : (rnd(2) ? 1 : -1) * rnd(10 ** (1 + rnd(12))),
      };
      const expected = {
        id: '600000.SH',
        context: `ctx ${i}`,
        text: r.s,
        day: r.d === null ? null : formatDate(r.d),
        flag: r.b,
        n: r.i,
        price: r.p === null ? null : formatScaled(r.p, 3, 2),
        money: r.m === null ? null : formatScaled(r.m, 2, 2),
        'zero "const"': 0,
      };
      const out = text(write, r, `ctx ${i}`);
      expect(/^[\x20-\x7e]*$/.test(out), out).toBe(true);
      expect(JSON.stringify(JSON.parse(out))).toBe(JSON.stringify(expected));
    }
  });

  it("write statements with the keys of their schema, at each column's scale", () => {
    type StatementFields = { money?: string[]; perShare?: string[]; hundredths?: string[] };
    const cases: [RecordDataset, StatementFields][] = [
      [
        incomeStatements,
        {
          money: ['revenue', 'operating_cost', 'operating_profit', 'total_profit', 'income_tax', 'net_profit', 'net_profit_attributable'],
          perShare: ['basic_eps'],
        },
      ],
      [
        financialIndicators,
        {
          perShare: ['eps', 'bps'],
          hundredths: [
            'roe',
            'roa',
            'gross_margin',
            'net_margin',
            'debt_to_assets',
            'current_ratio',
            'quick_ratio',
            'revenue_yoy',
            'net_profit_yoy',
          ],
        },
      ],
    ];
    for (const [d, fields] of cases) {
      const write = declaredWriter(d);
      for (let i = 0; i < 200; i++) {
        const row: Record<string, any> = {
          report_date: 20240331,
          report_type: pick(['q1', 'h1', 'q3', 'annual']),
          announce_date: 20240425,
        };
        const expected: Record<string, unknown> = {
          instrument_id: '000001.SZ',
          report_date: '2024-03-31',
          report_type: row.report_type,
          announce_date: '2024-04-25',
        };
        for (const key of d.columns.slice(4).map((c) => c.name)) {
          const digits = fields.money?.includes(key) ? 2 : fields.perShare?.includes(key) ? 4 : 2;
          row[key] = rnd(6) === 0 && !fields.money?.includes(key) ? null : (rnd(2) ? 1 : -1) * rnd(10 ** (1 + rnd(13)));
          expected[key] = row[key] === null ? null : formatScaled(row[key], digits, digits);
        }
        expect(JSON.stringify(JSON.parse(text(write, row, '000001.SZ')))).toBe(JSON.stringify(expected));
      }
    }
  });

  it('write every declared record alike through the byte writer and the schema serialiser’s item', () => {
    for (const d of FUNDAMENTALS as readonly DatasetDef[]) {
      if (!d.record) continue;
      const rd = d as RecordDataset;
      const write = declaredWriter(rd),
        item = declaredItem(rd);
      for (let i = 0; i < 100; i++) {
        const row: Record<string, unknown> = {};
        for (const c of d.columns) {
          const nul = !c.required && rnd(5) === 0;
          row[c.column] = nul
            ? null
            : c.type === 'date'
              ? 20000101 + rnd(25) * 10000 + rnd(12) * 100 + rnd(28)
              : c.type === 'enum'
                ? pick([...c.values!])
                : c.type === 'text'
                  ? pick(['贵州茅台', 'a "quoted" \\ name', 'plain'])
                  : (rnd(2) ? 1 : -1) * rnd(10 ** (1 + rnd(12))) + 0;
        }
        const viaWriter = JSON.parse(text(write, row, '600519.SH'));
        const viaItem = item(row, '600519.SH');
        expect(viaWriter, d.name).toEqual(viaItem);
        expect(Object.keys(viaItem), d.name).toEqual(d.columns.filter((c) => !d.record!.omit?.includes(c.name)).map((c) => c.name));
        expect(viaItem.instrument_id).toBe('600519.SH');
      }
    }
  });
});
