import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeDay, decodeMinute, RECORD } from './tdx.js';
import { shifted } from './vendor.js';

const SHARED = fileURLToPath(new URL('../../../../shared/data/ohlcv/', import.meta.url));
const HAVE_SHARED = existsSync(SHARED);

type Row = Record<string, string>;
const csv = (name: string): Row[] => {
  const [head, ...lines] = readFileSync(SHARED + name, 'utf8').trim().split(/\r?\n/);
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
};
const cents = (s: string) => Math.round(Number(s) * 100);

/** TDX `.day` records of CSV-like rows (the vendor's layout, written here independently of the decoder). */
function encodeDay(rows: Row[], volume: 'volume_shares' | 'volume_lots'): Buffer {
  const b = Buffer.alloc(rows.length * RECORD);
  rows.forEach((r, i) => {
    const o = i * RECORD;
    b.writeUInt32LE(Number(r.date.replace(/-/g, '')), o);
    ['open', 'high', 'low', 'close'].forEach((k, j) => b.writeUInt32LE(cents(r[k]), o + 4 + 4 * j));
    b.writeFloatLE(Number(r.amount_cny), o + 20);
    b.writeUInt32LE(Number(r[volume]), o + 24);
    b.writeUInt32LE(Number(r.tdx_reserved_u32 ?? 0), o + 28);
  });
  return b;
}

/** TDX `.lc1`/`.lc5` records: u16 date (year−2004)×2048+month×100+day, u16 minutes, f32 prices and amount. */
function encodeMinute(rows: Row[]): Buffer {
  const b = Buffer.alloc(rows.length * RECORD);
  rows.forEach((r, i) => {
    const o = i * RECORD;
    const [y, m, d] = r.date.split('-').map(Number);
    const [hh, mm] = r.time.split(':').map(Number);
    b.writeUInt16LE((y - 2004) * 2048 + m * 100 + d, o);
    b.writeUInt16LE(hh * 60 + mm, o + 2);
    ['open', 'high', 'low', 'close', 'amount_cny'].forEach((k, j) => b.writeFloatLE(Number(r[k]), o + 4 + 4 * j));
    b.writeUInt32LE(Number(r.volume_shares), o + 24);
  });
  return b;
}

const decodeAll = (b: Buffer, decode: typeof decodeDay) => Array.from({ length: b.length / RECORD }, (_, i) => decode(b, i * RECORD));
const two = (s: string) => shifted(s, 0, 2)!.replace(/^(\d+)$/, '$1.00').replace(/\.(\d)$/, '.$10');

describe('TDX binary records', () => {
  it('decodes a .day record: prices ×100 to cents, the float32 amount to 2 decimals, the volume as written', () => {
    const b = Buffer.alloc(RECORD);
    b.writeUInt32LE(20100610, 0);
    [1234, 1300, 1201, 1299].forEach((v, j) => b.writeUInt32LE(v, 4 + 4 * j));
    b.writeFloatLE(4859102208, 20);
    b.writeUInt32LE(174085000, 24);
    expect(decodeDay(b, 0)).toEqual({ date: '2010-06-10', minute: null, open: '12.34', high: '13.00', low: '12.01', close: '12.99', amount: '4859102208.00', volume: 174085000, ordered: true });
    // Funds: prices ×1000 (sh510300's first record in the Tongdaxin folder: close 3372 = 3.372 CNY).
    expect(decodeDay(b, 0, 3)).toMatchObject({ open: '1.234', high: '1.300', low: '1.201', close: '1.299' });
  });

  it('decodes an .lc1 record: the packed date, minutes since midnight, float32 prices rounded half-up to 2 decimals', () => {
    const b = Buffer.alloc(RECORD);
    b.writeUInt16LE((2021 - 2004) * 2048 + 4 * 100 + 23, 0);
    b.writeUInt16LE(9 * 60 + 31, 2);
    [36.71, 37.02, 36.705, 36.8, 256647].forEach((v, j) => b.writeFloatLE(v, 4 + 4 * j));
    b.writeUInt32LE(7000, 24);
    const r = decodeMinute(b, 0);
    expect(r).toMatchObject({ date: '2021-04-23', minute: 571, open: '36.71', high: '37.02', close: '36.80', amount: '256647.00', volume: 7000 });
    // float32(36.705) is 36.70500183…: half-up gives 36.71, never 36.70.
    expect(r.low).toBe('36.71');
  });

  describe.skipIf(!HAVE_SHARED)('the decoded CSV files of shared/data equal what encoding them as TDX records and decoding gives', () => {
    for (const [file, volume] of [['tdx_sh600000_daily_raw.csv', 'volume_shares'], ['tdx_sz000001_daily_raw.csv', 'volume_shares'],
      ['tdx_sh000001_index_daily.csv', 'volume_lots']] as const) {
      it(file, () => {
        const rows = csv(file);
        expect(decodeAll(encodeDay(rows, volume), decodeDay).map((r) => [r.date, r.open, r.high, r.low, r.close, r.amount, String(r.volume)]))
          .toEqual(rows.map((r) => [r.date, r.open, r.high, r.low, r.close, two(r.amount_cny), r[volume]]));
      });
    }
    for (const file of ['tdx_sh688001_1min.csv', 'tdx_sh688001_5min.csv']) {
      it(file, () => {
        const rows = csv(file);
        expect(decodeAll(encodeMinute(rows), decodeMinute).map((r) => [r.date, `${String(Math.floor(r.minute! / 60)).padStart(2, '0')}:${String(r.minute! % 60).padStart(2, '0')}`,
          r.open, r.high, r.low, r.close, r.amount, String(r.volume)]))
          .toEqual(rows.map((r) => [r.date, r.time, r.open, r.high, r.low, r.close, two(r.amount_cny), r.volume_shares]));
      });
    }
  });
});

describe('exact unit conversions', () => {
  it('moves the decimal point: lots to shares, thousands and 10k CNY to CNY, per 10 to per share', () => {
    expect(shifted('525152.77', 2, 0)).toBe('52515277');
    expect(shifted('49544517.0', 2, 0)).toBe('4954451700');
    expect(shifted('460697.377', 3, 2)).toBe('460697377');
    expect(shifted('0.00001', 3, 2)).toBe('0.01');
    expect(shifted('397.6', 4, 2)).toBe('3976000');
    expect(shifted('3.5', -1, 6)).toBe('0.35');
    expect(shifted('0.5', -1, 6)).toBe('0.05');
    expect(shifted('16', -1, 3)).toBe('1.6');
    expect(shifted('0', -1, 5)).toBe('0');
    expect(shifted('-0.0', 0, 2)).toBe('0');
  });
  it('refuses what is not exact at the target scale, or not a plain decimal', () => {
    expect(shifted('1.234567', 3, 2)).toBeNull();
    expect(shifted('1446880.625', 0, 2)).toBeNull();
    expect(shifted('1e5', 0, 2)).toBeNull();
    expect(shifted('', 0, 2)).toBeNull();
    expect(shifted('.', 0, 2)).toBeNull();
    expect(shifted('12.3.4', 0, 2)).toBeNull();
  });
});
