import { describe, expect, it } from 'vitest';
import { DATE_TIME_PATTERN, dateToDays, daysToDate, formatDate, isDate, parseDate, parseDateTime } from './time.js';

describe('calendar arithmetic', () => {
  it('agrees with Date.UTC on every day from 1900 to 2100 and round-trips', () => {
    const first = Date.UTC(1900, 0, 1) / 86_400_000,
      last = Date.UTC(2100, 11, 31) / 86_400_000;
    // Compared in plain code (146,000 expect calls took seconds), the differences reported at once.
    const differ: unknown[] = [];
    for (let n = first; n <= last; n++) {
      const t = new Date(n * 86_400_000);
      const d = t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
      if (daysToDate(n) !== d) differ.push({ n, daysToDate: daysToDate(n), want: d });
      if (dateToDays(d) !== n) differ.push({ d, dateToDays: dateToDays(d), want: n });
    }
    expect(differ.slice(0, 10)).toEqual([]);
    expect(dateToDays(19700101)).toBe(0);
    expect(dateToDays(20000229)).toBe(11016);
  });

  it('isDate takes exactly the numbers whose YYYY-MM-DD parseDate gives back', () => {
    const differ: number[] = [];
    const check = (d: number) => {
      if (isDate(d) !== (parseDate(formatDate(d)) === d)) differ.push(d);
    };
    for (const y of [0, 1, 999, 1000, 1900, 2000, 2023, 2024, 2100, 9999]) for (let md = 0; md <= 1340; md++) check(y * 10000 + md);
    for (const d of [-20240101, 99991232, 100000101, 123]) check(d);
    expect(differ).toEqual([]);
    expect([20240229, 20230229, 20241131, 20241301, 2024.5, NaN, 10000101, 9991231].map(isDate)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      true,
      false,
    ]);
  });
});

describe('DATE_TIME_PATTERN', () => {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  it('accepts what parseDateTime accepts, and only that', () => {
    const re = new RegExp(DATE_TIME_PATTERN, 'u');
    const values: string[] = [];
    for (const y of [0, 1, 4, 96, 99, 100, 400, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999]) {
      for (let m = 0; m <= 13; m++) for (let d = 0; d <= 32; d++) values.push(`${pad(y, 4)}-${pad(m)}-${pad(d)}`);
    }
    const times = [
      'T00:00',
      'T23:59',
      'T24:00',
      'T09:60',
      'T9:30',
      't10:30',
      ' 10:30',
      'x10:30',
      'T10:30:00',
      'T10:30:59',
      'T10:30:60',
      'T10:30:00.1',
      'T10:30:00.123456789',
      'T10:30:00.1234567890',
      'T10:30:00.',
      'T10:30.5',
      'T10:30:00,5',
    ];
    const offsets = ['', 'Z', 'z', '+08:00', '-05:30', '+23:59', '+24:00', '+08:60', '+0800', '+08', '+8:00', ' +08:00'];
    for (const day of ['2024-02-29', '2023-03-01']) for (const t of times) for (const o of offsets) values.push(`${day}${t}${o}`);
    values.push(
      '',
      ' 2024-01-02',
      '2024-01-02 ',
      '2024-1-2',
      '20240102',
      '+2024-01-02',
      '2024-01-02T',
      '2024-01-02Z',
      'yesterday',
      '２０２４-01-02',
    );
    expect(values.length).toBeGreaterThan(7000);
    const differ = values.filter((v) => re.test(v) !== (parseDateTime(v) !== null));
    expect(differ).toEqual([]);
    expect(values.filter((v) => re.test(v)).length).toBeGreaterThan(2000);
  });

  it('leaves leap days to leap years, year 0 one of them as in the proleptic Gregorian calendar', () => {
    expect(['0000-02-29', '0004-02-29', '2000-02-29', '2024-02-29'].map(parseDate)).toEqual([229, 40229, 20000229, 20240229]);
    expect(['0100-02-29', '1900-02-29', '2023-02-29', '2024-04-31'].map(parseDate)).toEqual([null, null, null, null]);
  });
});
