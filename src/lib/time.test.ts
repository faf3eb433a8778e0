import { describe, expect, it } from 'vitest';
import { dateToDays, daysToDate } from './time.js';

describe('calendar arithmetic', () => {
  it('agrees with Date.UTC on every day from 1900 to 2100 and round-trips', () => {
    const first = Date.UTC(1900, 0, 1) / 86_400_000, last = Date.UTC(2100, 11, 31) / 86_400_000;
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
});
